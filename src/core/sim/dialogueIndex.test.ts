import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SimEvent, TerminationReason } from './events.ts';
import type { DialogueFilter, DialogueRow } from './dialogueIndex.ts';
import { dialogueIndex, filterChoices, filterDialogues } from './dialogueIndex.ts';
import { reportOf } from './report.ts';
import type { PolicyFacts, Verdict } from './reportTypes.ts';
import type { Draft } from '../testing/reportLogs.ts';
import { POLICIES, broke, dialogue, ok, scenario, stamp, start } from '../testing/reportLogs.ts';
import { REFUND_PLAN, mini, refundJudge, simulateRefunds } from '../../test/refundDesk.ts';

const MINI_FACTS: PolicyFacts = new Map(
  mini.policies.map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
);

/** Three scenarios: a pass the judge disputes, a guard refusal, an out-of-play breach, an error. */
const HAND_MADE = stamp([
  start,
  scenario('s1', ['confirm-cancel', 'privacy']),
  scenario('s2', ['refund-window']),
  ...dialogue('d1', 's1', 0, {
    end: 'user-done',
    findings: [ok('no-pii', 'privacy')],
    judge: [{ policy: 'privacy', violated: true }],
  }),
  ...dialogue('d2', 's1', 1, {
    refuse: { rule: 'cancel-needs-yes', policy: 'confirm-cancel', turn: 1 },
    end: 'guard-end',
    findings: [broke('later', 'privacy', 5)],
  }),
  ...dialogue('d3', 's2', 0, { end: 'user-done', findings: [broke('ask', 'ask-consent')] }),
  ...dialogue('d4', 's2', 1, { end: 'provider-error', findings: [] }),
]);

const index = (events: SimEvent[], facts: PolicyFacts = POLICIES) =>
  dialogueIndex(events, reportOf(events, facts), facts);

describe('dialogueIndex', () => {
  it('lists a real run’s dialogues with verdicts, breaches, the judge and searchable text', async () => {
    const { events } = await simulateRefunds({
      ...REFUND_PLAN,
      judge: { engine: refundJudge, model: 'judge-model' },
    });
    const rows = index(events, MINI_FACTS);
    expect(
      rows.map((r) => [r.dialogue, r.verdict, r.breached, r.firstBreachTurn, r.judgeViolated]),
    ).toEqual([
      ['fresh#1', 'pass', [], null, []],
      ['fresh#2', 'pass', [], null, []],
      ['late#1', 'fail', ['refund-window'], 2, ['refund-window']],
      ['late#2', 'fail', ['refund-window'], 2, ['refund-window']],
    ]);
    const late = rows[2];
    expect(late).toMatchObject({
      scenario: 'late',
      trial: 0,
      ending: 'user-done',
      endingRole: null,
      policies: ['refund-window'],
      categories: ['refunds'],
      judgeDisagrees: false,
      messages: 5,
    });
    // Its words, the tools it called and their arguments, lowercased.
    expect(late?.search).toContain('refund order o2. i am u1.');
    expect(late?.search).toContain('refund_order');
    expect(late?.search).toContain('"order_id":"o2"');
  });

  it('takes disagreements from the report, and categories from policies in play and breached', () => {
    const rows = index(HAND_MADE);
    expect(rows.map((r) => [r.dialogue, r.verdict, r.judgeDisagrees, r.categories])).toEqual([
      ['d1', 'pass', true, ['consent', 'privacy']],
      ['d2', 'fail', false, ['consent', 'privacy']],
      // ask-consent is not in play in s2, but breached: its category counts.
      ['d3', 'fail', false, ['consent', 'refunds']],
      ['d4', 'error', false, ['refunds']],
    ]);
    expect(rows[0]?.judgeViolated).toEqual(['privacy']);
    // The guard refusal at turn 1 comes before the failed check at turn 5.
    expect(rows[1]).toMatchObject({ breached: ['confirm-cancel', 'privacy'], firstBreachTurn: 1 });
    // A breach without a turn opens nothing.
    expect(rows[2]?.firstBreachTurn).toBeNull();
  });

  it('counts a dialogue started again from its new start only', () => {
    const events = stamp([
      start,
      scenario('s1', ['privacy']),
      { type: 'dialogue-started', dialogue: 'd1', scenario: 's1', trial: 0 },
      { type: 'message', dialogue: 'd1', turn: 0, speaker: 'user', text: 'Cut off here' },
      { type: 'run-resumed', rerun: ['d1'] },
      { type: 'dialogue-started', dialogue: 'd1', scenario: 's1', trial: 0 },
      { type: 'message', dialogue: 'd1', turn: 0, speaker: 'user', text: 'Again' },
    ]);
    expect(index(events)).toMatchObject([{ verdict: 'running', messages: 1, search: 'again' }]);
  });

  it('reads the log once, however many dialogues it has', () => {
    const drafts: Draft[] = [start, scenario('s1', ['privacy'])];
    for (let i = 0; i < 200; i++) drafts.push(...dialogue(`d${i}`, 's1', i, { end: 'user-done' }));
    const events = stamp(drafts);
    const report = reportOf(events, POLICIES);
    let reads = 0;
    const counted = new Proxy(events, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    expect(dialogueIndex(counted, report, POLICIES)).toHaveLength(200);
    expect(reads).toBe(events.length);
  });
});

const row = (over: Partial<DialogueRow>): DialogueRow => ({
  dialogue: 'd',
  scenario: 's1',
  trial: 0,
  verdict: 'pass',
  ending: 'user-done',
  endingRole: null,
  policies: [],
  breached: [],
  categories: [],
  judgeDisagrees: false,
  judgeViolated: [],
  firstBreachTurn: null,
  messages: 2,
  search: '',
  ...over,
});

const ROWS = [
  row({ dialogue: 'a', policies: ['privacy'], categories: ['privacy'], search: 'hello world' }),
  row({ dialogue: 'b', verdict: 'fail', breached: ['refund-window'], search: 'refund o2' }),
  row({ dialogue: 'c', scenario: 's2', trial: 1, ending: 'max-turns', judgeDisagrees: true }),
  row({ dialogue: 'd', verdict: 'running', ending: null, search: 'world refund' }),
];
const names = (rows: readonly DialogueRow[]) => rows.map((r) => r.dialogue);

describe('filterDialogues', () => {
  it('keeps the rows that match every field given', () => {
    const only = (filter: DialogueFilter) => names(filterDialogues(ROWS, filter));
    expect(only({ verdicts: ['fail', 'running'] })).toEqual(['b', 'd']);
    expect(only({ verdicts: [] })).toEqual([]);
    expect(only({ policy: 'privacy' })).toEqual(['a']);
    expect(only({ policy: 'refund-window' })).toEqual(['b']);
    expect(only({ category: 'privacy' })).toEqual(['a']);
    expect(only({ ending: 'max-turns' })).toEqual(['c']);
    expect(only({ scenario: 's1', trial: 0 })).toEqual(['a', 'b', 'd']);
    expect(only({ judgeDisagrees: true })).toEqual(['c']);
    expect(only({ judgeDisagrees: false })).toEqual(['a', 'b', 'd']);
    // Every word, anywhere, in any case.
    expect(only({ text: '  World   REFUND ' })).toEqual(['d']);
    expect(only({ text: 'world', verdicts: ['pass'] })).toEqual(['a']);
    expect(only({ text: '   ' })).toEqual(['a', 'b', 'c', 'd']);
    // A field cleared to undefined asks nothing.
    expect(only({ policy: undefined, verdicts: undefined })).toEqual(['a', 'b', 'c', 'd']);
  });

  it('offers the distinct values present, sorted', () => {
    expect(filterChoices(ROWS)).toEqual({
      policies: ['privacy', 'refund-window'],
      categories: ['privacy'],
      endings: ['max-turns', 'user-done'],
      scenarios: ['s1', 's2'],
      trials: [0, 1],
    });
  });
});

const VERDICTS: Verdict[] = ['pass', 'fail', 'error', 'suspect', 'running'];
const ENDINGS: TerminationReason[] = ['user-done', 'guard-end', 'max-turns', 'provider-error'];
const POOL = ['p1', 'p2', 'p3'];
const WORDS = ['refund', 'order', 'o1', 'yes'];

const anyRow: fc.Arbitrary<DialogueRow> = fc
  .record({
    scenario: fc.constantFrom('s1', 's2'),
    trial: fc.integer({ min: 0, max: 2 }),
    verdict: fc.constantFrom(...VERDICTS),
    ending: fc.option(fc.constantFrom(...ENDINGS)),
    policies: fc.subarray(POOL),
    breached: fc.subarray(POOL),
    categories: fc.subarray(['c1', 'c2']),
    judgeDisagrees: fc.boolean(),
    search: fc.array(fc.constantFrom(...WORDS)).map((w) => w.join(' ')),
  })
  .map((r) => row(r));

const FILTER_KEYS = [
  'verdicts',
  'policy',
  'category',
  'ending',
  'scenario',
  'trial',
  'judgeDisagrees',
  'text',
] as const;

/** A filter giving one to three fields, so that it often keeps several rows. */
const anyFilter: fc.Arbitrary<DialogueFilter> = fc
  .tuple(
    fc.record({
      verdicts: fc.subarray(VERDICTS),
      policy: fc.constantFrom(...POOL),
      category: fc.constantFrom('c1', 'c2'),
      ending: fc.constantFrom(...ENDINGS),
      scenario: fc.constantFrom('s1', 's2'),
      trial: fc.integer({ min: 0, max: 2 }),
      judgeDisagrees: fc.boolean(),
      text: fc
        .array(fc.constantFrom(...WORDS, 'RefUnd', 'nowhere'), { maxLength: 2 })
        .map((w) => w.join(' ')),
    }),
    fc.subarray([...FILTER_KEYS], { minLength: 1, maxLength: 3 }),
  )
  .map(([all, keys]) => Object.fromEntries(keys.map((k) => [k, all[k]])) as DialogueFilter);

describe('filterDialogues on random lists', () => {
  const rows = fc.array(anyRow, { maxLength: 30 });

  it('keeps a subsequence of the rows, and filtering again changes nothing', () => {
    fc.assert(
      fc.property(rows, anyFilter, (list, filter) => {
        const kept = filterDialogues(list, filter);
        let at = 0;
        for (const r of kept) {
          while (at < list.length && list[at] !== r) at++;
          expect(at).toBeLessThan(list.length);
          at++;
        }
        expect(filterDialogues(kept, filter)).toEqual(kept);
      }),
    );
  });

  it('keeps everything with an empty filter', () => {
    fc.assert(
      fc.property(rows, (list) => {
        expect(filterDialogues(list, {})).toEqual(list);
      }),
    );
  });

  it('applies two filters combined as one after the other', () => {
    fc.assert(
      fc.property(rows, anyFilter, anyFilter, (list, f1, f2) => {
        const both = combined(f1, f2);
        fc.pre(both !== null);
        const once = filterDialogues(list, both);
        expect(once).toEqual(filterDialogues(filterDialogues(list, f1), f2));
      }),
    );
  });
});

const SCALARS = ['policy', 'category', 'ending', 'scenario', 'trial', 'judgeDisagrees'] as const;

/**
 * One filter asking what both ask: the fields of both, a verdict in both lists, the words of
 * both texts. Null where both give one single-valued field different values (no one filter says
 * "this policy and that one").
 */
function combined(a: DialogueFilter, b: DialogueFilter): DialogueFilter | null {
  if (SCALARS.some((k) => a[k] !== undefined && b[k] !== undefined && a[k] !== b[k])) return null;
  const { verdicts: va, text: ta } = a;
  const { verdicts: vb, text: tb } = b;
  return {
    ...a,
    ...b,
    ...(va && vb && { verdicts: va.filter((v) => vb.includes(v)) }),
    ...(ta !== undefined && tb !== undefined && { text: `${ta} ${tb}` }),
  };
}
