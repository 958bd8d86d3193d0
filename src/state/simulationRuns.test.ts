import { turnUntil } from '../test/bounded.ts';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatEngine, Project, RunPlan, RunRepository, SimEvent } from '../core/index.ts';
import {
  DEFAULT_LEVELS,
  LOG_VERSION,
  PROJECT_FILES,
  USER_STOP,
  buildGraph,
  parseProject,
  planRun,
  readLog,
  sampleWithReport,
} from '../core/index.ts';
import { createMemoryRunRepository } from '../adapters/storage/runRepository.ts';
import { manualScheduler } from '../test/manualScheduler.ts';
import { M_PRICE, storeWithEngine, withEndpointModels } from '../test/modelStore.ts';
import { modelReply, politeEngine } from '../test/scriptedModels.ts';
import type { Simulator } from '../workers/simulationClient.ts';
import { simulateInThread } from '../workers/simulationClient.ts';
import { runSelectors } from './simulationSelectors.ts';

const engine = politeEngine;

/** A run store whose writes wait until the test lets them through, one by one or all. */
function heldRuns(runs: RunRepository) {
  const held: { readonly from: number; readonly release: () => void }[] = [];
  const wrapped: RunRepository = {
    ...runs,
    append: (id, from, events) =>
      new Promise<void>((resolve, reject) => {
        held.push({
          from,
          release: () => {
            runs.append(id, from, events).then(resolve, reject);
          },
        });
      }),
  };
  /** Lets every write through, those asked for meanwhile too, until `until` settles. */
  const releaseAll = async (until: Promise<unknown>) => {
    const state = { settled: false };
    void until.finally(() => {
      state.settled = true;
    });
    await turnUntil(
      'the run to settle',
      () => state.settled,
      () => held.shift()?.release(),
    );
  };
  return { wrapped, held, releaseAll };
}

/** A log saved by PolicyLab before logs had a version: 2 passes, 2 failures, 4 errors. */
const V1_LOG = JSON.parse(
  readFileSync('src/core/sim/testdata/log-v1.json', 'utf8'),
) as readonly unknown[];

async function storedRun(runs: RunRepository, projectId: string, id: string, log: unknown[]) {
  await runs.create({ id, projectId, createdAt: '2026-01-01T00:00:00.000Z', title: id });
  await runs.append(id, 0, log);
}

describe('saving a run', () => {
  it('is finished only once its last events are saved, in batches as it goes', async () => {
    const runs = createMemoryRunRepository();
    const hold = heldRuns(runs);
    const { store: held } = storeWithEngine(engine, { runs: hold.wrapped });
    await withEndpointModels(held);
    const running = held.getState().startRun();
    // The dialogue runs on instant models; the run waits for its writes, which are held.
    await expect.poll(() => hold.held.length).toBeGreaterThan(0);
    const run = held.getState().currentRun;
    expect(run?.events.at(-1)).toMatchObject({ type: 'run-ended' });
    expect(run?.live).toBe(true);
    await hold.releaseAll(running);
    expect(held.getState().currentRun?.live).toBe(false);
    const saved = await runs.events(run?.id ?? '');
    expect(saved).toEqual(held.getState().currentRun?.events);
  });

  it('writes batches in order, each after the one before, every 150 ms', async () => {
    const scheduler = manualScheduler();
    const { runs: memory } = storeWithEngine(engine);
    const hold = heldRuns(memory);
    // A user that needs three turns, each waiting for the test: events come in three bursts.
    const turns: (() => void)[] = [];
    const slowUser: ChatEngine = {
      chat: (request) =>
        request.tools
          ? Promise.resolve(modelReply('Noted.'))
          : new Promise((resolve) => {
              const spoken = request.messages.filter((m) => m.role === 'assistant').length;
              turns.push(() => {
                resolve(modelReply(spoken >= 2 ? `Bye. ${USER_STOP}` : `Question ${spoken}.`));
              });
            }),
    };
    const { store } = storeWithEngine(slowUser, { scheduler, runs: hold.wrapped });
    await withEndpointModels(store);
    const running = store.getState().startRun();
    await expect.poll(() => turns.length).toBe(1);
    expect(hold.held).toHaveLength(0);
    scheduler.advance(149);
    await Promise.resolve();
    expect(hold.held).toHaveLength(0);
    scheduler.advance(1);
    await expect.poll(() => hold.held.map((h) => h.from)).toEqual([0]);
    const first = hold.held.length;
    turns.shift()?.();
    await expect.poll(() => turns.length).toBe(1);
    scheduler.advance(150);
    // The second batch waits behind the first, which is still held.
    await Promise.resolve();
    await Promise.resolve();
    expect(hold.held).toHaveLength(first);
    hold.held.shift()?.release();
    await expect.poll(() => hold.held.length).toBe(1);
    expect(hold.held[0]?.from).toBeGreaterThan(0);
    turns.shift()?.();
    await expect.poll(() => turns.length).toBe(1);
    turns.shift()?.();
    await hold.releaseAll(running);
    const events = store.getState().currentRun?.events ?? [];
    expect(await memory.events(store.getState().currentRun?.id ?? '')).toEqual(events);
  });
});

describe('planning a run from the page', () => {
  it('plans with core planRun: the form, the roles and the prices, nothing of its own', async () => {
    const plans: RunPlan[] = [];
    const spy: Simulator = (model, plan, deps) => {
      plans.push(plan);
      return simulateInThread(model, plan, deps);
    };
    const { store } = storeWithEngine(engine, { simulate: spy });
    await withEndpointModels(store);
    store
      .getState()
      .setRunSettings({ trials: 3, concurrency: 2, maxTurns: 4, maxToolRounds: 9, seed: 5 });
    await store.getState().startRun();
    const [plan] = plans;
    const agent = plan?.agent;
    if (!plan || !agent) throw new Error('no run was planned');
    const expected = planRun(store.getState().project, {
      seed: 5,
      trials: 3,
      concurrency: 2,
      maxTurns: 4,
      maxToolRounds: 9,
      budget: { dollars: 1 },
      scenarios: 'all',
      agent,
      user: plan.user,
      externalAgent: false,
      prices: store.getState().modelSettings.prices,
      freeModels: [],
      now: plan.now,
    });
    expect(expected.ok && expected.plan).toEqual(plan);
    expect(plan.prices.m).toEqual(M_PRICE);
  });

  it('draws the combinations to generate with the seed the form set', async () => {
    const airline: Project = {
      name: 'Airline',
      files: Object.fromEntries(
        PROJECT_FILES.map((f) => [
          f.name,
          readFileSync(`public/examples/airline/${f.name}`, 'utf8'),
        ]),
      ) as Project['files'],
    };
    const drawn = (seed: number) =>
      sampleWithReport(buildGraph(parseProject(airline).model), {
        seed,
        count: 3,
        levels: DEFAULT_LEVELS,
      }).samples.map((s) => ({ policies: s.policies, level: s.level }));
    expect(drawn(9)).not.toEqual(drawn(10));
    for (const seed of [9, 10]) {
      const plans: RunPlan[] = [];
      const { store } = storeWithEngine(
        engine,
        {
          simulate: (_model, plan) => {
            plans.push(plan);
            return Promise.resolve('done');
          },
        },
        { project: airline },
      );
      const endpoint = await withEndpointModels(store, false);
      store.getState().setRoleModel('generator', { engine: endpoint, model: 'm' });
      store.getState().setRunSettings({ seed, generated: 3 });
      await store.getState().startRun();
      expect(store.getState().simulationMessage).toBeNull();
      expect(plans[0]?.seed).toBe(seed);
      expect(plans[0]?.samples).toEqual(drawn(seed));
    }
  });

  it('refuses a dollar budget it cannot keep, and runs once the model has a price', async () => {
    const { store } = storeWithEngine(engine);
    await withEndpointModels(store);
    store.getState().setPrice('m', undefined);
    await store.getState().startRun();
    expect(store.getState().currentRun).toBeNull();
    expect(store.getState().simulationMessage).toMatch(
      /A dollar budget needs the price of every model it pays for, and "m" has none/,
    );
    store.getState().setPrice('m', M_PRICE);
    await store.getState().startRun();
    expect(store.getState().currentRun?.events.at(-1)).toMatchObject({ type: 'run-ended' });
  });
});

describe('opening a saved run', () => {
  it('migrates a log saved before logs had a version, and reports it as it was', async () => {
    const { store, runs } = storeWithEngine(engine);
    await withEndpointModels(store);
    await storedRun(runs, store.getState().projectId, 'old', [...V1_LOG]);
    await store.getState().refreshRuns();
    expect(store.getState().runList.map((r) => r.id)).toEqual(['old']);
    await store.getState().openRun('old');
    const run = store.getState().currentRun;
    expect(store.getState().simulationMessage).toBeNull();
    expect(run?.savedVersion).toBe(1);
    expect(run?.events[0]).toMatchObject({ type: 'run-started', version: LOG_VERSION });
    const report = runSelectors(store).selectRunReport(store.getState());
    expect(report?.overall).toMatchObject({ passes: 2, fails: 2 });
    expect(report?.errors.byReason).toEqual([
      { reason: 'provider-error', count: 2 },
      { reason: 'scenario-error', count: 2 },
    ]);
  });

  it('takes a log Replay already read from Replay, without reading the store again, and shares its report', async () => {
    const { store, runs } = storeWithEngine(engine);
    await withEndpointModels(store);
    await storedRun(runs, store.getState().projectId, 'old', [...V1_LOG]);
    await store.getState().refreshRuns();
    await store.getState().openReplay({ run: 'old' });
    const reads: string[] = [];
    const read = runs.events.bind(runs);
    runs.events = (id) => {
      reads.push(id);
      return read(id);
    };
    await store.getState().openRun('old');
    expect(reads).toEqual([]);
    const { currentRun, replayLog } = store.getState();
    expect(currentRun).toMatchObject({ id: 'old', savedVersion: 1, live: false });
    expect(currentRun?.events).toBe(replayLog?.events);
    expect(runSelectors(store).selectRunReport(store.getState())?.overall).toMatchObject({
      passes: 2,
      fails: 2,
    });
  });

  it('says why a log from a newer PolicyLab or with a broken event cannot open, and keeps the run on screen', async () => {
    const { store, runs } = storeWithEngine(engine);
    await withEndpointModels(store);
    await store.getState().startRun();
    const shown = store.getState().currentRun;
    const [first, ...rest] = V1_LOG as Record<string, unknown>[];
    await storedRun(runs, store.getState().projectId, 'future', [
      { ...first, version: LOG_VERSION + 1 },
      ...rest,
    ]);
    await store.getState().openRun('future');
    expect(store.getState().simulationMessage).toMatch(
      new RegExp(
        `cannot be opened\\. This run was saved by a newer PolicyLab \\(log format ${LOG_VERSION + 1}`,
      ),
    );
    expect(store.getState().currentRun).toBe(shown);
    const broken = [...V1_LOG] as Record<string, unknown>[];
    const message = broken.findIndex((e) => e.type === 'message');
    broken[message] = { ...broken[message], turn: 'two' };
    await storedRun(runs, store.getState().projectId, 'broken', broken);
    await store.getState().openRun('broken');
    expect(store.getState().simulationMessage).toMatch(
      `Event ${message + 1} (message) of the run’s log is broken: "turn" must be a whole number.`,
    );
    expect(store.getState().currentRun).toBe(shown);
  });

  it('writes a migrated log back in the current format when it is resumed', async () => {
    const { store, runs } = storeWithEngine(engine);
    await withEndpointModels(store);
    // Cut the old log inside its third dialogue, as a reload would have.
    const cut = (V1_LOG as SimEvent[]).findIndex(
      (e) => e.type === 'dialogue-started' && e.dialogue === 'late#1',
    );
    await storedRun(runs, store.getState().projectId, 'cut', V1_LOG.slice(0, cut + 2));
    await store.getState().openRun('cut');
    await store.getState().resumeRun();
    const saved = readLog(await runs.events('cut'));
    expect(saved.ok && saved.savedVersion).toBe(LOG_VERSION);
    expect(saved.ok && saved.events).toEqual(store.getState().currentRun?.events);
    expect(store.getState().currentRun?.events.at(-1)).toMatchObject({ type: 'run-ended' });
  });
});

describe('reviewing a simulator-suspect dialogue', () => {
  it('appends the review to the saved log, and the report counts the dialogue again', async () => {
    // A customer that states an id its brief never gave it: every dialogue is suspect.
    const inventive: ChatEngine = {
      chat: (request) =>
        Promise.resolve(
          modelReply(
            request.tools
              ? 'I cannot find that order.'
              : request.messages.some((m) => m.role === 'assistant')
                ? `Thanks. ${USER_STOP}`
                : 'Refund order o2, my membership is GOLD77.',
          ),
        ),
    };
    const { store, runs } = storeWithEngine(inventive);
    await withEndpointModels(store);
    await store.getState().startRun();
    const report = () => runSelectors(store).selectRunReport(store.getState());
    expect(report()?.dialogues[0]).toMatchObject({ verdict: 'suspect', review: null });
    expect(report()?.dialogues[0]?.suspect[0]).toContain('"GOLD77"');
    expect(report()?.overall).toMatchObject({ passes: 0, fails: 0 });

    const id = store.getState().currentRun?.id ?? '';
    await store.getState().reviewDialogue('late-refund#1', 'counts');
    expect(report()?.dialogues[0]).toMatchObject({ review: 'counts', verdict: 'pass' });
    const saved = readLog(await runs.events(id));
    expect(saved.ok && saved.events.at(-1)).toMatchObject({
      type: 'review',
      dialogue: 'late-refund#1',
      decision: 'counts',
    });
    // The saved log opens to the same report.
    store.setState({ currentRun: null });
    await store.getState().openRun(id);
    expect(report()?.dialogues[0]).toMatchObject({ review: 'counts', verdict: 'pass' });
  });
});
