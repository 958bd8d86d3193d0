import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Draft } from '../testing/reportLogs.ts';
import { POLICIES, dialogue, ok, stamp, start } from '../testing/reportLogs.ts';
import { testScenario } from '../testing/scenarios.ts';
import { dialogueMarkdown } from './dialogueExport.ts';
import type { SimEvent } from './events.ts';
import { readLog } from './logFormat.ts';
import { replayOf } from './replay.ts';
import { reportOf } from './report.ts';
import { reportMarkdown } from './reportText.ts';

const TEXTS = ['The agent refuses.', 'The agent offers a return.'];
const IDS = TEXTS.map((_, i) => `expected.assertions[${i}]`);

/** A run of one tau-style scenario, two dialogues, the judge's opinion on both assertions. */
const RUN: Draft[] = [
  { ...start, models: { agent: 'a', judge: 'j' } },
  {
    type: 'scenario',
    source: 'hand-written',
    scenario: testScenario({
      id: 'tau',
      policies: [],
      expected: { assertions: TEXTS.map((text) => ({ text })) },
    }),
  },
  ...['tau#1', 'tau#2'].flatMap((id, t) => [
    ...dialogue(id, 'tau', t, { end: 'user-done', findings: [ok('c1')] }),
    ...TEXTS.map((text, i): Draft => ({
      type: 'assertion',
      dialogue: id,
      id: IDS[i] ?? '',
      text,
      met: i === 0,
      reason: 'Because.',
      evidence: '',
    })),
  ]),
];

/** A person's mark on the judge's opinion of assertion `i` of `dialogueId`. */
const mark = (dialogueId: string, i: number, correct: boolean | null): Draft => ({
  type: 'mark',
  dialogue: dialogueId,
  target: { kind: 'assertion', id: IDS[i] ?? '' },
  correct,
});

describe('people’s marks on the judge’s opinion of an assertion', () => {
  it('are kept per assertion, the latest standing, and a null takes one back', () => {
    const events = stamp([
      ...RUN,
      mark('tau#1', 0, false),
      mark('tau#1', 0, true),
      mark('tau#1', 1, false),
      mark('tau#1', 1, null),
      mark('tau#2', 1, false),
      // A mark on a policy of the same name is another target.
      {
        type: 'mark',
        dialogue: 'tau#1',
        target: { kind: 'judge', policy: IDS[1] ?? '' },
        correct: true,
      },
    ]);
    const replay = replayOf(events, 'tau#1');
    expect([...replay.marks.assertions]).toEqual([[IDS[0], true]]);
    expect([...replay.marks.judge]).toEqual([[IDS[1], true]]);
    expect([...replayOf(events, 'tau#2').marks.assertions]).toEqual([[IDS[1], false]]);
  });

  it('are counted in the report apart from the marks on policies, and never change a verdict', () => {
    const plain = reportOf(stamp(RUN), POLICIES);
    const marked = reportOf(
      stamp([...RUN, mark('tau#1', 0, true), mark('tau#2', 1, false), mark('tau#2', 0, true)]),
      POLICIES,
    );
    expect(marked.judgeOpinion.people).toMatchObject({
      judgeMarked: 0,
      findingsMarked: 0,
      assertionsMarked: 3,
      assertionsRight: 2,
    });
    expect(marked.dialogues.map((d) => d.verdict)).toEqual(plain.dialogues.map((d) => d.verdict));
    expect(marked.judgeOpinion.assertions).toEqual(plain.judgeOpinion.assertions);
    expect(reportMarkdown(marked, 'Run')).toContain(
      'People reviewing these opinions in Replay found the judge right 2 of 3 times.',
    );
    expect(reportMarkdown(plain, 'Run')).not.toContain('People reviewing');
  });

  it('are said in a dialogue’s export', () => {
    const events = stamp([...RUN, mark('tau#1', 1, false)]);
    expect(dialogueMarkdown(events, 'tau#1')).toContain(
      '- The judge’s opinion of assertion expected.assertions\\[1\\]: a person marked it wrong.',
    );
  });

  it('pass the log reader, and a mark without the assertion’s id is refused in words', () => {
    const events = stamp([...RUN, mark('tau#1', 0, true)]);
    expect(readLog(events).ok).toBe(true);
    const broken: SimEvent = {
      type: 'mark',
      at: 999,
      dialogue: 'tau#1',
      target: { kind: 'assertion' } as unknown as { kind: 'assertion'; id: string },
      correct: true,
    };
    const read = readLog([...events, broken]);
    expect(read.ok ? '' : read.error).toContain('"target" lacks "id"');
  });

  it('fold to the latest mark per assertion, whatever the order of marks', () => {
    const marks = fc.array(
      fc.record({
        dialogue: fc.constantFrom('tau#1', 'tau#2'),
        i: fc.constantFrom(0, 1),
        correct: fc.constantFrom(true, false, null),
      }),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(marks, (given) => {
        const events = stamp([...RUN, ...given.map((m) => mark(m.dialogue, m.i, m.correct))]);
        const latest = new Map<string, boolean | null>();
        for (const m of given) latest.set(`${m.dialogue} ${m.i}`, m.correct);
        for (const id of ['tau#1', 'tau#2']) {
          const expected = [0, 1].flatMap((i) => {
            const c = latest.get(`${id} ${i}`);
            return c === undefined || c === null ? [] : [[IDS[i], c]];
          });
          const got = [...replayOf(events, id).marks.assertions].sort(([a], [b]) =>
            a.localeCompare(b),
          );
          expect(got).toEqual(expected);
        }
        const standing = [...latest.values()].filter((c) => c !== null);
        expect(reportOf(events, POLICIES).judgeOpinion.people).toMatchObject({
          assertionsMarked: standing.length,
          assertionsRight: standing.filter((c) => c).length,
        });
      }),
    );
  });
});
