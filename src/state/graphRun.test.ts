import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMemoryRunRepository } from '../adapters/storage/runRepository.ts';
import type { RunRepository } from '../core/index.ts';
import { AIRLINE_POLICY_RESULTS, AIRLINE_RUN, airlineProject } from '../test/airlineRun.ts';
import { testServices } from '../test/services.ts';
import { createAppStore } from './createAppStore.ts';
import { graphResultsSelectors } from './graphResultsSelectors.ts';

const AIRLINE_LOG = JSON.parse(readFileSync(AIRLINE_RUN.path, 'utf8')) as unknown[];

/**
 * The airline project over a run store holding the recorded run (newer) and an empty old one;
 * `runs` reads logs first when given (to hold or spoil them).
 */
async function airlineStore(runs?: RunRepository) {
  const inner = createMemoryRunRepository();
  await inner.create({ id: 'old', projectId: '', createdAt: '2026-01-01', title: 'Old' });
  await inner.create({ id: 'airline', projectId: '', createdAt: '2026-05-15', title: 'Airline' });
  await inner.append('airline', 0, AIRLINE_LOG);
  const store = createAppStore(
    testServices({
      runs: runs
        ? { ...inner, events: (id) => runs.events(id).catch(() => inner.events(id)) }
        : inner,
    }),
    { project: airlineProject() },
  );
  await store.getState().refreshRuns();
  return store;
}

describe('the run the graph shows', () => {
  it('is the latest until another is picked, and gives the report’s counts per policy', async () => {
    const store = await airlineStore();
    const results = () => graphResultsSelectors(store).selectGraphResults(store.getState());
    expect(results()).toBeNull();
    await store.getState().loadGraphRun('airline');
    const shown = results();
    expect(shown?.runId).toBe('airline');
    for (const [policy, known] of Object.entries(AIRLINE_POLICY_RESULTS)) {
      const r = shown?.byPolicy.get(policy);
      expect([r?.passes, r?.fails]).toEqual([known.tested - known.broken, known.broken]);
    }
    // Memoised: the same answer while nothing it reads changes.
    expect(results()).toBe(shown);
    store.getState().pickGraphRun('none');
    expect(results()).toBeNull();
    store.getState().pickGraphRun({ run: 'old' });
    await store.getState().loadGraphRun('old');
    expect(results()?.runId).toBe('old');
    expect(results()?.byPolicy.size).toBe(0);
  });

  it('keeps only the log of the run still picked when an earlier read lands late', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = createMemoryRunRepository();
    const store = await airlineStore({
      ...slow,
      events: async (id) => {
        if (id === 'airline') await held;
        throw new Error('not here');
      },
    });
    const reading = store.getState().loadGraphRun('airline');
    store.getState().pickGraphRun({ run: 'old' });
    await store.getState().loadGraphRun('old');
    release();
    await reading;
    expect(store.getState().graphRunLog?.id).toBe('old');
    expect(graphResultsSelectors(store).selectGraphResults(store.getState())?.runId).toBe('old');
  });

  it('says why a log that cannot be read is not shown', async () => {
    const store = await airlineStore({
      ...createMemoryRunRepository(),
      events: () => Promise.resolve([{ type: 'nonsense' }]),
    });
    await store.getState().loadGraphRun('airline');
    expect(store.getState().graphRunMessage).toMatch(/cannot be shown/);
    expect(graphResultsSelectors(store).selectGraphResults(store.getState())).toBeNull();
  });
});
