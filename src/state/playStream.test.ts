import { describe, expect, it } from 'vitest';
import type { ChatEngine, ChatRequest } from '../core/index.ts';
import { USER_STOP } from '../core/index.ts';
import { manualScheduler } from '../test/manualScheduler.ts';
import { storeWithEngine, withEndpointModels } from '../test/modelStore.ts';
import { modelReply } from '../test/scriptedModels.ts';

/*
 * Play shows a streaming answer at most once a frame, however many pieces a provider sends, and
 * never brings back an answer whose message has been logged.
 */

describe('play streaming', () => {
  it('shows ten thousand pieces in a handful of updates', async () => {
    const scheduler = manualScheduler();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let flooded: () => void = () => undefined;
    const streamed = new Promise<void>((resolve) => (flooded = resolve));
    const flood: ChatEngine = {
      async chat(request: ChatRequest, options) {
        // The person is the agent; the simulated customer floods.
        if ((request.tools ?? []).length > 0) return modelReply('Done.');
        for (let i = 0; i < 10_000; i++) {
          options?.onDelta?.({ kind: 'text', text: 'x' });
          // A frame passes every thousand pieces.
          if (i % 1000 === 999) scheduler.advance(50);
        }
        // Pieces still due to be shown when the answer ends.
        options?.onDelta?.({ kind: 'text', text: 'late' });
        flooded();
        await held;
        return modelReply(`Refund o2 please. ${USER_STOP}`);
      },
    };
    const { store } = storeWithEngine(flood, { scheduler });
    await withEndpointModels(store);
    store.getState().setPlaySettings({ seat: 'agent', scenario: 'late-refund' });
    const shown: string[] = [];
    store.subscribe((state) => {
      const streaming = state.play?.streaming;
      if (streaming && streaming.text !== shown.at(-1)) shown.push(streaming.text);
    });
    const playing = store.getState().startPlay();
    await streamed;
    // The first piece at once, then once per frame: never once per piece.
    expect(shown.length).toBeLessThanOrEqual(12);
    expect(shown.at(-1)).toHaveLength(10_000);
    expect(shown.at(-1)).not.toContain('late');
    release();
    store.getState().stopPlay();
    await playing;
    // A frame due after the answer is over brings nothing back.
    scheduler.advance(1000);
    expect(store.getState().play?.streaming ?? null).toBeNull();
  });
});
