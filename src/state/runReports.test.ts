import { describe, expect, it } from 'vitest';
import { miniProject } from '../core/testing/miniProject.ts';
import { broke, dialogue, ok, scenario, stamp, start } from '../core/testing/reportLogs.ts';
import { testServices } from '../test/services.ts';
import { compareSelectors } from './compareSelectors.ts';
import { createAppStore } from './createAppStore.ts';
import { replaySelectors } from './replaySelectors.ts';
import { runSelectors } from './simulationSelectors.ts';

/** A run of two dialogues on the mini project's refund-window policy: one passes, one fails. */
const events = stamp([
  { ...start, trials: 1 },
  scenario('s', ['refund-window']),
  ...dialogue('s#1', 's', 0, { end: 'user-done', findings: [ok('c', 'refund-window')] }),
  ...dialogue('s#2', 's', 1, { end: 'user-done', findings: [broke('c', 'refund-window')] }),
]);

async function storeShowingOneRun() {
  const project = miniProject();
  const store = createAppStore(testServices({ analysisDelayMs: 0 }), { project });
  await expect.poll(() => store.getState().analysis?.files).toBe(project.files);
  const run = { id: 'r', title: 'Run', events, live: false, error: null, savedVersion: 3 };
  store.setState({
    currentRun: run,
    replayRunId: 'r',
    compareBefore: { id: 'r', title: 'Run', events },
    compareAfter: { id: 'r', title: 'Run', events },
  });
  return store;
}

describe('one report per run', () => {
  it('is shared by Simulate, Replay and Compare when they show the same log', async () => {
    const store = await storeShowingOneRun();
    const state = store.getState();
    const simulate = runSelectors(store).selectRunReport(state);
    expect(simulate?.dialogues).toHaveLength(2);
    expect(replaySelectors(store).selectReplayReport(state)).toBe(simulate);
    // Compare folded nothing again: both sides are the one report, so nothing differs.
    expect(compareSelectors(store).selectComparison(state)?.overall.change).toBe('same');
  });

  it('is folded again when the policies change, with their new categories', async () => {
    const store = await storeShowingOneRun();
    const before = runSelectors(store).selectRunReport(store.getState());
    expect(before?.byCategory.map((c) => c.category)).toEqual(['refunds']);
    store
      .getState()
      .setFileText(
        'policies.yaml',
        store
          .getState()
          .project.files['policies.yaml'].replaceAll('category: refunds', 'category: renamed'),
      );
    await expect
      .poll(() => runSelectors(store).selectRunReport(store.getState())?.byCategory[0]?.category)
      .toBe('renamed');
    expect(replaySelectors(store).selectReplayReport(store.getState())).toBe(
      runSelectors(store).selectRunReport(store.getState()),
    );
  });
});
