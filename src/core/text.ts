/** Edit distance between two strings (Levenshtein), for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
  return editDistanceWithin(a, b, Math.max(a.length, b.length));
}

/**
 * The edit distance between `a` and `b` when it is at most `max`, otherwise `max + 1`. Gives up
 * as soon as every path through the table is already past `max`, so a hopeless pair costs little.
 */
export function editDistanceWithin(a: string, b: string, max: number): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      current[j] = value;
      if (value < rowBest) rowBest = value;
    }
    if (rowBest > max) return max + 1;
    previous = current;
  }
  return Math.min(previous[b.length] ?? 0, max + 1);
}

/** Candidates compared in full; a larger set is narrowed to this many by shared letter pairs. */
const SHORTLIST = 16;
/** Suggestions one candidate set gives; past this a check only says a name is unknown. */
export const MAX_SUGGESTIONS = 200;
/** A letter pair found in more candidates than this tells them too little apart to be read. */
const COMMON_PAIR = 2048;

/** Candidates indexed by their letter pairs, and how many suggestions they have given. */
interface SuggestionIndex {
  readonly size: number;
  readonly names: readonly string[];
  readonly lower: readonly string[];
  /** Candidate numbers by letter pair, each candidate once per pair. */
  readonly byPair: ReadonlyMap<string, readonly number[]>;
  /** Candidate numbers by length, for words too short to share a pair with a close name. */
  readonly byLength: ReadonlyMap<number, readonly number[]>;
  asked: number;
}

// A set of names is indexed once however often it is asked about (every unknown policy of a
// check asks the same set of ids); the set itself is the key, so the index goes with it.
const indexes = new WeakMap<object, SuggestionIndex>();

function pairsOf(word: string): Set<string> {
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < word.length; i++) pairs.add(word.slice(i, i + 2));
  return pairs;
}

function buildIndex(names: readonly string[]): SuggestionIndex {
  const lower = names.map((n) => n.toLowerCase());
  const byPair = new Map<string, number[]>();
  const byLength = new Map<number, number[]>();
  lower.forEach((name, i) => {
    for (const pair of pairsOf(name)) {
      const list = byPair.get(pair);
      if (list) list.push(i);
      else byPair.set(pair, [i]);
    }
    const same = byLength.get(name.length);
    if (same) same.push(i);
    else byLength.set(name.length, [i]);
  });
  return { size: names.length, names, lower, byPair, byLength, asked: 0 };
}

function indexOf(candidates: Iterable<string>): SuggestionIndex {
  const keyed = candidates instanceof Set || Array.isArray(candidates);
  const size = candidates instanceof Set ? candidates.size : (candidates as string[]).length;
  const cached = keyed ? indexes.get(candidates) : undefined;
  if (cached && cached.size === size) return cached;
  const index = buildIndex([...candidates]);
  if (keyed) indexes.set(candidates, index);
  return index;
}

/**
 * The few candidates worth a full comparison with `word`, in their original order. A name within
 * `limit` edits of a word of four letters or more shares at least one letter pair with it, so the
 * candidates sharing the most pairs are the likely typos; shorter words look at names of a
 * similar length.
 */
function shortlist(index: SuggestionIndex, word: string, limit: number): number[] {
  if (index.size <= SHORTLIST) return index.names.map((_, i) => i);
  const fits = (i: number) => Math.abs((index.lower[i] ?? '').length - word.length) <= limit;
  if (word.length <= 3) {
    const near: number[] = [];
    for (let length = word.length - limit; length <= word.length + limit; length++)
      for (const i of index.byLength.get(length) ?? []) {
        if (near.length >= SHORTLIST * 8) break;
        near.push(i);
      }
    return near.sort((a, b) => a - b);
  }
  const shared = new Map<number, number>();
  for (const pair of pairsOf(word)) {
    const list = index.byPair.get(pair) ?? [];
    if (list.length > COMMON_PAIR) continue;
    for (const i of list) if (fits(i)) shared.set(i, (shared.get(i) ?? 0) + 1);
  }
  return [...shared]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, SHORTLIST)
    .map(([i]) => i)
    .sort((a, b) => a - b);
}

/**
 * The candidate closest to `word`, if it is close enough to be a likely typo (at most a third of
 * the word's length away, and at least one letter). Bounded however many candidates there are:
 * a large set is indexed once by letter pairs, only a short list of it is compared in full, and
 * one set gives at most `MAX_SUGGESTIONS` suggestions. A Set or array is remembered by identity,
 * so pass one made for the check at hand (as the reference checkers do): a set kept for the life
 * of the page would stop suggesting once it had given that many.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const index = indexOf(candidates);
  if (index.size === 0 || index.asked >= MAX_SUGGESTIONS) return undefined;
  index.asked++;
  const lowerWord = word.toLowerCase();
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const i of shortlist(index, lowerWord, limit)) {
    const distance = editDistanceWithin(lowerWord, index.lower[i] ?? '', bestDistance - 1);
    if (distance < bestDistance) {
      best = index.names[i];
      bestDistance = distance;
      if (distance === 0) return undefined;
    }
  }
  return best;
}

/** The words of a text, lower-cased, for similarity measures. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/** A message set in parentheses inside a sentence: its own closing period dropped, so no ".)." */
export function aside(message: string): string {
  return `(${message.trim().replace(/\.+$/, '')})`;
}
