import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Finding, TerminationReason } from './events.ts';
import { reportOf } from './report.ts';
import type { Draft, Plan } from '../testing/reportLogs.ts';
import { stamp, POLICIES, scenario, ok, broke, dialogue, start } from '../testing/reportLogs.ts';

const OUTCOMES = ['pass', 'check', 'guard', 'unrelated', 'error', 'running', 'absent'] as const;
const POOL = ['ask-consent', 'confirm-cancel', 'privacy', 'refund-window'];

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
