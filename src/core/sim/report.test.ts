import { describe, expect, it } from 'vitest';
import { wilson } from './metrics.ts';
import { reportOf } from './report.ts';
import type { Draft } from '../testing/reportLogs.ts';
import { stamp, POLICIES, scenario, ok, broke, dialogue, start } from '../testing/reportLogs.ts';

/** Three scenarios, two trials each: two passes, two failures, two errors. */
const BLOCKS: Draft[][] = [
  dialogue('d1', 's1', 0, {
    end: 'user-done',
    findings: [ok('no-pii', 'privacy')],
    judge: [{ policy: 'privacy', violated: true }],
  }),
  dialogue('d2', 's1', 1, {
    refuse: { rule: 'cancel-needs-yes', policy: 'confirm-cancel', turn: 1 },
    end: 'guard-end',
    findings: [ok('no-pii', 'privacy')],
  }),
  dialogue('d3', 's2', 0, {
    end: 'user-done',
    findings: [broke('no-pii', 'privacy', 4), broke('expected.database[0]', undefined)],
    judge: [{ policy: 'refund-window', violated: false }],
  }),
  dialogue('d4', 's2', 1, {
    refuse: { rule: 'refund-in-window', policy: 'refund-window', turn: 1 },
    end: 'provider-error',
    findings: [],
    judge: [{ policy: 'refund-window', violated: true }],
  }),
  // A refusal no rule decided (an unknown tool, say) is not the agent breaking a policy.
  dialogue('d5', 's3', 0, { refuse: { turn: 1 }, end: 'max-turns', findings: [] }),
  dialogue('d6', 's3', 1, { end: 'time-limit', findings: [] }),
];
const HEAD: Draft[] = [
  start,
  scenario('s1', ['confirm-cancel', 'privacy']),
  scenario('s2', ['refund-window'], 5),
  scenario('s3', ['ask-consent', 'confirm-cancel']),
];
const FULL = stamp([...HEAD, ...BLOCKS.flat(), { type: 'run-ended', reason: 'done' }]);

describe('reportOf', () => {
  const report = reportOf(FULL, POLICIES);

  it('gives each dialogue a verdict from the deterministic judging only', () => {
    expect(report.dialogues.map((d) => [d.dialogue, d.verdict, d.ending])).toEqual([
      ['d1', 'pass', 'user-done'],
      ['d2', 'fail', 'guard-end'],
      ['d3', 'fail', 'user-done'],
      ['d4', 'error', 'provider-error'],
      ['d5', 'pass', 'max-turns'],
      ['d6', 'error', 'time-limit'],
    ]);
    expect(report.dialogues[1]?.breaches).toEqual([
      {
        source: 'guard',
        id: 'cancel-needs-yes',
        policy: 'confirm-cancel',
        turn: 1,
        // Message 1 (from 0) is the agent's first reply: turns read as a reader counts them.
        turnLabel: 'the agent’s 1st reply',
        detail: 'refused',
        // The guard stopped it: an attempt, as against a breach that went through.
        attempt: true,
      },
    ]);
  });

  it('counts errors apart with their reasons, never as failures', () => {
    expect(report.overall).toEqual({ passes: 2, fails: 2, ...wilson(2, 4) });
    expect(report.errors).toEqual({
      total: 2,
      byReason: [
        { reason: 'provider-error', count: 1 },
        { reason: 'time-limit', count: 1 },
      ],
    });
  });

  it('keeps the judge opinion apart from the verdicts, errors left out', () => {
    expect(report.dialogues[0]?.judgeViolations).toEqual([
      {
        policy: 'privacy',
        turn: 1,
        turnLabel: 'the agent’s 1st reply',
        reason: 'why',
        evidence: '"Hi"',
      },
    ]);
    expect(report.judgeOpinion).toEqual({
      dialoguesJudged: 2,
      failed: { judgements: 0, dialogues: 0 },
      spread: { repeated: 0, unanimous: 0 },
      byPolicy: [
        { policy: 'privacy', judged: 1, violated: 1 },
        { policy: 'refund-window', judged: 1, violated: 0 },
      ],
      // d1's check kept privacy where the judge saw a violation; in d3 nothing deterministic
      // looked at refund-window, so there is nothing to compare the judge with.
      agreement: {
        compared: 1,
        agreed: 0,
        disagreements: [{ dialogue: 'd1', policy: 'privacy', judgeViolated: true }],
      },
      people: {
        judgeMarked: 0,
        judgeRight: 0,
        findingsMarked: 0,
        findingsWrong: 0,
        assertionsMarked: 0,
        assertionsRight: 0,
      },
      assertions: { met: 0, notMet: 0, notJudged: 0, graded: 0 },
    });
  });

  it('counts what people said of the judge and of the findings, the latest mark on each', () => {
    const mark = (dialogue: string, target: object, correct: boolean | null): Draft =>
      ({ type: 'mark', dialogue, target, correct }) as Draft;
    const marked = reportOf(
      stamp([
        ...HEAD,
        ...BLOCKS.flat(),
        mark('d1', { kind: 'judge', policy: 'privacy' }, true),
        mark('d1', { kind: 'judge', policy: 'privacy' }, false),
        mark('d3', { kind: 'judge', policy: 'refund-window' }, true),
        mark('d3', { kind: 'finding', id: 'no-pii' }, false),
        mark('d2', { kind: 'finding', id: 'no-pii' }, true),
        mark('d2', { kind: 'finding', id: 'other' }, false),
        mark('d2', { kind: 'finding', id: 'other' }, null),
        { type: 'note', dialogue: 'd2', turn: 0, text: 'fine' },
      ]),
      POLICIES,
    );
    expect(marked.judgeOpinion.people).toEqual({
      judgeMarked: 2,
      judgeRight: 1,
      findingsMarked: 2,
      findingsWrong: 1,
      assertionsMarked: 0,
      assertionsRight: 0,
    });
    // People's marks never change a verdict.
    expect(marked.dialogues.map((d) => d.verdict)).toEqual(report.dialogues.map((d) => d.verdict));
  });

  it('rates challenge levels, from the scenario or the sum of its policies', () => {
    expect(report.byLevel.map((l) => [l.level, l.passes, l.fails])).toEqual([
      [4, 1, 0],
      [5, 0, 1],
      [7, 1, 1],
    ]);
    expect(report.scenarios.map((s) => [s.id, s.level, s.passes, s.fails, s.errors])).toEqual([
      ['s1', 7, 1, 1, 0],
      ['s2', 5, 0, 1, 1],
      ['s3', 4, 1, 0, 1],
    ]);
  });

  it('rates a policy only where something examined it; in play and unexamined is not checked', () => {
    // d1 and d2 check privacy; d2's guard examines confirm-cancel; nothing looks at the rest.
    expect(
      report.byPolicy.map((p) => [p.policy, p.category, p.passes, p.fails, p.notChecked]),
    ).toEqual([
      ['ask-consent', 'consent', 0, 0, 1],
      ['confirm-cancel', 'consent', 0, 1, 2],
      ['privacy', 'privacy', 2, 0, 0],
      ['refund-window', 'refunds', 0, 0, 1],
    ]);
    expect(report.dialogues.map((d) => [d.dialogue, d.examined])).toEqual([
      ['d1', ['privacy']],
      ['d2', ['confirm-cancel', 'privacy']],
      ['d3', ['privacy']],
      ['d4', ['refund-window']],
      ['d5', []],
      ['d6', []],
    ]);
  });

  it('lists failures no finding ties to a policy as unattributed, charging no policy', () => {
    expect(report.unattributed).toMatchObject([
      { dialogue: 'd3', id: 'expected.database[0]', source: 'check', policy: undefined },
    ]);
  });

  it('says which policies were broken, where and when, in play or not', () => {
    const byId = new Map(report.byPolicy.map((p) => [p.policy, p]));
    expect(byId.get('confirm-cancel')?.breaches).toMatchObject([
      { dialogue: 'd2', scenario: 's1', trial: 1, turn: 1, id: 'cancel-needs-yes', inPlay: true },
    ]);
    expect(byId.get('privacy')?.breaches).toMatchObject([
      { dialogue: 'd3', scenario: 's2', trial: 0, turn: 4, id: 'no-pii', inPlay: false },
    ]);
    expect(byId.get('privacy')?.outOfPlay).toBe(1);
    // d4 refused a refund, but it ended in a provider error: no failure to attribute.
    expect(byId.get('refund-window')?.breaches).toEqual([]);
  });

  it('rates categories by the dialogues that examined one of their policies in play', () => {
    expect(report.byCategory.map((c) => [c.category, c.passes, c.fails])).toEqual([
      ['consent', 0, 1],
      ['privacy', 2, 0],
    ]);
  });

  it('reports pass^k for k up to the trials, over scenarios with enough finished trials', () => {
    // s1: 1 of 2, s2: 0 of 1, s3: 1 of 1.
    expect(report.passHatK).toEqual([
      { k: 1, value: 0.5, scenarios: 3 },
      { k: 2, value: 0, scenarios: 1 },
    ]);
  });

  it('reports progress, the run it describes and its wall time', () => {
    expect(report.progress).toEqual({
      scenarios: 3,
      dialoguesStarted: 6,
      dialoguesEnded: 6,
      dialoguesExpected: 6,
      running: 0,
      ended: 'done',
    });
    expect(report.run).toEqual({
      seed: 7,
      projectHash: 'abc',
      models: { agent: 'gpt-x' },
      trials: 2,
      externalAgent: false,
      judgeDecides: [],
    });
    expect(report.wallMs).toBe((FULL.length - 1) * 10);
  });

  it('reads a partial log: a dialogue still running, one ended but not yet checked', () => {
    const cut = FULL.findIndex((e) => e.type === 'checks' && e.dialogue === 'd3');
    const partial = reportOf(
      [...FULL.slice(0, cut), ...stamp([dialogue('d5', 's3', 0)].flat())],
      POLICIES,
    );
    expect(partial.dialogues.map((d) => [d.dialogue, d.verdict, d.checked])).toEqual([
      ['d1', 'pass', true],
      ['d2', 'fail', true],
      ['d3', 'pass', false],
      ['d5', 'running', false],
    ]);
    expect(partial.progress).toMatchObject({
      dialoguesStarted: 4,
      dialoguesEnded: 3,
      dialoguesExpected: 6,
      running: 1,
      ended: 'unfinished',
    });
    expect(partial.overall).toMatchObject({ passes: 2, fails: 1 });
  });

  it('gives the same report whatever order concurrent dialogues were logged in', () => {
    const shuffled = stamp([
      ...HEAD,
      ...[...BLOCKS].reverse().flat(),
      { type: 'run-ended', reason: 'done' },
    ]);
    expect(reportOf(shuffled, POLICIES)).toEqual(report);
  });

  it('adds tokens and cost per role, and knows no total once a model is unpriced', () => {
    const spend = (
      role: 'agent' | 'user' | 'judge',
      model: string,
      cost: number | null,
    ): Draft => ({
      type: 'usage',
      role,
      model,
      inputTokens: 100,
      outputTokens: 10,
      cost,
      ms: 5,
    });
    const priced = [
      spend('agent', 'gpt-x', 0.25),
      spend('user', 'local', 0),
      spend('agent', 'gpt-x', 0.5),
    ];
    expect(reportOf(stamp(priced), POLICIES).usage).toMatchObject({
      calls: 3,
      inputTokens: 300,
      outputTokens: 30,
      cost: 0.75,
      unpriced: [],
      byRole: { agent: { calls: 2, cost: 0.75 }, user: { calls: 1, cost: 0 } },
    });
    const usage = reportOf(stamp([...priced, spend('judge', 'mystery', null)]), POLICIES).usage;
    expect(usage).toMatchObject({ calls: 4, cost: null, unpriced: ['mystery'] });
    expect(usage.byRole.agent?.cost).toBe(0.75);
    expect(usage.byRole.judge).toMatchObject({ cost: null, unpriced: ['mystery'] });
  });

  it('has nothing to say about an empty log, and says so without inventing numbers', () => {
    const empty = reportOf([], POLICIES);
    expect(empty.run).toBeNull();
    expect(empty.overall.rate).toBeNaN();
    expect(empty.progress.ended).toBe('unfinished');
    expect(empty.passHatK).toEqual([]);
    expect(empty.wallMs).toBe(0);
  });
});

describe('simulator suspect dialogues', () => {
  const flagged = (id: string, review?: 'counts' | 'discarded'): Draft[] => [
    ...dialogue(id, 's1', 0, { end: 'user-done', findings: [broke('c', 'privacy')] }),
    { type: 'suspect', dialogue: id, reasons: ['The simulated user left early.'] },
    ...(review ? [{ type: 'review', dialogue: id, decision: review } as Draft] : []),
  ];
  const head: Draft[] = [start, scenario('s1', ['privacy'])];

  it('keeps a suspect dialogue out of the pass rate and the policy rates until reviewed', () => {
    const r = reportOf(stamp([...head, ...flagged('d1')]), POLICIES);
    expect(r.dialogues[0]).toMatchObject({
      verdict: 'suspect',
      suspect: ['The simulated user left early.'],
      review: null,
    });
    expect(r.overall).toMatchObject({ passes: 0, fails: 0 });
    expect(r.suspect).toBe(1);
    expect(r.byPolicy.filter((p) => p.passes + p.fails > 0)).toEqual([]);
    expect(r.progress.dialoguesEnded).toBe(1);
  });

  it('counts it as judged once a person says so, or as an error once discarded', () => {
    const counted = reportOf(stamp([...head, ...flagged('d1', 'counts')]), POLICIES);
    expect(counted.dialogues[0]?.verdict).toBe('fail');
    expect(counted.overall).toMatchObject({ passes: 0, fails: 1 });
    const discarded = reportOf(stamp([...head, ...flagged('d1', 'discarded')]), POLICIES);
    expect(discarded.dialogues[0]).toMatchObject({ verdict: 'error', errorReason: 'user-error' });
    expect(discarded.errors.byReason).toEqual([{ reason: 'user-error', count: 1 }]);
  });
});

describe('the generation part of the report', () => {
  const usage = (role: 'generator' | 'agent'): Draft => ({
    type: 'usage',
    role,
    model: 'm',
    inputTokens: 1,
    outputTokens: 1,
    cost: null,
    ms: 1,
  });
  const failed = (policies: string[], level: number, error: string, attempts?: number): Draft => ({
    type: 'scenario-failed',
    sample: { policies, level },
    error,
    ...(attempts !== undefined && { attempts }),
  });

  it('counts what the generator was asked, wrote and failed, leaving the plan’s scenarios out', () => {
    const log = stamp([
      start,
      // The plan's own scenario, generated in an earlier run: logged before the generator ran.
      scenario('kept', ['privacy']),
      usage('generator'),
      scenario('gen-1', ['privacy'], 4),
      usage('generator'),
      usage('generator'),
      failed(['refund-window', 'privacy'], 6, 'still invalid after 2 requests to fix it', 3),
      failed(['nope'], 1, 'The project has no policy "nope".'),
      { type: 'run-ended', reason: 'done' },
    ]);
    const report = reportOf(log, POLICIES);
    expect(report.generation).toEqual({
      asked: 3,
      written: 1,
      failed: [
        {
          policies: ['refund-window', 'privacy'],
          level: 6,
          error: 'still invalid after 2 requests to fix it',
          attempts: 3,
        },
        {
          policies: ['nope'],
          level: 1,
          error: 'The project has no policy "nope".',
          attempts: null,
        },
      ],
    });
    // A failed sample is no scenario: nothing to run, nothing expected of it.
    expect(report.progress).toMatchObject({ scenarios: 2, dialoguesExpected: 4 });
  });

  it('is null for a run that generated nothing', () => {
    expect(reportOf(FULL, POLICIES).generation).toBeNull();
  });
});

describe('refused attempts in the report', () => {
  // One dialogue: a guard refusal that fails it, and a precondition's refusal only noted.
  const id = 'a1';
  const events = stamp([
    start,
    scenario('s1', ['refund-window', 'confirm-cancel']),
    { type: 'dialogue-started', dialogue: id, scenario: 's1', trial: 0 },
    { type: 'message', dialogue: id, turn: 0, speaker: 'user', text: 'Refund o2, cancel o3' },
    { type: 'message', dialogue: id, turn: 1, speaker: 'agent', text: '' },
    { type: 'tool-call', dialogue: id, turn: 1, call: 'c1', tool: 'refund', args: {} },
    {
      type: 'guard',
      dialogue: id,
      call: 'c1',
      allowed: false,
      rule: 'late',
      policy: 'refund-window',
      reason: 'Too late.',
    },
    { type: 'tool-call', dialogue: id, turn: 1, call: 'c2', tool: 'cancel', args: {} },
    { type: 'guard', dialogue: id, call: 'c2', allowed: true, reason: 'no rule' },
    {
      type: 'tool-result',
      dialogue: id,
      call: 'c2',
      ok: false,
      result: 'Error: Only pending orders can be cancelled.',
      changes: [],
      refusedBy: { precondition: 1, policy: 'confirm-cancel', noted: true },
      checked: ['confirm-cancel'],
    },
    { type: 'dialogue-ended', dialogue: id, reason: 'user-done', detail: 'done' },
    { type: 'checks', dialogue: id, findings: [] },
    { type: 'run-ended', reason: 'done' },
  ]);
  const report = reportOf(events, POLICIES);
  const [d] = report.dialogues;

  it('fails the dialogue for the attempt that fails, and only notes the noted one', () => {
    expect(d?.verdict).toBe('fail');
    expect(d?.breaches.map((b) => [b.source, b.policy, b.attempt, b.turn])).toEqual([
      ['guard', 'refund-window', true, 1],
    ]);
    expect(d?.noted.map((b) => [b.source, b.id, b.policy, b.turn])).toEqual([
      ['precondition', 'cancel.requires[1]', 'confirm-cancel', 1],
    ]);
    expect(d?.noted[0]?.detail).toBe(
      'cancel refused the call (Only pending orders can be cancelled.): the agent tried what the policy forbids.',
    );
  });

  it('counts both in their policies’ rows, and a noted attempt as the policy examined and kept', () => {
    const row = (policy: string) => report.byPolicy.find((p) => p.policy === policy);
    expect(row('refund-window')).toMatchObject({ attempts: 1, passes: 0, fails: 1 });
    expect(row('confirm-cancel')).toMatchObject({ attempts: 1, passes: 1, fails: 0 });
    expect(row('confirm-cancel')?.noted.map((b) => b.dialogue)).toEqual([id]);
  });
});
