import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { createMemoryRunRepository } from '../adapters/storage/runRepository.ts';
import type { Project, ProjectModel, RunPlan } from '../core/index.ts';
import { analyzeProject } from '../core/index.ts';
import type * as ParseProjectModule from '../core/format/parseProject.ts';
import { parseProject } from '../core/format/parseProject.ts';
import { AIRLINE_RUN, airlineProject } from '../test/airlineRun.ts';
import { manualScheduler } from '../test/manualScheduler.ts';
import { storeWithEngine, withEndpointModels } from '../test/modelStore.ts';
import { queuedEngine } from '../test/scriptedModels.ts';
import { testServices } from '../test/services.ts';
import type { Analysis, Analyzer } from '../workers/analysisClient.ts';
import { createAppStore } from './createAppStore.ts';

// Every whole-project parse is counted: the page must plan from the analysis, never parse itself.
vi.mock('../core/format/parseProject.ts', async (importOriginal) => {
  const original = await importOriginal<typeof ParseProjectModule>();
  return {
    ...original,
    parseProject: vi.fn(original.parseProject),
  };
});
const parses = () => vi.mocked(parseProject).mock.calls.length;

interface Asked {
  readonly project: Project;
  /** Answers with the project's analysis (changed by `change`), and returns it. */
  release(change?: (analysis: Analysis) => Analysis): Analysis;
  fail(message: string): void;
}

/** An analyser whose every answer waits until the test releases it. */
function heldAnalyzer() {
  const asked: Asked[] = [];
  const analyze: Analyzer = (project) =>
    new Promise((resolve, reject) => {
      asked.push({
        project,
        release: (change = (a) => a) => {
          const analysis = change(analyzeProject(project));
          resolve(analysis);
          return analysis;
        },
        fail: (message) => {
          reject(new Error(message));
        },
      });
    });
  const last = () => {
    const found = asked.at(-1);
    if (!found) throw new Error('nothing was analysed');
    return found;
  };
  return { analyze, asked, last };
}

/** Lets every promise that can settle settle (no timer runs: the scheduler is manual). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A store over the mini project with models, a held analyser and a simulator that only records. */
async function setUp() {
  const held = heldAnalyzer();
  const scheduler = manualScheduler();
  const plans: { model: ProjectModel; plan: RunPlan }[] = [];
  const simulate = (model: ProjectModel, plan: RunPlan) => {
    plans.push({ model, plan });
    return Promise.resolve('done' as const);
  };
  const { store } = storeWithEngine(queuedEngine([]).engine, {
    analyze: held.analyze,
    scheduler,
    simulate,
    simulatePlay: simulate,
  });
  await withEndpointModels(store);
  // The first analysis (of the empty project) arrives; the mini example's waits for its delay.
  held.last().release();
  await settle();
  return { store, held, scheduler, plans };
}

const WITH_SECOND_SCENARIO = (text: string) =>
  `${text}  - id: second-go
    policies: [verify-identity]
    persona: Someone else.
    goal: Ask again.
`;

describe('runs are planned from the analysis of the current text', () => {
  it('waits for the analysis of the current text, asked at once, and plans on its model', async () => {
    const { store, held, plans } = await setUp();
    expect(store.getState().analysis?.files).not.toBe(store.getState().project.files);
    const asked = held.asked.length;
    const started = store.getState().startRun();
    await settle();
    // Asked without waiting for the settling delay, and nothing planned meanwhile.
    expect(held.asked.length).toBe(asked + 1);
    expect(held.last().project.files).toBe(store.getState().project.files);
    expect(store.getState().checkingProject).toBe(true);
    expect(plans).toEqual([]);
    expect(store.getState().currentRun).toBeNull();

    const analysis = held.last().release();
    const before = parses();
    await started;
    expect(parses()).toBe(before);
    expect(plans).toHaveLength(1);
    expect(plans[0]?.model).toBe(analysis.model);
    expect(plans[0]?.plan.files).toBe(store.getState().project.files);
    expect(store.getState().checkingProject).toBe(false);
  });

  it('plans at once, parsing nothing, when the analysis is of the current text', async () => {
    const { store, held, plans } = await setUp();
    const ready = store.getState().startRun();
    await settle();
    held.last().release();
    await ready;
    const asked = held.asked.length;
    const before = parses();
    await store.getState().startRun();
    expect(held.asked.length).toBe(asked);
    expect(parses()).toBe(before);
    expect(plans).toHaveLength(2);
  });

  it('never plans on an older text’s model: an edit while waiting is waited for too', async () => {
    const { store, held, plans, scheduler } = await setUp();
    const first = store.getState().startRun();
    await settle();
    held.last().release();
    await first;
    expect(plans[0]?.plan.scenarios.map((s) => s.scenario.id)).toEqual(['late-refund']);

    // The person adds a scenario and runs at once: the stored analysis is of the old text.
    const text = store.getState().project.files['scenarios.yaml'];
    store.getState().setFileText('scenarios.yaml', WITH_SECOND_SCENARIO(text));
    const second = store.getState().startRun();
    await settle();
    expect(plans).toHaveLength(1);
    const stale = held.last();
    // And edits again before that analysis comes back: its answer is of an older text.
    store
      .getState()
      .setFileText('scenarios.yaml', WITH_SECOND_SCENARIO(text).replace('second-go', 'third-go'));
    stale.release();
    await settle();
    expect(plans).toHaveLength(1);
    expect(store.getState().checkingProject).toBe(true);
    scheduler.advance(1_000);
    const analysis = held.last().release();
    await second;
    expect(plans).toHaveLength(2);
    expect(plans[1]?.model).toBe(analysis.model);
    expect(plans[1]?.plan.scenarios.map((s) => s.scenario.id)).toEqual(['late-refund', 'third-go']);
  });

  it('says why when the analysis fails, and asks again at the next run', async () => {
    const { store, held, plans } = await setUp();
    const failing = store.getState().startRun();
    await settle();
    held.last().fail('The analysis worker stopped: out of memory');
    await failing;
    expect(store.getState().simulationMessage).toBe(
      'The project could not be checked: The analysis worker stopped: out of memory',
    );
    expect(store.getState().checkingProject).toBe(false);
    expect(plans).toEqual([]);

    // Asked again, failing the same way: said again, not waited on forever.
    const asked = held.asked.length;
    const twice = store.getState().startRun();
    await settle();
    expect(held.asked.length).toBe(asked + 1);
    expect(store.getState().checkingProject).toBe(true);
    held.last().fail('The analysis worker stopped: out of memory');
    await twice;
    expect(store.getState().checkingProject).toBe(false);
    expect(store.getState().simulationMessage).toMatch(/^The project could not be checked/);

    const again = store.getState().startRun();
    await settle();
    expect(held.asked.length).toBe(asked + 2);
    held.last().release();
    await again;
    expect(plans).toHaveLength(1);
  });

  it('a project that does not parse refuses with the same words as planning it directly', async () => {
    const { store, held } = await setUp();
    store.getState().setFileText('scenarios.yaml', 'scenarios: [');
    const started = store.getState().startRun();
    await settle();
    held.last().release();
    await started;
    expect(store.getState().simulationMessage).toBe(
      'There is nothing to run: no scenarios in scenarios.yaml, and none to generate.',
    );
  });

  it('a second click while checking does not plan twice', async () => {
    const { store, held, plans } = await setUp();
    const one = store.getState().startRun();
    const two = store.getState().startRun();
    await settle();
    held.last().release();
    await Promise.all([one, two]);
    expect(plans).toHaveLength(1);
  });

  it('Play waits for the current text’s analysis too and plays on its model', async () => {
    const { store, held, plans } = await setUp();
    store.getState().setPlaySettings({ seat: 'user', scenario: 'late-refund' });
    const started = store.getState().startPlay();
    await settle();
    expect(store.getState().checkingProject).toBe(true);
    expect(store.getState().play).toBeNull();
    const analysis = held.last().release();
    const before = parses();
    await started;
    expect(parses()).toBe(before);
    expect(plans[0]?.model).toBe(analysis.model);
    expect(store.getState().play?.scenario.id).toBe('late-refund');
  });
});

describe('a re-check against today’s project', () => {
  it('uses the analysis of the current text, waited for, and parses nothing', async () => {
    const held = heldAnalyzer();
    const runs = createMemoryRunRepository();
    const store = createAppStore(
      testServices({ runs, analyze: held.analyze, scheduler: manualScheduler() }),
      { project: airlineProject() },
    );
    const projectId = store.getState().projectId;
    await runs.create({ id: 'run-a', projectId, createdAt: '2026-05-15T19:00:00Z', title: 'A' });
    await runs.append('run-a', 0, JSON.parse(readFileSync(AIRLINE_RUN.path, 'utf8')) as unknown[]);
    held.last().release();
    await settle();
    store.getState().setFileText('agent.md', `${store.getState().project.files['agent.md']}\n`);

    const rechecked = store.getState().recheckAgainstProject('run-a');
    await settle();
    expect(store.getState().rechecking).toBe(true);
    expect(store.getState().compareAfter).toBeNull();
    expect(held.last().project.files).toBe(store.getState().project.files);
    // An error only this analysis holds shows the re-check read it, not a parse of its own.
    held.last().release((a) => ({
      ...a,
      diagnostics: [
        ...a.diagnostics,
        {
          file: 'rules.yaml',
          line: 1,
          column: 1,
          endLine: 1,
          endColumn: 2,
          severity: 'error',
          code: 'test',
          message: 'From the analysis.',
        },
      ],
    }));
    const before = parses();
    const id = await rechecked;
    expect(parses()).toBe(before);
    expect(id).toBeDefined();
    expect(store.getState().compareMessage).toMatch(/^Today’s project has 1 error/);
  });
});
