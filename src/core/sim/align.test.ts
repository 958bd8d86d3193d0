import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WordSegment } from './align.ts';
import { DIFF_WORD_CAP, alignDialogues, diffWords } from './align.ts';
import type { TranscriptGuard } from './transcript.ts';
import { transcriptOf } from './transcript.ts';
import { A, U, dialogue, refusedBy } from '../testing/dialogues.ts';
import { simulateRefunds } from '../../test/refundDesk.ts';

describe('alignDialogues', () => {
  it('finds two trials of a real run the same, and two scenarios parting at the first message', async () => {
    const { events } = await simulateRefunds();
    const [fresh1, fresh2, late1] = ['fresh#1', 'fresh#2', 'late#1'].map((d) =>
      transcriptOf(events, d),
    );
    if (!fresh1 || !fresh2 || !late1) throw new Error('the run has its dialogues');
    const trials = alignDialogues(fresh1, fresh2);
    expect(trials.rows.map((r) => r.same)).toEqual([true, true, true, true, true]);
    expect(trials.firstParting).toBeNull();

    const scenarios = alignDialogues(fresh1, late1);
    // o1 against o2: the request, the refund (its arguments and guard), the report differ.
    expect(scenarios.rows.map((r) => r.same)).toEqual([false, true, false, false, true]);
    expect(scenarios.firstParting).toBe(0);
    expect(scenarios.rows[2]?.a?.calls[0]?.args).toEqual({ order_id: 'o1' });
    expect(scenarios.rows[2]?.b?.calls[0]?.args).toEqual({ order_id: 'o2' });
  });

  it('puts the rest of the longer dialogue on its side alone', () => {
    const original = dialogue([U('Cancel ABC'), A('Sure?'), U('Yes')]);
    const continued = dialogue([U('Cancel ABC'), A('Sure?'), U('Yes'), A('Done.'), U('Bye')]);
    const both = alignDialogues(original, continued);
    expect(both.rows.map((r) => [r.a?.text, r.b?.text, r.same])).toEqual([
      ['Cancel ABC', 'Cancel ABC', true],
      ['Sure?', 'Sure?', true],
      ['Yes', 'Yes', true],
      [undefined, 'Done.', false],
      [undefined, 'Bye', false],
    ]);
    expect(both.rows[3]).not.toHaveProperty('a');
    expect(both.firstParting).toBe(3);
    expect(alignDialogues(continued, original).rows[4]).not.toHaveProperty('b');
  });

  it('compares tool calls by tool, arguments, guard and result, not by id or key order', () => {
    const call = { tool: 'cancel', args: { id: 'ABC', reason: 'trip off' } };
    const base = dialogue([U('Cancel'), A('Done.', call)]);
    const compare = (other: ReturnType<typeof dialogue>) =>
      alignDialogues(base, other).firstParting;
    // The same call, its arguments written in another order and the call named otherwise.
    const reordered = dialogue([
      U('Cancel'),
      A('Done.', { tool: 'cancel', args: { reason: 'trip off', id: 'ABC' } }),
    ]);
    expect(compare({ ...reordered, messages: renamed(reordered.messages) })).toBeNull();
    expect(compare(dialogue([U('Cancel'), A('Done.', { ...call, args: { id: 'ABD' } })]))).toBe(1);
    expect(compare(dialogue([U('Cancel'), A('Done.', { ...call, tool: 'refund' })]))).toBe(1);
    expect(compare(dialogue([U('Cancel'), A('Done.', { ...call, result: '{"ok":1}' })]))).toBe(1);
    expect(compare(dialogue([U('Cancel'), A('Done.', { ...call, ok: false })]))).toBe(1);
    expect(
      compare(dialogue([U('Cancel'), A('Done.', { ...call, ...refusedBy('r', 'No.') })])),
    ).toBe(1);
    expect(compare(dialogue([U('Cancel'), A('Done.', call, call)]))).toBe(1);
    // Allowed both times, and the same result, but by a rule the second time.
    const byRule = { allowed: true, rule: 'may-cancel', policy: 'cancel-policy', reason: 'ok' };
    expect(compare({ ...base, messages: guarded(base.messages, byRule) })).toBe(1);
    expect(compare(dialogue([U('Cancel'), A('Done!', call)]))).toBe(1);
    expect(compare(dialogue([A('Cancel'), A('Done.', call)]))).toBe(0);
  });
});

/** The same messages with their calls under other ids. */
function renamed(messages: ReturnType<typeof dialogue>['messages']) {
  return messages.map((m) => ({
    ...m,
    calls: m.calls.map((c) => ({ ...c, call: `x-${c.call}` })),
  }));
}

/** The same messages with every call's guard decision replaced. */
function guarded(messages: ReturnType<typeof dialogue>['messages'], guard: TranscriptGuard) {
  return messages.map((m) => ({ ...m, calls: m.calls.map((c) => ({ ...c, guard })) }));
}

const join = (segments: readonly WordSegment[], keep: WordSegment['kind']) =>
  segments
    .filter((s) => s.kind === 'same' || s.kind === keep)
    .map((s) => s.text)
    .join('');

describe('diffWords', () => {
  it('marks the words that changed, keeping the whitespace', () => {
    expect(diffWords('Refund order o1 now.', 'Refund order o2 now.')).toEqual([
      { kind: 'same', text: 'Refund order ' },
      { kind: 'removed', text: 'o1' },
      { kind: 'added', text: 'o2' },
      { kind: 'same', text: ' now.' },
    ]);
    // Two changed words in a row read as one change, not word by word.
    expect(diffWords('I will refund it today', 'I cannot refund it, sorry')).toEqual([
      { kind: 'same', text: 'I ' },
      { kind: 'removed', text: 'will' },
      { kind: 'added', text: 'cannot' },
      { kind: 'same', text: ' refund ' },
      { kind: 'removed', text: 'it today' },
      { kind: 'added', text: 'it, sorry' },
    ]);
    expect(diffWords('a  b', 'a\nb')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: '  ' },
      { kind: 'added', text: '\n' },
      { kind: 'same', text: 'b' },
    ]);
    expect(diffWords('', 'Hello')).toEqual([{ kind: 'added', text: 'Hello' }]);
    expect(diffWords('', '')).toEqual([]);
  });

  it('gives up on a word diff past the cap, but not for a long text with a small change', () => {
    const many = (word: string) => Array.from({ length: DIFF_WORD_CAP + 1 }, () => word).join(' ');
    expect(diffWords(many('yes'), many('no'))).toEqual([
      { kind: 'removed', text: many('yes') },
      { kind: 'added', text: many('no') },
    ]);
    const long = many('word');
    expect(diffWords(`${long} yes ${long}`, `${long} no ${long}`)).toEqual([
      { kind: 'same', text: `${long} ` },
      { kind: 'removed', text: 'yes' },
      { kind: 'added', text: 'no' },
      { kind: 'same', text: ` ${long}` },
    ]);
  });

  /** Any text, or words from a few (so two texts share some) between a few kinds of space. */
  const text = fc.oneof(
    fc.string(),
    fc
      .array(
        fc.tuple(
          fc.constantFrom('refund', 'o1', 'o2', 'yes', '.', ''),
          fc.constantFrom(' ', ' ', '  ', '\n', ''),
        ),
        { maxLength: 12 },
      )
      .map((parts) => parts.flat().join('')),
  );

  it('gives back both texts, in pieces that are never empty nor split needlessly', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const segments = diffWords(a, b);
        expect(join(segments, 'removed')).toBe(a);
        expect(join(segments, 'added')).toBe(b);
        expect(segments.every((s) => s.text !== '')).toBe(true);
        segments.forEach((s, i) => {
          expect(s.kind).not.toBe(segments[i + 1]?.kind);
        });
      }),
    );
  });

  it('finds a text the same as itself', () => {
    fc.assert(
      fc.property(text, (a) => {
        expect(diffWords(a, a)).toEqual(a === '' ? [] : [{ kind: 'same', text: a }]);
      }),
    );
  });
});
