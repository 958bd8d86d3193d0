import { describe, expect, it } from 'vitest';
import { createMemoryRunRepository } from '../adapters/storage/runRepository.ts';
import type { Project } from '../core/index.ts';
import { encodeShareLink, gzipLog, toBundle, zipProject } from '../core/index.ts';
import { miniProject } from '../core/testing/miniProject.ts';
import { simulateRefunds } from '../test/refundDesk.ts';
import { testServices } from '../test/services.ts';
import { createAppStore } from './createAppStore.ts';

/** A store with the person's own project open and saved: the thing sharing must never touch. */
async function storeWithOwnWork() {
  const runs = createMemoryRunRepository();
  const store = createAppStore(testServices({ runs }));
  await store.getState().boot({ fresh: true });
  store.getState().setFileText('agent.md', '# My own agent, being written.\n');
  await store.getState().saveNow();
  const own = { id: store.getState().projectId, files: store.getState().project.files };
  return { store, own, runs };
}

const shared: Project = { ...miniProject(), name: 'Refund desk' };
const bytes = (text: string) => new TextEncoder().encode(text);

describe('what comes in through sharing', () => {
  it('opens a link as a new project with its view, and Undo takes it away again', async () => {
    const { store, own } = await storeWithOwnWork();
    const link = `https://policylab.test/#${encodeShareLink(shared, {
      maximize: 'graph',
      policy: 'refund-window',
      search: 'refund',
      sample: ['refund-window'],
    })}`;
    await store.getState().openShared(link);
    const state = store.getState();
    expect(state.projectId).not.toBe(own.id);
    expect(state.project.files).toEqual(shared.files);
    expect(state.arrival).toMatchObject({ name: 'Refund desk', from: 'link', previous: own.id });
    expect(state.selectedPolicy?.id).toBe('refund-window');
    expect(state.graphFilters.search).toBe('refund');
    expect(state.highlightedPolicies).toEqual(['refund-window']);
    expect(state.paneRequest).toMatchObject({ pane: 'graph', maximize: true });

    await store.getState().undoArrival();
    expect(store.getState().projectId).toBe(own.id);
    expect(store.getState().project.files).toEqual(own.files);
    expect(store.getState().projects.map((p) => p.id)).toEqual([own.id]);
    expect(store.getState().deleted).toBeNull();
  });

  it('says so when the link is to a project already here, instead of making another', async () => {
    const { store } = await storeWithOwnWork();
    await store.getState().openShared(`#${encodeShareLink(shared)}`);
    const first = store.getState().projectId;
    await store.getState().openShared(`#${encodeShareLink({ ...shared, name: 'Renamed' })}`);
    expect(store.getState().shareNotice).toMatchObject({ kind: 'duplicate', projectId: first });
    expect(store.getState().projects).toHaveLength(2);
  });

  it('refuses a bad link or bundle with a message, and the open project stays as it was', async () => {
    const { store, own } = await storeWithOwnWork();
    const link = encodeShareLink(shared);
    const hostile = [
      `#${link.slice(0, link.length - 40)}`,
      '#p=1.%%%not-base64%%%',
      '#p=99.AAAA',
      'hello there',
      '{"format":"policylab/1","files":{"__proto__":{"polluted":true},"agent.md":5}}',
      '{"format":"policylab/1"',
    ];
    for (const input of hostile) {
      await store.getState().openShared(input);
      expect(store.getState().shareNotice?.kind, input).toBe('error');
      expect(store.getState().shareNotice?.message.length, input).toBeGreaterThan(10);
      expect(store.getState().projectId).toBe(own.id);
      expect(store.getState().project.files).toEqual(own.files);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it('opens a zip, a bundle file and a folder’s files as projects, and a gzip log as a run', async () => {
    const { store, runs } = await storeWithOwnWork();
    await store.getState().importFiles([{ name: 'desk.zip', bytes: zipProject(shared) }]);
    expect(store.getState().project.files).toEqual(shared.files);
    expect(store.getState().arrival?.from).toBe('file');

    const other = { ...shared, files: { ...shared.files, 'agent.md': '# Another desk.\n' } };
    await store
      .getState()
      .importFiles([{ name: 'other.policylab.json', bytes: bytes(toBundle(other)) }]);
    expect(store.getState().project.files['agent.md']).toBe('# Another desk.\n');

    const third = { ...shared.files, 'agent.md': '# A third desk.\n' };
    await store.getState().importFiles(
      Object.entries(third).map(([name, text]) => ({
        name: `desk3/${name}`,
        bytes: bytes(text),
      })),
    );
    expect(store.getState().project).toMatchObject({ name: 'desk3', files: third });

    // Files named another way are read as the files they mean; the page says so.
    await store.getState().importFiles([
      { name: 'desk4/Agent.md', bytes: bytes('# A fourth desk.\n') },
      { name: 'desk4/policies.yml', bytes: bytes(shared.files['policies.yaml']) },
      { name: 'desk4/photo.png', bytes: new Uint8Array([0x89, 0x50]) },
    ]);
    expect(store.getState().project.files['agent.md']).toBe('# A fourth desk.\n');
    expect(store.getState().project.files['policies.yaml']).toBe(shared.files['policies.yaml']);
    expect(store.getState().arrival?.notes.map((n) => n.message)).toEqual(
      expect.arrayContaining([
        '"Agent.md" was read as agent.md.',
        '"policies.yml" was read as policies.yaml.',
        '"photo.png" is not a project file and was left out.',
      ]),
    );

    const { events } = await simulateRefunds();
    await store.getState().importFiles([{ name: 'refunds.json.gz', bytes: gzipLog(events) }]);
    const id = store.getState().replayRunId ?? '';
    expect(await runs.events(id)).toEqual(events);
    expect(store.getState().runList.map((r) => r.title)).toContain('Imported: refunds');
  });

  it('refuses files it cannot open, naming them, and loses nothing', async () => {
    const { store, own } = await storeWithOwnWork();
    const cases: [string, Uint8Array, string][] = [
      ['notes.txt', bytes('hello'), 'not'],
      ['broken.zip', bytes('PK garbage'), '“broken.zip” cannot be opened'],
      ['run.json.gz', bytes('not gzip'), '“run.json.gz” cannot be opened'],
      ['huge.policylab.json', new Uint8Array(33 * 1024 * 1024), 'too large'],
    ];
    for (const [name, content, said] of cases) {
      await store.getState().importFiles([{ name, bytes: content }]);
      const message = store.getState().shareNotice?.message ?? store.getState().replayMessage;
      expect(message, name).toContain(said);
      expect(store.getState().projectId).toBe(own.id);
    }
    await store.getState().importFiles([
      { name: 'a.txt', bytes: bytes('x') },
      { name: 'b.txt', bytes: bytes('y') },
    ]);
    expect(store.getState().shareNotice?.message).toContain(
      'None of these files is a project file',
    );
  });
});
