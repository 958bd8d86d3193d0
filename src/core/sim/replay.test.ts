import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FRESH_REFUND,
  LATE_REFUND,
  REFUND_PLAN,
  goalUser,
  mini,
  refundAgent,
  refundJudge as judge,
  simulateRefunds,
} from '../../test/refundDesk.ts';
import { waitingRuntime } from '../../test/scriptedModels.ts';
import { runDialogue } from './dialogue.ts';
import type { RowChange, SimEvent } from './events.ts';
import { firstStepFor, nextStep, quoteSpan, replayOf, stepOfTurn } from './replay.ts';
import { databaseAt, settledAt } from './replayFrame.ts';

const judgedRun = () =>
  simulateRefunds({ ...REFUND_PLAN, judge: { engine: judge, model: 'judge-model' } });

describe('replaying a dialogue', () => {
  it('walks the late refund step by step: the refused call breaks refund-window where it happened', async () => {
    const { events } = await judgedRun();
    const replay = replayOf(
      events,
      'late#1',
      new Map([['refund_order', ['refund-window', 'not-under-test']]]),
    );
    expect(replay.scenario?.id).toBe('late');
    expect(replay.models).toMatchObject({ agent: 'agent-model', user: 'user-model' });
    expect(replay.now).toBe(REFUND_PLAN.now);
    expect(replay.steps.map((s) => s.kind)).toEqual([
      'message',
      'message',
      'call',
      'message',
      'call',
      'message',
      'message',
      'ending',
    ]);
    const refused = replay.steps.find((s) => s.call?.tool === 'refund_order');
    expect(refused?.call?.guard).toMatchObject({ allowed: false, policy: 'refund-window' });
    expect(refused?.breached).toEqual(['refund-window']);
    // A tool lights the policies under test that name it, never the others.
    expect(refused?.policies).toEqual(['refund-window']);
    // The agent looks the customer up (turn 1), then tries the refund once (turn 2): both calls
    // have the id t0, and each step shows its own. The judge names the refund's turn.
    expect(replay.steps.flatMap((s) => (s.call ? [[s.turn, s.call.tool]] : []))).toEqual([
      [1, 'get_user'],
      [2, 'refund_order'],
    ]);
    const refusedTurns = replay.steps.filter((s) => s.call?.guard?.allowed === false);
    expect(refusedTurns.map((s) => s.turn)).toEqual([2]);
    const opinion = replay.opinions.find((o) => o.item.violated);
    expect(opinion?.item.policy).toBe('refund-window');
    expect(replay.steps[opinion?.step ?? -1]).toMatchObject({ kind: 'message', turn: 2 });
    // That reply, just before its refused call, is the first step concerning refund-window.
    expect(firstStepFor(replay, 'refund-window')).toBe(opinion?.step);
    expect(opinion?.step).toBe((refused?.index ?? 0) - 1);
    expect(replay.steps.map((s) => s.index)).toEqual(replay.steps.map((_, i) => i));
  });

  it('shows the database as it stood: the row a call changed is marked from that step on', async () => {
    const { events } = await simulateRefunds();
    const replay = replayOf(events, 'fresh#1');
    const refund = replay.steps.find((s) => s.call?.tool === 'refund_order');
    if (!refund) throw new Error('no refund');
    const orders = (step: number) => databaseAt(replay, step).find((t) => t.name === 'orders');
    const before = orders(refund.index - 1)?.rows.find((r) => r.key === 'o1');
    const after = orders(refund.index)?.rows.find((r) => r.key === 'o1');
    expect(before).toMatchObject({ row: { status: 'delivered' } });
    expect(before?.mark).toBeUndefined();
    expect(after).toMatchObject({ row: { status: 'refunded' }, mark: 'update' });
    expect(orders(refund.index)?.changed).toBe(1);
    // Rows nothing touched are the same objects at every step.
    const untouched = (step: number) => orders(step)?.rows.find((r) => r.key !== 'o1')?.row;
    expect(untouched(0)).toBe(untouched(replay.steps.length - 1));
  });

  it('ends on the database the dialogue really ended with', async () => {
    for (const scenario of [FRESH_REFUND, LATE_REFUND]) {
      const events: SimEvent[] = [];
      let tick = 0;
      const result = await runDialogue(
        mini,
        scenario,
        { dialogue: 'd', trial: 0 },
        {
          agent: { engine: refundAgent, model: 'a' },
          user: { engine: goalUser, model: 'u' },
          runtime: waitingRuntime().runtime,
          clock: () => tick++,
          now: REFUND_PLAN.now,
          prices: {},
          emit: (e) => events.push(e),
        },
      );
      const start = (await simulateRefunds()).events[0];
      const replay = replayOf([start as SimEvent, ...events], 'd');
      const shown = databaseAt(replay, replay.steps.length - 1);
      for (const [table, rows] of Object.entries(result.finalDb)) {
        const kept = shown.find((t) => t.name === table)?.rows.filter((r) => r.mark !== 'delete');
        expect(
          kept?.map((r) => r.row),
          table,
        ).toEqual(rows);
      }
    }
  });

  it('keeps a row the dialogue inserted marked as inserted however it changes after, and a deleted one shown', async () => {
    const start = (await simulateRefunds()).events[0] as SimEvent;
    const d = { dialogue: 'd' } as const;
    const write = (at: number, call: string, changes: RowChange[]): SimEvent[] => [
      { ...d, type: 'tool-call', at, turn: 1, call, tool: 'w', args: {} },
      { ...d, type: 'guard', at, call, allowed: true, reason: 'ok' },
      { ...d, type: 'tool-result', at, call, ok: true, result: '{}', changes },
    ];
    const o9 = { id: 'o9', user_id: 'u1', status: 'new' };
    const events: SimEvent[] = [
      start,
      { ...d, type: 'dialogue-started', at: 0, scenario: 's', trial: 0 },
      { ...d, type: 'message', at: 0, turn: 0, speaker: 'user', text: 'cut off' },
      {
        ...d,
        type: 'usage',
        at: 0,
        role: 'agent',
        model: 'a',
        inputTokens: 0,
        outputTokens: 0,
        cost: 0,
        ms: 1,
        failed: 'server',
      },
      // A resumed run starts the cut-off dialogue again: only the second attempt is replayed.
      { ...d, type: 'dialogue-started', at: 1, scenario: 's', trial: 0 },
      { ...d, type: 'message', at: 1, turn: 0, speaker: 'user', text: 'hello' },
      { ...d, type: 'message', at: 2, turn: 1, speaker: 'agent', text: '' },
      ...write(3, 'c1', [{ table: 'orders', key: 'o9', kind: 'insert', after: o9 }]),
      ...write(4, 'c2', [
        {
          table: 'orders',
          key: 'o9',
          kind: 'update',
          before: o9,
          after: { ...o9, status: 'paid' },
        },
      ]),
      ...write(5, 'c3', [
        { table: 'orders', key: 'o1', kind: 'delete', before: { id: 'o1', user_id: 'u1' } },
      ]),
    ];
    const replay = replayOf(events, 'd');
    expect(replay.transcript.messages.map((m) => m.text)).toEqual(['hello', '']);
    expect(replay.steps).toHaveLength(5);
    const orders = databaseAt(replay, 4).find((t) => t.name === 'orders');
    expect(orders?.rows.find((r) => r.key === 'o9')).toMatchObject({
      mark: 'insert',
      row: { status: 'paid' },
    });
    expect(orders?.rows.find((r) => r.key === 'o1')?.mark).toBe('delete');
    expect(orders?.changed).toBe(2);
  });

  it('shows each call of an id the agent used in two turns as its own step, its changes once', async () => {
    const start = (await simulateRefunds()).events[0] as SimEvent;
    const d = { dialogue: 'd' } as const;
    const o1 = { id: 'o1', user_id: 'u1', status: 'delivered', days_since_delivery: 5 };
    const call = (at: number, turn: number, tool: string, changes: RowChange[]): SimEvent[] => [
      { ...d, type: 'tool-call', at, turn, call: 't0', tool, args: {} },
      { ...d, type: 'guard', at, call: 't0', allowed: true, reason: 'ok' },
      { ...d, type: 'tool-result', at, call: 't0', ok: true, result: '{}', changes },
    ];
    const replay = replayOf(
      [
        start,
        { ...d, type: 'dialogue-started', at: 0, scenario: 's', trial: 0 },
        { ...d, type: 'message', at: 0, turn: 0, speaker: 'user', text: 'hello' },
        { ...d, type: 'message', at: 1, turn: 1, speaker: 'agent', text: '' },
        ...call(1, 1, 'get_user', []),
        { ...d, type: 'message', at: 2, turn: 2, speaker: 'agent', text: '' },
        ...call(2, 2, 'refund_order', [
          {
            table: 'orders',
            key: 'o1',
            kind: 'update',
            before: o1,
            after: { ...o1, status: 'refunded' },
          },
        ]),
      ],
      'd',
    );
    expect(replay.steps.map((s) => s.call?.tool)).toEqual([
      undefined,
      undefined,
      'get_user',
      undefined,
      'refund_order',
    ]);
    const status = (step: number) =>
      databaseAt(replay, step)
        .find((t) => t.name === 'orders')
        ?.rows.find((r) => r.key === 'o1')?.row.status;
    expect(status(2)).toBe('delivered');
    expect(status(4)).toBe('refunded');
  });

  it('settles verdicts in step order, and never un-settles one', async () => {
    const { events } = await judgedRun();
    const replay = replayOf(events, 'late#1');
    let previous = { refusals: 0, findings: 0, opinions: 0 };
    for (const step of replay.steps) {
      const settled = settledAt(replay, step.index);
      expect(settled.refusals).toBeGreaterThanOrEqual(previous.refusals);
      expect(settled.findings.length).toBeGreaterThanOrEqual(previous.findings);
      expect(settled.opinions.length).toBeGreaterThanOrEqual(previous.opinions);
      previous = {
        refusals: settled.refusals,
        findings: settled.findings.length,
        opinions: settled.opinions.length,
      };
    }
    const last = settledAt(replay, replay.steps.length - 1);
    expect(last.refusals).toBe(1);
    expect(last.allowed).toBe(1);
    expect(last.findings.length).toBe(replay.findings.length);
    expect(settledAt(replay, 0).refusals).toBe(0);
  });

  it('keeps the latest mark on each target and the latest note on each turn', async () => {
    const { events } = await simulateRefunds();
    const base = { at: 99, dialogue: 'late#1' } as const;
    const more: SimEvent[] = [
      { ...base, type: 'mark', target: { kind: 'finding', id: 'f1' }, correct: false },
      { ...base, type: 'mark', target: { kind: 'finding', id: 'f1' }, correct: true },
      { ...base, type: 'mark', target: { kind: 'judge', policy: 'p' }, correct: false },
      { ...base, type: 'mark', target: { kind: 'judge', policy: 'q' }, correct: true },
      { ...base, type: 'mark', target: { kind: 'judge', policy: 'q' }, correct: null },
      { ...base, type: 'note', turn: 1, text: 'first' },
      { ...base, type: 'note', turn: 1, text: 'second' },
      { ...base, type: 'note', turn: 2, text: 'gone' },
      { ...base, type: 'note', turn: 2, text: '' },
      { ...base, dialogue: 'fresh#1', type: 'note', turn: 3, text: 'elsewhere' },
    ];
    const replay = replayOf([...events, ...more], 'late#1');
    expect([...replay.marks.findings]).toEqual([['f1', true]]);
    expect([...replay.marks.judge]).toEqual([['p', false]]);
    expect([...replay.notes]).toEqual([[1, 'second']]);
  });

  it('reads every prefix of a log without throwing, steps numbered in order', async () => {
    const { events } = await judgedRun();
    const dialogues = ['fresh#1', 'fresh#2', 'late#1', 'late#2', 'missing'];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: events.length }),
        fc.constantFrom(...dialogues),
        (n, dialogue) => {
          const replay = replayOf(events.slice(0, n), dialogue);
          replay.steps.forEach((s, i) => {
            expect(s.index).toBe(i);
            expect(databaseAt(replay, i)).toBeDefined();
          });
          for (const pinned of [...replay.findings, ...replay.opinions])
            expect(pinned.step).toBeLessThan(replay.steps.length);
        },
      ),
    );
  });

  it('finds steps by turn and by kind, in both directions', async () => {
    const { events } = await simulateRefunds();
    const replay = replayOf(events, 'late#1');
    const isCall = (s: { kind: string }) => s.kind === 'call';
    const first = nextStep(replay, -1, 1, isCall);
    expect(replay.steps[first ?? -1]?.kind).toBe('call');
    const second = nextStep(replay, first ?? 0, 1, isCall);
    expect(second).toBeGreaterThan(first ?? 0);
    expect(nextStep(replay, second ?? 0, -1, isCall)).toBe(first);
    expect(nextStep(replay, replay.steps.length - 1, 1, isCall)).toBeUndefined();
    expect(stepOfTurn(replay, 0)).toBe(0);
  });
});

describe('finding a quote in a message', () => {
  it('finds it exactly, then ignoring case, then ignoring how whitespace runs', () => {
    expect(quoteSpan('I will refund o2 now.', 'refund o2')).toEqual({ start: 7, end: 16 });
    expect(quoteSpan('I will Refund O2 now.', '“refund o2”')).toEqual({ start: 7, end: 16 });
    expect(quoteSpan('I will\n  refund   o2 now.', 'will refund o2')).toEqual({
      start: 2,
      end: 20,
    });
    expect(quoteSpan('Nothing here.', 'refund')).toBeNull();
    expect(quoteSpan('Anything', '  ')).toBeNull();
  });

  it('returns the quote itself whenever the text holds it', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), fc.string(), (a, quote, b) => {
        fc.pre(quote.trim() !== '' && !/^["“”'‘’\s]|["“”'‘’\s]$/.test(quote));
        const text = a + quote + b;
        const span = quoteSpan(text, quote);
        expect(span && text.slice(span.start, span.end)).toBe(quote);
      }),
    );
  });
});
