import { describe, expect, it } from 'vitest';
import type { RunPlan, SeatTurn } from '../core/index.ts';
import { PERSON, USER_STOP, planRun } from '../core/index.ts';
import type { ScriptedAnswer } from '../test/scriptedModels.ts';
import { storeWithEngine, withEndpointModels } from '../test/modelStore.ts';
import { modelReply, queuedEngine } from '../test/scriptedModels.ts';
import type { createAppStore } from './createAppStore.ts';
import { playSelectors } from './playSelectors.ts';

type Store = ReturnType<typeof createAppStore>;

const storeWith = (answers: ScriptedAnswer[]) =>
  storeWithEngine(queuedEngine(answers, () => modelReply(`Bye. ${USER_STOP}`)).engine);

/** Resolves with the next turn waiting for the person (one with an id above `after`). */
function turnAfter(store: Store, after = 0): Promise<SeatTurn> {
  return new Promise((resolve) => {
    const check = () => {
      const turn = store.getState().play?.turn;
      if (turn && turn.id > after) {
        unsubscribe();
        resolve(turn);
      }
    };
    const unsubscribe = store.subscribe(check);
    check();
  });
}

describe('play slice', () => {
  it('plans a game with core planRun, as runs and the CLI do', async () => {
    const plans: RunPlan[] = [];
    const { store } = storeWithEngine(queuedEngine([]).engine, {
      simulatePlay: (_model, plan) => {
        plans.push(plan);
        return Promise.resolve('done');
      },
    });
    await withEndpointModels(store);
    store.getState().setPlaySettings({ seat: 'user', scenario: 'late-refund' });
    await store.getState().startPlay();
    const [plan] = plans;
    if (!plan) throw new Error('no game was planned');
    const expected = planRun(store.getState().project, {
      seed: 1,
      trials: 1,
      concurrency: 1,
      maxTurns: 40,
      timeLimitMs: 6 * 3_600_000,
      scenarios: ['late-refund'],
      agent: plan.agent,
      user: plan.user,
      externalAgent: false,
      prices: store.getState().modelSettings.prices,
      freeModels: [PERSON],
      now: plan.now,
    });
    expect(expected.ok && expected.plan).toEqual(plan);
    expect(plan.user.model).toBe(PERSON);
  });

  it('says which model is missing instead of starting', async () => {
    const { store } = storeWith([]);
    await store.getState().boot({ example: 'mini' });
    await store.getState().startPlay();
    expect(store.getState().simulationMessage).toMatch(/model for the agent/);
    expect(store.getState().play).toBeNull();
  });

  it('lets a person play the customer: guard questions, live findings, a saved game', async () => {
    const { store, runs } = storeWith([
      modelReply('Sure, refunding now.', [
        { name: 'refund_order', args: { order_id: 'o2' }, id: 'r1' },
      ]),
      modelReply('Done, your refund is on its way.'),
    ]);
    await withEndpointModels(store);
    store.getState().setPlaySettings({ seat: 'user', scenario: 'late-refund' });
    // The agent's words are shown as they stream in, until its message is logged.
    const streamed: string[] = [];
    store.subscribe((state) => {
      const text = state.play?.streaming?.text;
      if (text && streamed.at(-1) !== text) streamed.push(text);
    });
    const playing = store.getState().startPlay();
    const first = await turnAfter(store);
    expect(store.getState().play?.title).toBe('Play · you as the customer · late-refund · m');
    expect(store.getState().answerPlay({ text: 'Refund order o2 please.' })).toBe(true);

    // The guard refuses the call and asks the customer (the person) first.
    const asked = await turnAfter(store, first.id);
    const live = playSelectors(store).selectPlayView(store.getState());
    expect(live?.final).toBe(false);
    expect(live?.findings).toContainEqual(
      expect.objectContaining({ source: 'guard', state: 'broken', policy: 'verify-identity' }),
    );
    expect(asked.request.messages.at(-1)?.content).toMatch(/wants to call refund_order/);
    store.getState().answerPlay({ text: 'Yes, go ahead.' });

    const last = await turnAfter(store, asked.id);
    expect(store.getState().finishPlay('Thanks!')).toBe(true);
    await playing;
    expect(last.id).toBe(3);

    const play = store.getState().play;
    expect(play?.live).toBe(false);
    expect(streamed).toEqual(['Sure, refunding now.', 'Done, your refund is on its way.']);
    expect(play?.streaming).toBeNull();
    const judged = playSelectors(store).selectPlayView(store.getState());
    expect(judged?.final).toBe(true);
    expect(judged?.transcript.messages.map((m) => `${m.speaker}: ${m.text}`)).toEqual([
      'user: Refund order o2 please.',
      'agent: Sure, refunding now.',
      'user: Yes, go ahead.',
      'agent: Done, your refund is on its way.',
      'user: Thanks!',
    ]);
    expect(judged?.transcript.ending?.reason).toBe('user-done');
    expect(judged?.findings).toContainEqual(
      expect.objectContaining({ source: 'expected', state: 'kept' }),
    );
    expect(await runs.events(play?.id ?? '')).toEqual(play?.events);
    expect(store.getState().runList.map((r) => r.title)).toEqual([play?.title]);
  });

  it('lets a person play the agent: a call that does not fit is refused, nothing lost', async () => {
    const { store, expire } = storeWith([modelReply('I am u1, please look me up.')]);
    await withEndpointModels(store);
    store.getState().setPlaySettings({ seat: 'agent', scenario: null, goal: 'Check my account' });
    const playing = store.getState().startPlay();
    const turn = await turnAfter(store);
    // A person thinking longer than a model's call may take is not timed out.
    expire(120_000);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.getState().play?.turn).toBe(turn);
    expect(store.getState().play?.scenario.goal).toBe('Check my account');
    expect(turn.request.tools?.map((t) => t.name)).toContain('get_user');

    expect(
      store.getState().answerPlay({
        text: 'Looking.',
        toolCalls: [{ name: 'get_user', arguments: '{"user": 1}' }],
      }),
    ).toBe(false);
    expect(store.getState().play?.problem).toMatch(/get_user/);
    expect(store.getState().play?.turn).toBe(turn);

    store.getState().answerPlay({
      text: 'Looking.',
      toolCalls: [{ name: 'get_user', arguments: '{"user_id": "u1"}' }],
    });
    await turnAfter(store, turn.id);
    const view = playSelectors(store).selectPlayView(store.getState());
    expect(view?.transcript.calls[0]).toMatchObject({
      tool: 'get_user',
      guard: { allowed: true },
      result: { ok: true },
    });

    store.getState().stopPlay();
    await playing;
    expect(playSelectors(store).selectPlayView(store.getState())?.transcript.ending?.reason).toBe(
      'cancelled',
    );
    store.getState().closePlay();
    expect(store.getState().play).toBeNull();
  });
});

describe('a game cut off mid-way', () => {
  it('is not resumed by models in the person’s place', async () => {
    const { store, runs } = storeWith([]);
    await withEndpointModels(store);
    await runs.create({
      id: 'run-g',
      projectId: store.getState().projectId,
      createdAt: '',
      title: 'Play',
    });
    await runs.append('run-g', 0, [
      {
        type: 'run-started',
        at: 0,
        seed: 1,
        projectHash: 'h',
        models: { agent: 'm', user: 'person' },
        trials: 1,
      },
    ]);
    await store.getState().refreshRuns();
    await store.getState().openRun('run-g');
    await store.getState().resumeRun();
    expect(store.getState().simulationMessage).toMatch(/cannot be resumed without its player/);
    expect(await runs.events('run-g')).toHaveLength(1);
  });
});
