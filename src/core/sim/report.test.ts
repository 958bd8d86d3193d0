import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Finding, SimEvent, TerminationReason } from './events.ts';
import { LOG_VERSION } from './events.ts';
import { wilson } from './metrics.ts';
import type { PolicyFacts } from './report.ts';
import { reportOf } from './report.ts';
import { testScenario } from '../testing/scenarios.ts';

type Draft = SimEvent extends infer E ? (E extends SimEvent ? Omit<E, 'at'> : never) : never;

/** Stamps events 10 ms apart, in the order given. */
const stamp = (drafts: readonly Draft[]): SimEvent[] =>
  drafts.map((d, i) => ({ ...d, at: i * 10 }));

const POLICIES: PolicyFacts = new Map([
  ['ask-consent', { category: 'consent', challenge: 1 }],
  ['confirm-cancel', { category: 'consent', challenge: 3 }],
  ['privacy', { category: 'privacy', challenge: 4 }],
  ['refund-window', { category: 'refunds', challenge: 2 }],
]);

function scenario(id: string, policies: string[], level?: number): Draft {
  const s = testScenario({
    id,
    policies,
    ...(level !== undefined && { level }),
    persona: 'a traveller',
    goal: 'change a booking',
  });
  return { type: 'scenario', scenario: s, source: 'generated' };
}

const ok = (id: string, policy?: string): Finding => ({ id, policy, passed: true, detail: 'held' });
const broke = (id: string, policy: string | undefined, turn?: number): Finding => ({
  id,
  policy,
  passed: false,
  ...(turn !== undefined && { turn }),
  detail: `${id} failed`,
});

interface Plan {
  readonly refuse?: { readonly rule?: string; readonly policy?: string; readonly turn: number };
  readonly findings?: readonly Finding[];
  readonly end?: TerminationReason;
  readonly judge?: readonly { readonly policy: string; readonly violated: boolean }[];
}

/** One dialogue's events: start, a user and an agent message, what the plan adds, the end. */
function dialogue(id: string, scenarioId: string, trial: number, plan: Plan = {}): Draft[] {
  const events: Draft[] = [
    { type: 'dialogue-started', dialogue: id, scenario: scenarioId, trial },
    { type: 'message', dialogue: id, turn: 0, speaker: 'user', text: 'Hello' },
    { type: 'message', dialogue: id, turn: 1, speaker: 'agent', text: 'Hi' },
  ];
  const { refuse } = plan;
  if (refuse) {
    const call = `${id}-call`;
    const tool = { type: 'tool-call', dialogue: id, turn: refuse.turn, call, tool: 'cancel' };
    events.push({ ...tool, args: {} } as Draft, {
      type: 'guard',
      dialogue: id,
      call,
      allowed: false,
      ...(refuse.rule !== undefined && { rule: refuse.rule }),
      ...(refuse.policy !== undefined && { policy: refuse.policy }),
      fallback: 'message',
      reason: 'refused',
    });
  }
  if (plan.end) {
    events.push({ type: 'dialogue-ended', dialogue: id, reason: plan.end, detail: plan.end });
  }
  if (plan.findings) events.push({ type: 'checks', dialogue: id, findings: plan.findings });
  for (const j of plan.judge ?? []) {
    events.push({ type: 'judge', dialogue: id, ...j, turn: 1, reason: 'why', evidence: '"Hi"' });
  }
  return events;
}

const start: Extract<Draft, { type: 'run-started' }> = {
  type: 'run-started',
  version: LOG_VERSION,
  prompts: [],
  seed: 7,
  projectHash: 'abc',
  models: { agent: 'gpt-x' },
  trials: 2,
};

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
    });
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

const OUTCOMES = ['pass', 'check', 'guard', 'unrelated', 'error', 'running', 'absent'] as const;
const POOL = ['ask-consent', 'confirm-cancel', 'privacy', 'refund-window'];

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

describe('reportOf on random logs', () => {
  it('accounts for every dialogue started, and for every policy in play', () => {
    const arbitrary = fc.record({
      trials: fc.integer({ min: 1, max: 3 }),
      scenarios: fc.array(fc.subarray(POOL), { minLength: 1, maxLength: 4 }),
      outcomes: fc.array(fc.tuple(fc.constantFrom(...OUTCOMES), fc.constantFrom(...POOL)), {
        minLength: 12,
        maxLength: 12,
      }),
    });
    fc.assert(
      fc.property(arbitrary, ({ trials, scenarios, outcomes }) => {
        const drafts: Draft[] = [{ ...start, trials }];
        scenarios.forEach((policies, i) => drafts.push(scenario(`s${i}`, policies)));
        const expected: {
          verdict: string;
          policies: string[];
          broken: string | null;
          examined: string | null;
        }[] = [];
        scenarios.forEach((policies, i) => {
          for (let t = 0; t < trials; t++) {
            const [outcome, policy] = outcomes[(i * trials + t) % outcomes.length] ?? ['pass', ''];
            if (outcome === 'absent') continue;
            const plan: Plan =
              outcome === 'check'
                ? { end: 'user-done', findings: [broke('c', policy, 2)] }
                : outcome === 'guard'
                  ? { refuse: { rule: 'r', policy, turn: 1 }, end: 'guard-end', findings: [] }
                  : outcome === 'unrelated'
                    ? { end: 'max-turns', findings: [broke('expected.database[0]', undefined)] }
                    : outcome === 'error'
                      ? { end: 'provider-error', findings: [broke('c', policy)] }
                      : outcome === 'running'
                        ? {}
                        : { end: 'user-done', findings: [ok('c', policy)] };
            drafts.push(...dialogue(`s${i}-${t}`, `s${i}`, t, plan));
            const verdict = { pass: 'pass', error: 'error', running: 'running' }[outcome as string];
            const broken = outcome === 'check' || outcome === 'guard' ? policy : null;
            // Only the finding's (or the guard rule's) own policy is examined; 'unrelated' ties
            // its failure to no policy, so it examines none.
            const examined = outcome === 'unrelated' ? null : policy;
            expected.push({ verdict: verdict ?? 'fail', policies, broken, examined });
          }
        });
        const r = reportOf(stamp(drafts), POLICIES);
        const { passes, fails } = r.overall;
        expect(passes + fails + r.errors.total + r.progress.running).toBe(
          r.progress.dialoguesStarted,
        );
        expect(r.progress.dialoguesStarted).toBe(expected.length);
        expect(r.dialogues.map((d) => d.verdict)).toEqual(expected.map((e) => e.verdict));
        for (const p of r.byPolicy) {
          const settled = expected.filter((e) => e.verdict === 'pass' || e.verdict === 'fail');
          const playing = settled.filter((e) => e.policies.includes(p.policy));
          const looked = playing.filter((e) => e.examined === p.policy);
          expect(p.passes + p.fails).toBe(looked.length);
          expect(p.notChecked).toBe(playing.length - looked.length);
          expect(p.fails).toBe(playing.filter((e) => e.broken === p.policy).length);
          expect(p.breaches.length).toBe(settled.filter((e) => e.broken === p.policy).length);
        }
        const failedUnrelated = expected.filter((e) => e.verdict === 'fail' && !e.broken).length;
        expect(new Set(r.unattributed.map((u) => u.dialogue)).size).toBe(failedUnrelated);
      }),
    );
  });

  it('never counts a pass for a policy in a dialogue that did not examine it', () => {
    // Random dialogues of random findings: passed or failed, skipped, unclear, a scenario's
    // fault, guard decisions, about random policies or none, in scenarios of random policies.
    const finding = fc.record({
      policy: fc.option(fc.constantFrom(...POOL), { nil: undefined }),
      kind: fc.constantFrom('pass', 'fail', 'skipped', 'unclear', 'fault'),
    });
    const dialogueArb = fc.record({
      scenario: fc.integer({ min: 0, max: 2 }),
      findings: fc.array(finding, { maxLength: 4 }),
      guard: fc.option(fc.record({ policy: fc.constantFrom(...POOL), allowed: fc.boolean() }), {
        nil: undefined,
      }),
      end: fc.constantFrom<TerminationReason>(
        'user-done',
        'max-turns',
        'provider-error',
        'agent-error',
      ),
    });
    fc.assert(
      fc.property(
        fc.array(fc.subarray(POOL), { minLength: 3, maxLength: 3 }),
        fc.array(dialogueArb, { minLength: 1, maxLength: 8 }),
        (scenarios, dialogues) => {
          const drafts: Draft[] = [{ ...start, trials: 1 }];
          scenarios.forEach((policies, i) => drafts.push(scenario(`s${i}`, policies)));
          const examinedIn: Set<string>[] = [];
          dialogues.forEach((d, i) => {
            const id = `d${i}`;
            drafts.push({
              type: 'dialogue-started',
              dialogue: id,
              scenario: `s${d.scenario}`,
              trial: 0,
            });
            const seen = new Set<string>();
            if (d.guard) {
              drafts.push(
                { type: 'tool-call', dialogue: id, turn: 1, call: `${id}-c`, tool: 't', args: {} },
                {
                  type: 'guard',
                  dialogue: id,
                  call: `${id}-c`,
                  allowed: d.guard.allowed,
                  rule: 'r',
                  policy: d.guard.policy,
                  reason: 'r',
                },
              );
              seen.add(d.guard.policy);
            }
            drafts.push({ type: 'dialogue-ended', dialogue: id, reason: d.end, detail: '' });
            const findings = d.findings.map((f, j): Finding => {
              const base = { id: `f${j}`, policy: f.policy, turn: 1 };
              if (f.kind === 'pass') return { ...base, passed: true, detail: 'held' };
              if (f.kind === 'skipped')
                return { ...base, passed: true, detail: 'Skipped: no pattern.' };
              if (f.kind === 'unclear')
                return { ...base, passed: false, unclear: true, detail: '?' };
              if (f.kind === 'fault')
                return { ...base, passed: false, fault: 'scenario', detail: '!' };
              return { ...base, passed: false, detail: 'broke' };
            });
            for (const f of d.findings)
              if (f.policy !== undefined && (f.kind === 'pass' || f.kind === 'fail'))
                seen.add(f.policy);
            drafts.push({ type: 'checks', dialogue: id, findings });
            examinedIn.push(seen);
          });
          const r = reportOf(stamp(drafts), POLICIES);
          r.dialogues.forEach((d) => {
            const i = Number(d.dialogue.slice(1));
            expect(new Set(d.examined)).toEqual(examinedIn[i]);
          });
          for (const p of r.byPolicy) {
            // Every dialogue counted for the policy examined it; none counted twice.
            const counted = r.dialogues.filter(
              (d) =>
                (d.verdict === 'pass' || d.verdict === 'fail') &&
                (scenarios[Number(d.scenario.slice(1))] ?? []).includes(p.policy) &&
                examinedIn[Number(d.dialogue.slice(1))]?.has(p.policy),
            );
            expect(p.passes + p.fails).toBe(counted.length);
            expect(p.passes).toBeLessThanOrEqual(counted.length);
          }
          // A scenario's fault makes an error, never a failure or a pass.
          for (const d of r.dialogues) {
            const i = Number(d.dialogue.slice(1));
            if (dialogues[i]?.findings.some((f) => f.kind === 'fault'))
              expect(d.verdict).toBe('error');
          }
        },
      ),
    );
  });
});
