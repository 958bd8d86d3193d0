import { describe, expect, it } from 'vitest';
import { STANDALONE_RUN_ID, readStandaloneRun } from '../core/index.ts';
import { storeWithEngine, withEndpointModels } from '../test/modelStore.ts';
import { politeEngine } from '../test/scriptedModels.ts';
import { replaySelectors } from './replaySelectors.ts';

const KEY = 'sk-standalone-3e9c1d7a5b2f4e60';

/** The viewer's template as far as the page that writes into it knows: a title and the run's place. */
const TEMPLATE = `<!doctype html><html><head><title>PolicyLab run</title></head><body><script type="application/json" id="${STANDALONE_RUN_ID}"></script></body></html>`;

const engine = politeEngine;

/** A finished run of the mini project over an endpoint with an API key, open in the Replay pane. */
async function finishedRun(viewerTemplate?: () => Promise<string>) {
  const { store } = storeWithEngine(engine, viewerTemplate ? { viewerTemplate } : {});
  const endpoint = await withEndpointModels(store);
  store.getState().setApiKey(endpoint, KEY);
  await store.getState().startRun();
  const run = store.getState().currentRun;
  if (!run) throw new Error('The run did not start.');
  await store.getState().openReplay({ run: run.id });
  return { store, run };
}

/** The text of the page's data element. */
function embedded(html: string): string {
  const open = `id="${STANDALONE_RUN_ID}">`;
  const from = html.indexOf(open) + open.length;
  return html.slice(from, html.indexOf('</script>', from));
}

describe('a run as a standalone page', () => {
  it('writes the run in the Replay pane into the viewer, named after it, with no key in its bytes', async () => {
    const { store, run } = await finishedRun(() => Promise.resolve(TEMPLATE));
    // The key is in the page, as it is while a person works.
    expect(Object.values(store.getState().apiKeys)).toContain(KEY);
    const page = await store.getState().standaloneReplayPage();
    expect(page?.fileName).toBe('1 scenario × 1 · m.html');
    const html = page?.html ?? '';
    // Nothing of the endpoint is in the file: neither its key nor where it is.
    const bytes = Buffer.from(new TextEncoder().encode(html));
    expect(bytes.length).toBeGreaterThan(TEMPLATE.length);
    expect(bytes.indexOf(Buffer.from(KEY))).toBe(-1);
    expect(html).not.toContain('127.0.0.1:9');
    expect(html).toContain('<title>1 scenario × 1 · m</title>');
    expect(readStandaloneRun(embedded(html))).toEqual({
      ok: true,
      title: run.title,
      events: replaySelectors(store).selectReplayEvents(store.getState()),
    });
  });

  it('says why when it cannot make one', async () => {
    const { store } = await finishedRun();
    expect(await store.getState().standaloneReplayPage()).toBeUndefined();
    expect(store.getState().replayMessage).toBe('Standalone pages cannot be made here.');

    const offline = await finishedRun(() =>
      Promise.reject(new Error('the viewer could not be downloaded.')),
    );
    expect(await offline.store.getState().standaloneReplayPage()).toBeUndefined();
    expect(offline.store.getState().replayMessage).toBe(
      'The standalone page could not be made: the viewer could not be downloaded.',
    );

    const wrong = await finishedRun(() => Promise.resolve('<html>a login page</html>'));
    expect(await wrong.store.getState().standaloneReplayPage()).toBeUndefined();
    expect(wrong.store.getState().replayMessage).toMatch(/not PolicyLab’s viewer/);
  });

  it('waits for a run to finish', async () => {
    const { store, run } = await finishedRun(() => Promise.resolve(TEMPLATE));
    store.setState({ currentRun: { ...run, live: true } });
    expect(await store.getState().standaloneReplayPage()).toBeUndefined();
    expect(store.getState().replayMessage).toBe(
      'A run can be saved as a page once it has finished.',
    );
  });
});
