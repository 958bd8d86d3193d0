import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Draft } from '../testing/reportLogs.ts';
import { POLICIES, dialogue, ok, stamp, start } from '../testing/reportLogs.ts';
import { testScenario } from '../testing/scenarios.ts';
import { reportOf } from './report.ts';
import { reportMarkdown } from './reportText.ts';

const TEXTS = ['The agent refuses.', 'The agent offers a return.', 'The agent says goodbye.'];

const announced: Draft = {
  type: 'scenario',
  source: 'hand-written',
  scenario: testScenario({
    id: 'tau',
    policies: [],
    expected: { assertions: TEXTS.map((text) => ({ text })) },
  }),
};

/** The judge's opinion of assertion `i` in `dialogueId`. */
const opinion = (dialogueId: string, i: number, met: boolean): Draft => ({
  type: 'assertion',
  dialogue: dialogueId,
  id: `expected.assertions[${i}]`,
  text: TEXTS[i] ?? '',
  met,
  reason: met ? 'It did.' : 'It did not.',
  evidence: '',
});

/** Dialogues of the `tau` scenario, each with the judge's opinions given (`null`: none). */
function runLog(dialogues: readonly (readonly (boolean | null)[])[], judge?: string): Draft[] {
  return [
    { ...start, models: { agent: 'a', ...(judge !== undefined && { judge }) } },
    announced,
    ...dialogues.flatMap((opinions, t) => {
      const id = `tau#${t + 1}`;
      const events = dialogue(id, 'tau', t, { end: 'user-done', findings: [ok('c1')] });
      // The opinions come in before the dialogue's last event (its ending), as the judge's do.
      const [head, end] = [events.slice(0, -1), events.slice(-1)];
      return [
        ...head,
        ...opinions.flatMap((met, i) => (met === null ? [] : [opinion(id, i, met)])),
        ...end,
      ];
    }),
  ];
}

const section = (md: string) => {
  const at = md.indexOf("## Assertions (the judge's opinion)");
  return at < 0 ? null : md.slice(at, md.indexOf('\n## ', at + 1));
};

describe('reportMarkdown: the scenarios’ natural-language assertions', () => {
  it('counts met, not met and not judged, labelled as the judge’s opinion', () => {
    const report = reportOf(
      stamp(
        runLog(
          [
            [true, false, null],
            [true, true, true],
          ],
          'judge-m',
        ),
      ),
      POLICIES,
    );
    expect(section(reportMarkdown(report, 'Run'))).toBe(
      `## Assertions (the judge's opinion)

The judge model's opinion (judge-m), not a verdict: it makes no dialogue pass or fail and is not in the pass rate. An assertion not judged (no judge model, an error, no answer) is never counted as met.

| Opinion | Assertions |
| --- | --- |
| Met | 4 |
| Not met | 1 |
| Not judged | 1 |
`,
    );
  });

  it('counts every assertion of a run without a judge as not judged', () => {
    const report = reportOf(stamp(runLog([[null, null, null]])), POLICIES);
    const text = section(reportMarkdown(report, 'Run')) ?? '';
    expect(text).toContain("The judge model's opinion, not a verdict");
    expect(text).toContain('| Met | 0 |\n| Not met | 0 |\n| Not judged | 3 |');
  });

  it('says nothing of assertions when no scenario has any', () => {
    const plain = runLog([[]]).map((d) =>
      d.type === 'scenario'
        ? {
            ...d,
            scenario: { ...d.scenario, expected: { ...d.scenario.expected, assertions: [] } },
          }
        : d,
    );
    expect(section(reportMarkdown(reportOf(stamp(plain), POLICIES), 'Run'))).toBeNull();
  });

  it('gives the report’s own counts, whatever the opinions', () => {
    const opinions = fc.array(
      fc.array(fc.constantFrom(true, false, null), { minLength: 3, maxLength: 3 }),
      {
        minLength: 1,
        maxLength: 5,
      },
    );
    fc.assert(
      fc.property(opinions, (dialogues) => {
        const md = reportMarkdown(reportOf(stamp(runLog(dialogues, 'j')), POLICIES), 'Run');
        const all = dialogues.flat();
        const count = (v: boolean | null) => all.filter((o) => o === v).length;
        expect(section(md)).toContain(
          `| Met | ${count(true)} |\n| Not met | ${count(false)} |\n| Not judged | ${count(null)} |`,
        );
      }),
    );
  });
});
