import { describe, expect, it } from 'vitest';
import type { ChatEngine } from '../models/chat.ts';
import { ModelError } from '../models/errors.ts';
import { waitingRuntime } from '../../test/scriptedModels.ts';
import {
  REFUND_PLAN as PLAN,
  goalUser as user,
  mini,
  refundJudge as judge,
  simulateRefunds as simulate,
} from '../../test/refundDesk.ts';
import type { SimEvent } from './events.ts';
import { reportOf } from './report.ts';
import { dialogueId, runSimulation } from './run.ts';
import { transcriptOf } from './transcript.ts';

// Only the dialogue time limits sleep long; they never expire here.
const { runtime } = waitingRuntime();

describe('runSimulation', () => {
  it('runs every scenario k times and judges each dialogue as it ends', async () => {
    const { reason, events } = await simulate();
    expect(reason).toBe('done');
    expect(events[0]).toMatchObject({ type: 'run-started', seed: 7, trials: 2 });
    expect(events.at(-1)).toMatchObject({ type: 'run-ended', reason: 'done' });
    const ended = events.filter((e) => e.type === 'dialogue-ended').map((e) => e.dialogue);
    expect([...ended].sort()).toEqual(['fresh#1', 'fresh#2', 'late#1', 'late#2']);
    const checks = new Map(
      events.flatMap((e) => (e.type === 'checks' ? [[e.dialogue, e.findings] as const] : [])),
    );
    // The fresh refund meets its expectation; the late one is refused by the guard, so o2 stays.
    expect(checks.get(dialogueId('fresh', 0))?.every((f) => f.passed)).toBe(true);
    expect(
      checks.get(dialogueId('late', 1))?.find((f) => f.id === 'expected.database[0]')?.passed,
    ).toBe(true);
    // "o2 stays delivered" holds when the agent does nothing: that scenario proves little.
    const baselines = events.flatMap((e) =>
      e.type === 'scenario' ? [[e.scenario.id, e.baseline?.passes]] : [],
    );
    expect(baselines).toEqual([
      ['fresh', false],
      ['late', true],
    ]);
    const facts = new Map(
      mini.policies.map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
    );
    const report = reportOf(events, facts);
    expect(report.scenarios.map((s) => [s.id, s.passesIdle !== null])).toEqual([
      ['fresh', false],
      ['late', true],
    ]);
    expect(report.msByRole.agent).toBeGreaterThan(0);
    const refused = events.filter((e) => e.type === 'guard' && !e.allowed);
    expect(refused.map((e) => e.type === 'guard' && e.rule)).toEqual([
      'refund-late',
      'refund-late',
    ]);
  });

  it('writes the same log for the same plan and scripted answers', async () => {
    const first = await simulate({ ...PLAN, concurrency: 1 });
    const second = await simulate({ ...PLAN, concurrency: 1 });
    expect(JSON.stringify(second.events)).toBe(JSON.stringify(first.events));
  });

  it('stops cleanly when the budget is spent', async () => {
    // Each agent call costs 0.11 dollars at these prices.
    const { reason, events } = await simulate({
      ...PLAN,
      concurrency: 1,
      budget: { dollars: 0.2 },
    });
    expect(reason).toBe('budget');
    const endings = events.flatMap((e) => (e.type === 'dialogue-ended' ? [e.reason] : []));
    expect(endings).toEqual(['budget']);
    expect(events.at(-1)).toMatchObject({ type: 'run-ended', reason: 'budget' });
  });

  it('stops on cancel and keeps what finished', async () => {
    const controller = new AbortController();
    let seen = 0;
    const counting: ChatEngine = {
      chat: (request, options) => {
        if (++seen === 3) controller.abort();
        return user.chat(request, options);
      },
    };
    const { reason, events } = await simulate(
      { ...PLAN, concurrency: 1, user: { engine: counting, model: 'u' } },
      controller.signal,
    );
    expect(reason).toBe('cancelled');
    const endings = events.flatMap((e) => (e.type === 'dialogue-ended' ? [e.reason] : []));
    expect(endings.slice(0, -1).every((r) => r === 'user-done')).toBe(true);
    expect(endings.at(-1)).toBe('cancelled');
    expect(endings).toEqual(['user-done', 'cancelled']);
  });

  it('has the judge give its opinion per policy in play after each dialogue’s checks', async () => {
    const { reason, events } = await simulate({
      ...PLAN,
      judge: { engine: judge, model: 'judge-model' },
    });
    expect(reason).toBe('done');
    expect(events[0]).toMatchObject({
      models: { agent: 'agent-model', user: 'user-model', judge: 'judge-model' },
    });
    const judged = events.flatMap((e) => (e.type === 'judge' ? [e] : []));
    // In play: the scenario's refund-window, and verify-identity, which governs get_user, called.
    expect(judged.map((e) => [e.dialogue, e.policy, e.violated]).sort()).toEqual([
      ['fresh#1', 'refund-window', false],
      ['fresh#1', 'verify-identity', false],
      ['fresh#2', 'refund-window', false],
      ['fresh#2', 'verify-identity', false],
      ['late#1', 'refund-window', true],
      ['late#1', 'verify-identity', false],
      ['late#2', 'refund-window', true],
      ['late#2', 'verify-identity', false],
    ]);
    const late = judged.find((e) => e.dialogue === 'late#1');
    const attempt = events.find(
      (e) => e.type === 'tool-call' && e.dialogue === 'late#1' && e.tool === 'refund_order',
    );
    expect(late).toMatchObject({ evidence: 'refund_order({"order_id":"o2"})' });
    expect(late?.turn).toBe(attempt?.type === 'tool-call' ? attempt.turn : -1);
    for (const dialogue of ['fresh#1', 'late#2']) {
      const own = events.filter((e) => 'dialogue' in e && e.dialogue === dialogue);
      expect(own.slice(-5).map((e) => (e.type === 'usage' ? `usage:${e.role}` : e.type))).toEqual([
        'checks',
        'usage:judge',
        'judge',
        'usage:judge',
        'judge',
      ]);
    }
  });

  it('judges no dialogue that ended in an error, and a failing judge fails nothing', async () => {
    const down: ChatEngine = {
      chat: () => Promise.reject(new ModelError('server', 'The provider failed (500).')),
    };
    const broken = await simulate({
      ...PLAN,
      agent: { engine: down, model: 'agent-model' },
      judge: { engine: judge, model: 'judge-model' },
    });
    const endings = broken.events.flatMap((e) => (e.type === 'dialogue-ended' ? [e.reason] : []));
    expect(endings.every((r) => r === 'provider-error')).toBe(true);
    expect(broken.events.some((e) => e.type === 'judge')).toBe(false);

    const failing = await simulate({ ...PLAN, judge: { engine: down, model: 'judge-model' } });
    expect(failing.reason).toBe('done');
    expect(failing.events.some((e) => e.type === 'judge')).toBe(false);
    expect(failing.events.filter((e) => e.type === 'checks')).toHaveLength(4);
    expect(failing.events.flatMap((e) => (e.type === 'dialogue-ended' ? [e.reason] : []))).toEqual([
      'user-done',
      'user-done',
      'user-done',
      'user-done',
    ]);
  });
});

describe('resuming an interrupted run', () => {
  it('keeps judged dialogues, runs the rest (cut-off ones again), and reports as if never cut', async () => {
    const whole = await simulate({ ...PLAN, concurrency: 1 });
    // Cut the log as a reload would: after the second dialogue started, before it was judged.
    const secondStart = whole.events.findIndex(
      (e) => e.type === 'dialogue-started' && e.dialogue === dialogueId('fresh', 1),
    );
    const cut = whole.events.slice(0, secondStart + 3);
    const resumed: SimEvent[] = [];
    let tick = 1000;
    const reason = await runSimulation(
      mini,
      { ...PLAN, concurrency: 1 },
      {
        runtime,
        clock: () => tick++,
        emit: (event) => resumed.push(event),
        previous: cut,
      },
    );
    expect(reason).toBe('done');
    expect(resumed[0]).toEqual({ type: 'run-resumed', at: 1000, rerun: [dialogueId('fresh', 1)] });
    expect(resumed.some((e) => e.type === 'run-started' || e.type === 'scenario')).toBe(false);
    const started = resumed.flatMap((e) => (e.type === 'dialogue-started' ? [e.dialogue] : []));
    expect(started).toEqual(['fresh#2', 'late#1', 'late#2']);

    const facts = new Map(
      mini.policies.map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
    );
    const before = reportOf(whole.events, facts);
    const after = reportOf([...cut, ...resumed], facts);
    expect(after.progress).toMatchObject({ dialoguesEnded: 4, running: 0, ended: 'done' });
    expect(after.dialogues.map((d) => [d.dialogue, d.verdict])).toEqual(
      before.dialogues.map((d) => [d.dialogue, d.verdict]),
    );
    expect(transcriptOf([...cut, ...resumed], 'fresh#2').messages).toEqual(
      transcriptOf(whole.events, 'fresh#2').messages,
    );
  });
});
