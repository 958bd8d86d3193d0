import { describe, expect, it } from 'vitest';
import { parseProject } from '../format/parseProject.ts';
import type { ScriptedAnswer } from '../../test/scriptedModels.ts';
import { modelReply, queuedEngine, waitingRuntime } from '../../test/scriptedModels.ts';
import { miniProject } from '../testing/miniProject.ts';
import type { Player } from './dialogue.ts';
import { runDialogue } from './dialogue.ts';
import type { SimEvent } from './events.ts';
import { USER_STOP } from './prompts.ts';
import type { SeatTurn } from './seat.ts';
import { createHumanSeat, seatQuestion } from './seat.ts';
import { PERSON } from './events.ts';
import { testScenario } from '../testing/scenarios.ts';

const mini = parseProject(miniProject()).model;

const SCENARIO = testScenario({ id: 'play', policies: [], knows: ['order o1', 'user id u1'] });

const model = (answers: ScriptedAnswer[]) =>
  queuedEngine(answers, () => modelReply(`Goodbye. ${USER_STOP}`)).engine;

/** A dialogue with a person in one seat; `turns` yields each turn the person is asked. */
function play(seat: 'user' | 'agent', other: ScriptedAnswer[]) {
  const events: SimEvent[] = [];
  const opened: SeatTurn[] = [];
  let notify: (() => void) | undefined;
  const person = createHumanSeat((turn) => {
    if (turn) opened.push(turn);
    notify?.();
  });
  /** Resolves with the next open turn. */
  const next = async (): Promise<SeatTurn> => {
    // Each round waits for the seat to say something; a thousand words without a turn is a bug.
    for (let round = 0; round < 1000; round++) {
      const turn = person.pending();
      if (turn) return turn;
      await new Promise<void>((resolve) => (notify = resolve));
    }
    throw new Error('the seat spoke 1,000 times without opening a turn');
  };
  const controller = new AbortController();
  const { runtime } = waitingRuntime();
  const personPlayer: Player = { engine: person.engine, model: PERSON };
  const modelPlayer: Player = { engine: model(other), model: 'scripted' };
  let tick = 0;
  const running = runDialogue(
    mini,
    SCENARIO,
    { dialogue: 'play#1', trial: 0 },
    {
      agent: seat === 'agent' ? personPlayer : modelPlayer,
      user: seat === 'user' ? personPlayer : modelPlayer,
      runtime,
      clock: () => tick++,
      now: '2026-11-21T12:00:00Z',
      prices: {},
      signal: controller.signal,
      emit: (event) => events.push(event),
    },
    { maxTurns: 20, timeLimitMs: 3_600_000, maxToolRounds: 8 },
  );
  return { person, next, running, events, opened, controller };
}

const said = (events: readonly SimEvent[]) =>
  events.flatMap((e) => (e.type === 'message' ? [`${e.speaker}: ${e.text}`] : []));

describe('a person in the customer’s seat', () => {
  it('waits for each message, and ends the dialogue when the person says they are done', async () => {
    const game = play('user', [modelReply('Hello! Which order is it?')]);
    const first = await game.next();
    expect(first.request.messages[0]?.role).toBe('system');
    expect(game.person.answer(first.id, { text: 'Refund order o1 please.' })).toEqual({ ok: true });
    const second = await game.next();
    expect(second.id).toBe(2);
    expect(second.request.messages.at(-1)?.content).toBe('Hello! Which order is it?');
    expect(seatQuestion(second, 'Hello! Which order is it?')).toBeUndefined();
    game.person.answer(second.id, { text: `Never mind. ${USER_STOP}` });
    expect((await game.running).ending).toBe('user-done');
    expect(said(game.events)).toEqual([
      'user: Refund order o1 please.',
      'agent: Hello! Which order is it?',
      'user: Never mind.',
    ]);
    const usage = game.events.find((e) => e.type === 'usage' && e.role === 'user');
    expect(usage).toMatchObject({ model: PERSON, inputTokens: 0, outputTokens: 0 });
  });

  it('is put the question of an ask_user guard rule, which the dialogue does not show', async () => {
    const game = play('user', [
      modelReply('', [{ name: 'refund_order', args: { order_id: 'o1' } }]),
      modelReply('Done.'),
    ]);
    const first = await game.next();
    game.person.answer(first.id, { text: 'Refund o1.' });
    const asked = await game.next();
    expect(seatQuestion(asked, '')).toMatch(/wants to call refund_order/);
    game.person.answer(asked.id, { text: 'Yes, I am u1.' });
    const third = await game.next();
    expect(seatQuestion(third, 'Done.')).toBeUndefined();
    game.person.answer(third.id, { text: USER_STOP });
    await game.running;
    const guard = game.events.find((e) => e.type === 'guard');
    expect(guard).toMatchObject({ allowed: false, fallback: 'ask_user' });
  });

  it('refuses an empty message and an answer to a turn that is over', async () => {
    const game = play('user', [modelReply('Hi')]);
    const first = await game.next();
    expect(game.person.answer(first.id, { text: '   ' })).toEqual({
      ok: false,
      problem: 'Write a message first.',
    });
    expect(game.person.answer(first.id + 1, { text: 'Hello' })).toMatchObject({ ok: false });
    expect(game.person.pending()).toBe(first);
    game.controller.abort();
    expect((await game.running).ending).toBe('cancelled');
    expect(game.person.pending()).toBeUndefined();
  });
});

describe('a person in the agent’s seat', () => {
  it('is offered the project’s tools, and its tool calls go through the guard rules', async () => {
    const game = play('agent', [
      modelReply('I want a refund for order o1.'),
      modelReply(`Thanks, bye. ${USER_STOP}`),
    ]);
    const first = await game.next();
    expect(first.request.tools?.map((t) => t.name)).toEqual(['get_user', 'refund_order']);
    expect(first.request.messages.at(-1)).toEqual({
      role: 'user',
      content: 'I want a refund for order o1.',
    });

    // A call the dialogue could not use is refused before it reaches the log.
    const unknown = game.person.answer(first.id, {
      text: '',
      toolCalls: [{ name: 'delete_everything', arguments: '{}' }],
    });
    expect(unknown.ok).toBe(false);
    expect(!unknown.ok && unknown.problem).toMatch(/delete_everything/);
    const broken = game.person.answer(first.id, {
      text: '',
      toolCalls: [{ name: 'refund_order', arguments: '{"order_id": ' }],
    });
    expect(broken).toMatchObject({ ok: false });
    expect(game.person.pending()?.id).toBe(first.id);

    expect(
      game.person.answer(first.id, {
        text: 'Let me do that.',
        toolCalls: [{ name: 'refund_order', arguments: '{"order_id":"o1"}' }],
      }),
    ).toEqual({ ok: true });
    const second = await game.next();
    const result = second.request.messages.at(-1);
    expect(result).toMatchObject({ role: 'tool', toolCallId: 'person-call-1' });
    game.person.answer(second.id, { text: 'Your refund is on its way.' });
    expect((await game.running).ending).toBe('user-done');

    const call = game.events.find((e) => e.type === 'tool-call');
    expect(call).toMatchObject({ tool: 'refund_order', args: { order_id: 'o1' } });
    const guard = game.events.find((e) => e.type === 'guard');
    expect(guard).toMatchObject({ allowed: false, fallback: 'ask_user' });
    expect(said(game.events)).toContain('agent: Your refund is on its way.');
  });
});
