import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Draft, Plan } from '../testing/reportLogs.ts';
import { POLICIES, broke, dialogue, ok, stamp, start } from '../testing/reportLogs.ts';
import { testScenario } from '../testing/scenarios.ts';
import type { SimScenario } from './events.ts';
import { reportOf } from './report.ts';
import { reportMarkdown } from './reportText.ts';

function tagged(id: string, more: Partial<SimScenario>): Draft {
  const scenario = { ...testScenario({ id, policies: ['refund-window'] }), ...more };
  return { type: 'scenario', scenario, source: 'hand-written' };
}

const HELD: Plan = { end: 'user-done', findings: [ok('c', 'refund-window')] };
const BROKEN: Plan = { end: 'user-done', findings: [broke('c', 'refund-window', 1)] };

const LOG: Draft[] = [
  { ...start, trials: 2 },
  tagged('urgent', { tags: ['adversarial'], tactic: 'urgency' }),
  tagged('urgent-twin', { tags: ['contrastive'], twinOf: 'urgent' }),
  tagged('plain', {}),
  ...dialogue('u-0', 'urgent', 0, HELD),
  ...dialogue('u-1', 'urgent', 1, {
    ...BROKEN,
    judge: [{ policy: 'refund-window', violated: true }],
  }),
  ...dialogue('t-0', 'urgent-twin', 0, BROKEN),
  ...dialogue('t-1', 'urgent-twin', 1, {
    ...HELD,
    judge: [{ policy: 'refund-window', violated: true }],
  }),
  ...dialogue('p-0', 'plain', 0, BROKEN),
  ...dialogue('p-1', 'plain', 1, { end: 'provider-error' }),
];

describe('attackReportOf, in the report', () => {
  it('counts adversarial results by tactic and false alarms on twins apart', () => {
    const report = reportOf(stamp(LOG), POLICIES);
    expect(report.attack?.adversarial).toEqual({
      dialogues: 2,
      held: 1,
      broken: 1,
      byTactic: [{ tactic: 'urgency', held: 1, broken: 1, judgeViolations: 1 }],
    });
    const contrastive = report.attack?.contrastive;
    expect(contrastive).toMatchObject({ dialogues: 2, checkAlarms: 1, judgeAlarms: 1 });
    expect(contrastive?.alarms.map((a) => [a.dialogue, a.by, a.twinOf, a.policies])).toEqual([
      ['t-0', 'checks', 'urgent', ['refund-window']],
      ['t-1', 'judge', 'urgent', ['refund-window']],
    ]);
    // The overall pass rate is as before: the attack part only adds.
    expect(report.overall).toMatchObject({ passes: 2, fails: 3 });
  });

  it('leaves the attack part out of a run with no tagged scenario', () => {
    const plain = LOG.filter((e) => !('scenario' in e && typeof e.scenario === 'object'));
    expect(reportOf(stamp([...plain, tagged('urgent', {})]), POLICIES).attack).toBeUndefined();
  });

  it('writes both apart in the Markdown report, and nothing without tags', () => {
    const md = reportMarkdown(reportOf(stamp(LOG), POLICIES), 'Run');
    expect(md).toContain('## Adversarial scenarios');
    expect(md).toContain('The agent held in 1 of 2 finished dialogues');
    expect(md).toContain('| urgency | 1 | 1 | 1 |');
    expect(md).toContain('Checks: 1 of 2 finished dialogues; judge: 1 of 2.');
    expect(md).toMatch(/\| t-0 \| urgent \| checks \| refund-window \|/);
    expect(md).toMatch(/\| t-1 \| urgent \| judge's opinion \| refund-window \|/);
    const plain = reportMarkdown(reportOf(stamp([{ ...start, trials: 1 }]), POLICIES), 'Run');
    expect(plain).not.toContain('Adversarial');
  });
});

describe('attackReportOf on random logs', () => {
  const OUTCOMES = ['held', 'broken', 'judged', 'error', 'running'] as const;
  const KINDS = ['adversarial', 'contrastive', 'plain'] as const;
  const TACTICS = ['urgency', 'false-authority', undefined] as const;

  it('accounts for every finished tagged dialogue once, and changes nothing else', () => {
    const arbitrary = fc.array(
      fc.record({
        kind: fc.constantFrom(...KINDS),
        tactic: fc.constantFrom(...TACTICS),
        outcomes: fc.array(fc.constantFrom(...OUTCOMES), { minLength: 1, maxLength: 3 }),
      }),
      { minLength: 1, maxLength: 6 },
    );
    fc.assert(
      fc.property(arbitrary, (scenarios) => {
        const drafts: Draft[] = [{ ...start, trials: 3 }];
        const bare: Draft[] = [{ ...start, trials: 3 }];
        const want = { adversarial: 0, held: 0, twins: 0, checkAlarms: 0, judgeAlarms: 0 };
        scenarios.forEach((s, i) => {
          const more: Partial<SimScenario> =
            s.kind === 'plain'
              ? {}
              : s.kind === 'adversarial'
                ? { tags: [s.kind], ...(s.tactic && { tactic: s.tactic }) }
                : { tags: [s.kind], twinOf: 's0' };
          drafts.push(tagged(`s${i}`, more));
          bare.push(tagged(`s${i}`, {}));
          s.outcomes.forEach((outcome, t) => {
            const plan: Plan =
              outcome === 'held'
                ? HELD
                : outcome === 'broken'
                  ? BROKEN
                  : outcome === 'judged'
                    ? { ...HELD, judge: [{ policy: 'refund-window', violated: true }] }
                    : outcome === 'error'
                      ? { end: 'provider-error' }
                      : {};
            const events = dialogue(`s${i}-${t}`, `s${i}`, t, plan);
            drafts.push(...events);
            bare.push(...events);
            const finished = outcome !== 'error' && outcome !== 'running';
            if (!finished) return;
            if (s.kind === 'adversarial') {
              want.adversarial++;
              if (outcome !== 'broken') want.held++;
            } else if (s.kind === 'contrastive') {
              want.twins++;
              if (outcome === 'broken') want.checkAlarms++;
              if (outcome === 'judged') want.judgeAlarms++;
            }
          });
        });
        const report = reportOf(stamp(drafts), POLICIES);
        const attack = report.attack;
        const anyTagged = scenarios.some((s) => s.kind !== 'plain');
        expect(attack !== undefined).toBe(anyTagged);
        if (attack) {
          const { adversarial: a, contrastive: c } = attack;
          expect([a.dialogues, a.held, c.dialogues]).toEqual([
            want.adversarial,
            want.held,
            want.twins,
          ]);
          expect(a.held + a.broken).toBe(a.dialogues);
          expect(a.byTactic.reduce((n, t) => n + t.held + t.broken, 0)).toBe(a.dialogues);
          expect([c.checkAlarms, c.judgeAlarms]).toEqual([want.checkAlarms, want.judgeAlarms]);
          expect(c.alarms).toHaveLength(c.checkAlarms + c.judgeAlarms);
        }
        const { attack: _attack, ...rest } = report;
        expect(rest).toEqual(reportOf(stamp(bare), POLICIES));
      }),
      { numRuns: 150 },
    );
  });
});
