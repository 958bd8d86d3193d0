import { gunzipSync, inflateSync, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { encodeShareLink, gzipLog, toBundle, zipProject } from '../core/index.ts';
import { storeWithEngine, withEndpointModels } from '../test/modelStore.ts';
import { politeEngine } from '../test/scriptedModels.ts';

const KEY = 'sk-share-5d1f0b9c27e84a63';

const engine = politeEngine;

const holds = (bytes: Uint8Array, text: string) =>
  Buffer.from(bytes).indexOf(Buffer.from(text)) >= 0;

describe('what sharing sends out', () => {
  it('never carries an API key or an endpoint: link, bundle, zip and run log, checked byte by byte', async () => {
    const { store } = storeWithEngine(engine);
    const endpoint = await withEndpointModels(store);
    store.getState().setApiKey(endpoint, KEY);
    await store.getState().startRun();
    const state = store.getState();
    const events = state.currentRun?.events ?? [];
    expect(events.length).toBeGreaterThan(5);
    // The key is in the page while a person works, and the endpoint's address too.
    expect(Object.values(state.apiKeys)).toContain(KEY);
    const baseUrl = state.modelSettings.endpoints[0]?.baseUrl ?? '';
    expect(baseUrl).not.toBe('');

    const encode = (text: string) => new TextEncoder().encode(text);
    // Compressed bytes would hide a key: each is unpacked before it is searched.
    const link = encodeShareLink(state.project).replace(/^p=1\./, '');
    const zipped = Object.values(unzipSync(zipProject(state.project)));
    const sent: [string, Uint8Array][] = [
      ['link', inflateSync(Buffer.from(link, 'base64url'))],
      ['bundle', encode(toBundle(state.project))],
      ['zip', Buffer.concat(zipped)],
      ['run log', gunzipSync(gzipLog(events))],
    ];
    for (const [what, bytes] of sent) {
      expect(bytes.length, what).toBeGreaterThan(100);
      expect(holds(bytes, KEY), what).toBe(false);
      expect(holds(bytes, baseUrl), what).toBe(false);
    }
    // The check can fail: the same bytes with the key in them are caught.
    expect(holds(encode(`${toBundle(state.project)}${KEY}`), KEY)).toBe(true);
  });
});
