import { describe, expect, it } from 'vitest';
import { createMemoryRunRepository } from '../adapters/storage/runRepository.ts';
import type { Project, RunRepository } from '../core/index.ts';
import { LOG_VERSION, parseProject, readLog } from '../core/index.ts';
import { miniProject, miniWith } from '../core/testing/miniProject.ts';
import { REFUND_PLAN, refundJudge, simulateRefunds } from '../test/refundDesk.ts';
import { testServices } from '../test/services.ts';
import { createAppStore } from './createAppStore.ts';
import { graphResultsSelectors } from './graphResultsSelectors.ts';
import { replaySelectors } from './replaySelectors.ts';

/** A store over a run store that already holds the refund desk's judged run as `run-1`. */
async function storeWithRun(runs: RunRepository = createMemoryRunRepository()) {
  const { events } = await simulateRefunds({
    ...REFUND_PLAN,
    judge: { engine: refundJudge, model: 'judge-model' },
  });
  await runs.create({ id: 'run-1', projectId: 'p', createdAt: 'then', title: 'Refunds' });
  await runs.append('run-1', 0, events);
  const store = createAppStore(testServices({ runs }));
  return { store, events, runs };
}

describe('the Replay pane’s state', () => {
  it('opens a saved dialogue where it broke at a raw turn, and lights its step’s policies', async () => {
    const { store } = await storeWithRun();
    await store.getState().openReplay({ run: 'run-1', dialogue: 'late#1', turn: 2 });
    const s = replaySelectors(store);
    const replay = s.selectReplay(store.getState());
    const step = s.selectStep(store.getState());
    // The agent's words at turn 2 come first; the refused refund right after them is where it broke.
    expect(replay?.steps[step]).toMatchObject({ kind: 'call', turn: 2 });
    expect(replay?.steps[step]?.call?.tool).toBe('refund_order');
    expect(replay?.steps[step - 1]).toMatchObject({ kind: 'message', turn: 2 });
    const light = s.selectGraphLight(store.getState());
    expect([...(light?.breached ?? [])]).toEqual(['refund-window']);
    expect([...(light?.inPlay ?? [])].sort()).toEqual(replay?.scenario?.policies.toSorted());
    // A turn where nothing broke opens at its message.
    await store.getState().openReplay({ run: 'run-1', dialogue: 'fresh#1', turn: 1 });
    const fresh = s.selectReplay(store.getState());
    expect(fresh?.steps[s.selectStep(store.getState())]).toMatchObject({
      kind: 'message',
      turn: 1,
    });
    store.getState().setReplayLightsGraph(false);
    expect(s.selectGraphLight(store.getState())).toBeNull();
  });

  it('tries today’s guard rules on the dialogue’s calls once per analysis, not once per step', async () => {
    const { store } = await storeWithRun();
    const analyse = (project: Project) => {
      store.getState().setAnalysis(parseProject(project), project.files);
    };
    const s = replaySelectors(store);
    await store.getState().openReplay({ run: 'run-1', dialogue: 'late#1', turn: 2 });

    analyse(miniProject());
    const refund = s.selectStep(store.getState());
    const same = s.selectGuardWhatIf(store.getState());
    expect(same?.ok && same.calls.get(refund)).toMatchObject({ allowed: false, differs: false });
    store.getState().setReplayStep(0);
    expect(s.selectGuardWhatIf(store.getState())).toBe(same);

    // A 60-day window today would have let the 45-day-old order's refund through.
    analyse(miniWith('rules.yaml', 'o.days_since_delivery > 30', 'o.days_since_delivery > 60'));
    const wider = s.selectGuardWhatIf(store.getState());
    expect(wider?.ok && wider.calls.get(refund)).toMatchObject({ allowed: true, differs: true });
    expect(s.selectWhatIfBrokenFiles(store.getState())).toBeNull();

    analyse(miniProject({ 'rules.yaml': 'guards: [oops' }));
    expect(s.selectWhatIfBrokenFiles(store.getState())).toBe('rules.yaml');
  });

  it('keeps the graph’s light when a step lights what the step before it lit', async () => {
    const { store } = await storeWithRun();
    await store.getState().openReplay({ run: 'run-1', dialogue: 'late#1', step: 0 });
    const s = replaySelectors(store);
    const steps = s.selectReplay(store.getState())?.steps ?? [];
    const key = (i: number) =>
      JSON.stringify([steps[i]?.policies.toSorted(), steps[i]?.breached.toSorted()]);
    const same = steps.findIndex((_, i) => i > 0 && key(i) === key(i - 1));
    const other = steps.findIndex((_, i) => i > 0 && key(i) !== key(i - 1));
    expect(same).toBeGreaterThan(0);
    expect(other).toBeGreaterThan(0);
    const lightAt = (step: number) => {
      store.getState().setReplayStep(step);
      return s.selectGraphLight(store.getState());
    };
    const before = lightAt(same - 1);
    expect(lightAt(same)).toBe(before);
    const changed = lightAt(other);
    expect(lightAt(other - 1)).not.toBe(changed);
    expect([...(changed?.lit ?? [])].sort()).toEqual(steps[other]?.policies.toSorted());
  });

  it('keeps the step inside the dialogue, whatever the address asked for', async () => {
    const { store } = await storeWithRun();
    await store.getState().openReplay({ run: 'run-1', dialogue: 'fresh#1', step: 999 });
    const s = replaySelectors(store);
    const last = (s.selectReplay(store.getState())?.steps.length ?? 0) - 1;
    expect(s.selectStep(store.getState())).toBe(last);
  });

  it('says so when the run or the dialogue is not there, and keeps what was open', async () => {
    const { store } = await storeWithRun();
    await store.getState().openReplay({ run: 'run-1', dialogue: 'fresh#1' });
    await store.getState().openReplay({ run: 'run-404' });
    expect(store.getState().replayMessage).toBe('There is no saved run “run-404” on this device.');
    expect(store.getState().replayDialogue).toBe('fresh#1');
    await store.getState().openReplay({ run: 'run-1', dialogue: 'nope#1' });
    expect(store.getState().replayMessage).toContain('has no dialogue “nope#1”');
  });

  it('appends a person’s marks and notes to the run’s log, where a reload finds them', async () => {
    const { store, runs, events } = await storeWithRun();
    await store.getState().openReplay({ run: 'run-1', dialogue: 'late#1' });
    await store.getState().markReplay({ kind: 'judge', policy: 'refund-window' }, false);
    await store.getState().markReplay({ kind: 'finding', id: 'confirm-refund' }, true);
    await store.getState().noteReplay(1, '  The agent never checked the date.  ');

    const saved = readLog(await runs.events('run-1'));
    if (!saved.ok) throw new Error(saved.error);
    expect(saved.events.slice(0, events.length)).toEqual(events);
    expect(saved.events.slice(events.length).map((e) => e.type)).toEqual(['mark', 'mark', 'note']);

    const reloaded = createAppStore(testServices({ runs }));
    await reloaded.getState().openReplay({ run: 'run-1', dialogue: 'late#1' });
    const replay = replaySelectors(reloaded).selectReplay(reloaded.getState());
    expect(replay?.marks.judge.get('refund-window')).toBe(false);
    expect(replay?.marks.findings.get('confirm-refund')).toBe(true);
    expect(replay?.notes.get(1)).toBe('The agent never checked the date.');
  });

  it('writes an older log back whole in the current format before appending to it', async () => {
    const runs = createMemoryRunRepository();
    const { events } = await simulateRefunds();
    const older = events.map((e) => (e.type === 'run-started' ? { ...e, version: 2 } : e));
    await runs.create({ id: 'old', projectId: 'p', createdAt: 'then', title: 'Old' });
    await runs.append('old', 0, older);
    const store = createAppStore(testServices({ runs }));
    await store.getState().openReplay({ run: 'old', dialogue: 'fresh#1' });
    await store.getState().noteReplay(0, 'hello');
    const saved = await runs.events('old');
    expect(saved[0]).toMatchObject({ version: LOG_VERSION });
    expect(saved.at(-1)).toMatchObject({ type: 'note', text: 'hello' });
    expect(saved).toHaveLength(events.length + 1);
  });

  it('says a mark could not be saved and keeps it on screen', async () => {
    const { runs } = await storeWithRun();
    const failing: RunRepository = {
      ...runs,
      append: () => Promise.reject(new Error('QuotaExceededError')),
    };
    const broken = createAppStore(testServices({ runs: failing }));
    await broken.getState().openReplay({ run: 'run-1', dialogue: 'late#1' });
    await broken.getState().noteReplay(1, 'kept here');
    expect(broken.getState().replayMessage).toContain('could not be saved on this device');
    const replay = replaySelectors(broken).selectReplay(broken.getState());
    expect(replay?.notes.get(1)).toBe('kept here');
  });

  it('imports a run file, keeps it with the project’s runs, and refuses one it cannot read', async () => {
    const runs = createMemoryRunRepository();
    const store = createAppStore(testServices({ runs }));
    const { events } = await simulateRefunds();
    await store.getState().importRunFile('bad.json', '{ not json');
    expect(store.getState().replayMessage).toBe('“bad.json” is not a run’s log: it is not JSON.');
    await store.getState().importRunFile('odd.json', JSON.stringify([{ type: 'message' }]));
    expect(store.getState().replayMessage).toContain('“odd.json” cannot be opened.');
    expect(store.getState().replayRunId).toBeNull();

    await store.getState().importRunFile('refunds.json', JSON.stringify(events));
    const id = store.getState().replayRunId;
    expect(store.getState().replayMessage).toBeNull();
    expect(store.getState().runList.map((r) => r.title)).toEqual(['Imported: refunds']);
    expect(await runs.events(id ?? '')).toEqual(events);
    expect(replaySelectors(store).selectDialogueRows(store.getState())).toHaveLength(4);
  });

  it('holds an imported log before the run list names it, so the graph never reads it back', async () => {
    const runs = createMemoryRunRepository();
    const store = createAppStore(testServices({ runs }));
    const { events } = await simulateRefunds();
    const reads: string[] = [];
    const read = runs.events.bind(runs);
    runs.events = (id) => {
      reads.push(id);
      return read(id);
    };
    // What the Graph pane does when the newest run changes (useHeatmap).
    const loads: Promise<void>[] = [];
    store.subscribe((state, before) => {
      const [newest] = state.runList;
      if (newest && newest !== before.runList[0]) loads.push(state.loadGraphRun(newest.id));
    });
    await store.getState().importRunFile('refunds.json', JSON.stringify(events));
    await Promise.all(loads);
    expect(loads).toHaveLength(1);
    expect(reads).toEqual([]);
    expect(graphResultsSelectors(store).selectGraphResults(store.getState())?.title).toBe(
      'Imported: refunds',
    );
  });

  it('compares two trials of a scenario, or finds the same scenario in another run', async () => {
    const { store, runs, events } = await storeWithRun();
    await runs.create({ id: 'run-2', projectId: 'p', createdAt: 'later', title: 'Again' });
    await runs.append('run-2', 0, events);
    await store.getState().openReplay({ run: 'run-1', dialogue: 'late#1' });
    await store.getState().compareReplay({ run: 'run-1', dialogue: 'late#2' });
    expect(replaySelectors(store).selectComparedReplay(store.getState())?.dialogue).toBe('late#2');
    await store.getState().compareReplay({ run: 'run-2', scenario: 'late', trial: 1 });
    expect(store.getState().replayCompare).toMatchObject({
      dialogue: 'late#2',
      run: { id: 'run-2' },
    });
    await store.getState().compareReplay({ run: 'run-2', scenario: 'missing', trial: 0 });
    expect(store.getState().replayMessage).toContain('no dialogue of scenario “missing”');
    await store.getState().compareReplay(null);
    expect(store.getState().replayCompare).toBeNull();
  });
});
