import { diffSequences } from '../sequenceDiff.ts';
import type { Transcript, TranscriptCall, TranscriptMessage } from './transcript.ts';

/*
 * Two dialogues of one scenario side by side (two trials, two runs, or an original and its
 * continuation from a turn): their messages paired by position, and a word diff of two texts.
 */

/** One row of two dialogues side by side: the messages at one position, on each side. */
export interface AlignedRow {
  readonly a?: TranscriptMessage;
  readonly b?: TranscriptMessage;
  /** Both sides have a message, with the same speaker, words and tool calls. */
  readonly same: boolean;
}

/** Two dialogues side by side, and where they first part. */
export interface Alignment {
  readonly rows: readonly AlignedRow[];
  /** The index of the first row that is not the same; null when none is. */
  readonly firstParting: number | null;
}

/** One piece of a word diff: in both texts, only in the first, or only in the second. */
export interface WordSegment {
  readonly kind: 'same' | 'removed' | 'added';
  readonly text: string;
}

/**
 * Past this many words on a side, `diffWords` gives up on a word diff (quadratic in the words)
 * and shows the whole of one text removed and the whole of the other added.
 */
export const DIFF_WORD_CAP = 2000;

/** Plain-JSON equality, whatever the key order. */
function sameValue(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
  if (Array.isArray(x) !== Array.isArray(y)) return false;
  const xs = x as Record<string, unknown>;
  const ys = y as Record<string, unknown>;
  const keys = Object.keys(xs);
  return (
    keys.length === Object.keys(ys).length &&
    keys.every((k) => Object.hasOwn(ys, k) && sameValue(xs[k], ys[k]))
  );
}

/** The same tool, arguments, guard decision and result (the call's id and turn aside). */
function sameCall(x: TranscriptCall, y: TranscriptCall): boolean {
  return (
    x.tool === y.tool &&
    sameValue(x.args, y.args) &&
    sameValue(x.guard, y.guard) &&
    sameValue(x.result, y.result)
  );
}

function sameMessage(x: TranscriptMessage, y: TranscriptMessage): boolean {
  return (
    x.speaker === y.speaker &&
    x.text === y.text &&
    x.calls.length === y.calls.length &&
    x.calls.every((call, i) => {
      const other = y.calls[i];
      return other !== undefined && sameCall(call, other);
    })
  );
}

/**
 * Pairs two dialogues' messages by position (the first with the first, and so on; the longer
 * one's rest on its side alone), marking each pair the same or not, and where they first part.
 */
export function alignDialogues(a: Transcript, b: Transcript): Alignment {
  const rows: AlignedRow[] = [];
  let firstParting: number | null = null;
  const length = Math.max(a.messages.length, b.messages.length);
  for (let i = 0; i < length; i++) {
    const left = a.messages[i];
    const right = b.messages[i];
    const same = left !== undefined && right !== undefined && sameMessage(left, right);
    if (!same && firstParting === null) firstParting = i;
    rows.push({ ...(left && { a: left }), ...(right && { b: right }), same });
  }
  return { rows, firstParting };
}

/** Words and the whitespace between them, in order: joined, they give the text back. */
const tokens = (text: string): string[] => text.match(/\s+|\S+/g) ?? [];
const isSpace = (token: string): boolean => /^\s/.test(token);

/**
 * A word-level diff of two texts (longest common subsequence over words and the whitespace
 * between them): the `same` and `removed` pieces joined give `a`, the `same` and `added` pieces
 * give `b`. Past `DIFF_WORD_CAP` words on a side it gives the whole of `a` removed and the whole
 * of `b` added instead of going quadratic.
 */
export function diffWords(a: string, b: string): WordSegment[] {
  const x = tokens(a);
  const y = tokens(b);
  const words = (ts: readonly string[]) => ts.filter((t) => !isSpace(t)).length;
  const steps = diffSequences(
    x,
    y,
    (xs, ys) => words(xs) > DIFF_WORD_CAP || words(ys) > DIFF_WORD_CAP,
  );
  return tidy(
    steps.map((step) =>
      step.kind === 'added'
        ? { kind: 'added', text: y[step.b] ?? '' }
        : { kind: step.kind, text: x[step.a] ?? '' },
    ),
  );
}

/**
 * Reads well: empty pieces dropped, whitespace alone between two changes folded into them, and
 * each run of changes given as its removed words, then its added words.
 */
function tidy(segments: readonly WordSegment[]): WordSegment[] {
  const pieces = segments.filter((s) => s.text !== '');
  const out: WordSegment[] = [];
  let removed = '';
  let added = '';
  const flush = () => {
    if (removed !== '') out.push({ kind: 'removed', text: removed });
    if (added !== '') out.push({ kind: 'added', text: added });
    removed = '';
    added = '';
  };
  pieces.forEach((s, k) => {
    const changing = removed !== '' || added !== '';
    const between =
      s.kind === 'same' &&
      changing &&
      isSpace(s.text) &&
      pieces[k + 1] !== undefined &&
      pieces[k + 1]?.kind !== 'same';
    if (s.kind === 'removed' || between) removed += s.text;
    if (s.kind === 'added' || between) added += s.text;
    if (s.kind !== 'same' || between) return;
    flush();
    const last = out.at(-1);
    if (last?.kind === 'same') out[out.length - 1] = { kind: 'same', text: last.text + s.text };
    else out.push(s);
  });
  flush();
  return out;
}
