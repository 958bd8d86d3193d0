import { describe, expect, it, vi } from 'vitest';
import type { ChatEngine } from '../core/index.ts';
import { projectHash, readLog } from '../core/index.ts';
import { MINI_FILES } from '../core/testing/miniProject.ts';
import { manualScheduler } from '../test/manualScheduler.ts';
import { storeWithEngine, withEndpointModels } from '../test/modelStore.ts';
import { goalUser, refundAgent } from '../test/refundDesk.ts';
import { queuedEngine } from '../test/scriptedModels.ts';

/** The refund desk's scripted agent and customer behind one endpoint, counting the calls. */
function refundDesk() {
  const calls = { agent: 0, user: 0 };
  const engine: ChatEngine = {
    chat: (request, options) => {
      const role = request.tools ? 'agent' : 'user';
      calls[role]++;
      return (role === 'agent' ? refundAgent : goalUser).chat(request, options);
    },
  };
  return { engine, calls };
}

/** A store on the mini example whose late refund (o2, 45 days) has been run and saved. */
async function afterLateRefund() {
  const desk = refundDesk();
  const { store, runs } = storeWithEngine(desk.engine, { scheduler: manualScheduler() });
  await withEndpointModels(store);
  await store.getState().startRun();
  const source = store.getState().currentRun;
  if (!source) throw new Error('no run');
  return { store, runs, desk, source, saved: await runs.events(source.id) };
}

// Turn 2 of the mini example's late refund is the agent's refund of o2, its 2nd reply.
const FROM = { dialogue: 'late-refund#1', turn: 2 };

describe('continuing a dialogue from an agent turn', () => {
  it('saves a new run that names its source, with the project as it is now, and leaves the source alone', async () => {
    const { store, runs, desk, source, saved } = await afterLateRefund();
    expect(source.events.some((e) => e.type === 'guard' && !e.allowed)).toBe(true);
    // The refund window is eased after the run.
    const rules = MINI_FILES['rules.yaml'].replace(
      'o.days_since_delivery > 30',
      'o.days_since_delivery > 60',
    );
    store.getState().setFileText('rules.yaml', rules);
    desk.calls.agent = desk.calls.user = 0;
    const reads = vi.spyOn(runs, 'events');

    const id = await store.getState().continueDialogue({ run: source.id, ...FROM });
    // The source was the run on screen: its log is taken from there.
    expect(reads).not.toHaveBeenCalled();

    expect(id).toBeDefined();
    expect(id).not.toBe(source.id);
    expect(store.getState().simulationMessage).toBeNull();
    const listed = store.getState().runList.find((r) => r.id === id);
    expect(listed?.title).toBe('Continued: late-refund#1 from the agent’s 2nd reply · m');
    const read = readLog(await runs.events(id ?? ''));
    if (!read.ok) throw new Error(read.error);
    expect(read.events[0]).toMatchObject({
      type: 'run-started',
      projectHash: projectHash(store.getState().project.files),
      source: { kind: 'continued', run: source.id, ...FROM },
    });
    // The refund is asked for again, and the eased rule lets it through.
    const guards = read.events.filter((e) => e.type === 'guard');
    expect(guards.map((g) => g.allowed)).toEqual([true, true]);
    expect(desk.calls).toEqual({ agent: 2, user: 1 });
    expect(store.getState().currentRun).toMatchObject({ id, live: false, events: read.events });
    // The source's saved log is as it was.
    expect(await runs.events(source.id)).toEqual(saved);
  });

  it('reads the source from the run store when another run is on screen', async () => {
    const { runs, source } = await afterLateRefund();
    const desk = refundDesk();
    const { store } = storeWithEngine(desk.engine, { scheduler: manualScheduler(), runs });
    await withEndpointModels(store);
    expect(store.getState().currentRun).toBeNull();
    const id = await store.getState().continueDialogue({ run: source.id, ...FROM });
    const read = readLog(await runs.events(id ?? ''));
    expect(read.ok && read.events[0]).toMatchObject({ source: { run: source.id } });
    expect(desk.calls).toEqual({ agent: 2, user: 1 });
  });

  it('says why it cannot continue: a turn that is not the agent’s, a missing run, a live run', async () => {
    const { store, runs, source } = await afterLateRefund();
    const before = (await runs.list(store.getState().projectId)).length;
    const refused = async (from: { run: string; dialogue: string; turn: number }) => {
      const id = await store.getState().continueDialogue(from);
      expect(id).toBeUndefined();
      return store.getState().simulationMessage;
    };
    expect(await refused({ run: source.id, dialogue: FROM.dialogue, turn: 0 })).toBe(
      'Message 0 of “late-refund#1” is not one of the agent’s replies; only the agent’s replies can be re-run.',
    );
    expect(await refused({ run: 'run-gone', ...FROM })).toMatch(
      'The run “run-gone” cannot be continued. It is not saved on this device.',
    );
    expect((await runs.list(store.getState().projectId)).length).toBe(before);

    // A run that waits on its model stays live until it is stopped.
    const waiting = queuedEngine(['hang']);
    const live = storeWithEngine(waiting.engine, { scheduler: manualScheduler(), runs });
    await withEndpointModels(live.store);
    const running = live.store.getState().startRun();
    await expect.poll(() => live.store.getState().currentRun?.live).toBe(true);
    expect(
      await live.store.getState().continueDialogue({ run: source.id, ...FROM }),
    ).toBeUndefined();
    expect(live.store.getState().simulationMessage).toMatch(/^A run is going on/);
    live.store.getState().cancelRun();
    await running;
  });
});
