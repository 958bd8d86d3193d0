import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RunRepository } from '../core/index.ts';
import { createMemoryRunRepository } from '../adapters/storage/runRepository.ts';
import { AIRLINE_RUN, AIRLINE_RUN_B, airlineProject } from '../test/airlineRun.ts';
import { testServices } from '../test/services.ts';
import { compareSelectors } from './compareSelectors.ts';
import { createAppStore } from './createAppStore.ts';

const LOG_A = JSON.parse(readFileSync(AIRLINE_RUN.path, 'utf8')) as unknown[];
const LOG_B = JSON.parse(readFileSync(AIRLINE_RUN_B.path, 'utf8')) as unknown[];

/** A must_not_say check on the reservation code only cancel-within-24-hours's agent says. */
const SAYS_TQ7H3K = `checks:
  - id: no-tq7h3k
    policy: introduce-as-skyway
    kind: must_not_say
    pattern: 'TQ7H3K'
`;

/** A run store whose reads of a run's log wait until the test lets them through. */
function heldReads(runs: RunRepository) {
  const held = new Map<string, () => void>();
  const wrapped: RunRepository = {
    ...runs,
    events: (id) =>
      new Promise((resolve, reject) => {
        held.set(id, () => {
          runs.events(id).then(resolve, reject);
        });
      }),
  };
  return { wrapped, release: (id: string) => held.get(id)?.() };
}

async function setUp(wrap: (runs: RunRepository) => RunRepository = (r) => r) {
  const runs = createMemoryRunRepository();
  const store = createAppStore(testServices({ runs: wrap(runs) }), { project: airlineProject() });
  const projectId = store.getState().projectId;
  for (const [id, log] of [
    ['run-a', LOG_A],
    ['run-b', LOG_B],
  ] as const) {
    await runs.create({ id, projectId, createdAt: '2026-05-15T19:00:00Z', title: id });
    await runs.append(id, 0, log);
  }
  return { store, runs, projectId };
}

describe('comparing two runs', () => {
  it('loads both from the run store and lists exactly the known flips', async () => {
    const { store } = await setUp();
    await store.getState().pickCompareRuns({ before: 'run-a', after: 'run-b' });
    const select = compareSelectors(store).selectComparison;
    const comparison = select(store.getState());
    expect(comparison?.broke.map((f) => f.before.dialogue)).toEqual(AIRLINE_RUN_B.broke);
    expect(comparison?.fixed.map((f) => f.after.dialogue)).toEqual(AIRLINE_RUN_B.fixed);
    expect(comparison?.erred).toEqual([]);
    expect(comparison?.sameProject).toBe(false); // B judged an edited agent.md
    // Memoised: the same answer until a log changes; swapped sides give the opposite flips.
    expect(select(store.getState())).toBe(comparison);
    await store.getState().pickCompareRuns({ before: 'run-b', after: 'run-a' });
    const swapped = select(store.getState());
    expect(swapped).not.toBe(comparison);
    expect(swapped?.broke.map((f) => f.after.dialogue)).toEqual(AIRLINE_RUN_B.fixed);
  });

  it('keeps the latest pick of a side when an earlier read lands after it', async () => {
    let held: ReturnType<typeof heldReads> | undefined;
    const { store } = await setUp((runs) => (held = heldReads(runs)).wrapped);
    const first = store.getState().pickCompareRuns({ before: 'run-a' });
    const second = store.getState().pickCompareRuns({ before: 'run-b' });
    held?.release('run-b');
    await second;
    expect(store.getState().compareBefore?.id).toBe('run-b');
    held?.release('run-a');
    await first;
    expect(store.getState().compareBefore?.id).toBe('run-b');
  });

  it('says so when a run cannot be read, and shows nothing for that side', async () => {
    const { store } = await setUp();
    await store.getState().pickCompareRuns({ before: 'run-missing', after: 'run-b' });
    expect(store.getState().compareBefore).toBeNull();
    expect(store.getState().compareMessage).toMatch(/no saved run/);
    expect(compareSelectors(store).selectComparison(store.getState())).toBeNull();
  });
});

describe('re-checking a run against today’s project', () => {
  it('saves a derived run beside its source and flips exactly the dialogues the new check catches', async () => {
    const { store, runs, projectId } = await setUp();
    const rules = store.getState().project.files['rules.yaml'];
    store.getState().setFileText('rules.yaml', rules.replace(/^checks:\n/m, SAYS_TQ7H3K));
    const id = await store.getState().recheckAgainstProject('run-a');
    expect(id).toBeDefined();
    const listed = await runs.list(projectId);
    expect(listed.find((r) => r.id === id)?.title).toBe('Re-check of run-a');
    expect(store.getState().runList.map((r) => r.id)).toContain(id);
    const saved = (await runs.events(id ?? '')) as { type: string; source?: unknown }[];
    expect(saved[0]?.source).toEqual({ kind: 'rechecked', run: 'run-a' });
    const { compareBefore, compareAfter } = store.getState();
    expect([compareBefore?.id, compareAfter?.id]).toEqual(['run-a', id]);
    const comparison = compareSelectors(store).selectComparison(store.getState());
    expect(comparison?.broke.map((f) => f.after.dialogue)).toEqual([
      'cancel-within-24-hours#1',
      'cancel-within-24-hours#2',
    ]);
    expect(comparison?.fixed).toEqual([]);
    expect(comparison?.sameProject).toBe(false);
  });

  it('says when today’s project has errors, whose checks then judge nothing', async () => {
    const { store } = await setUp();
    const rules = store.getState().project.files['rules.yaml'];
    store.getState().setFileText('rules.yaml', `${rules}\n  - id: [broken\n`);
    await store.getState().recheckAgainstProject('run-a');
    expect(store.getState().compareMessage).toMatch(
      /^Today’s project has \d+ errors? \(see Problems\): what does not parse was left out/,
    );
  });

  it('finds nothing new when the project is as the run saw it', async () => {
    const { store } = await setUp();
    await store.getState().recheckAgainstProject('run-a');
    const comparison = compareSelectors(store).selectComparison(store.getState());
    expect(comparison?.broke).toEqual([]);
    expect(comparison?.fixed).toEqual([]);
    expect(comparison?.sameProject).toBe(true);
    expect(store.getState().compareMessage).toBeNull();
  });
});
