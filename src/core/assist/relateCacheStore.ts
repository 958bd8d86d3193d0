import type { RelateCache, RelatePolicy, RelationRating } from './relate.ts';
import { distinctPolicies, relatePolicyKey } from './relate.ts';

/*
 * The relation ratings kept on this device between visits (docs/format.md, "Relations rated by a
 * model"): plain JSON in the preferences, read defensively, since anything may have written there.
 */

/** The preference the ratings are kept under. */
export const RELATE_CACHE_KEY = 'policylab.relateCache';

/** At most this many rated pairs are kept; the least recently rated or used go first. */
export const RELATE_CACHE_MAX_PAIRS = 20_000;

/** And at most about this many characters of JSON (preferences hold a few million in all). */
export const RELATE_CACHE_MAX_CHARS = 1_500_000;

/** A kept reason is cut here (as a written one is). */
const MAX_REASON = 300;

const PAIR_KEY = /^[0-9a-f]{16}\|[0-9a-f]{16}$/;

/** One kept rating: the pair's content key, its weight and its reason. */
type Entry = readonly [string, number, string];

/** The stored value: a version, then the ratings, oldest first. */
interface Stored {
  readonly v: 1;
  readonly pairs: readonly Entry[];
}

/** One rating read back, or undefined when anything about it is off. */
function entryOf(item: unknown): [string, RelationRating] | undefined {
  if (!Array.isArray(item) || item.length !== 3) return undefined;
  const [key, weight, reason] = item as unknown[];
  if (typeof key !== 'string' || !PAIR_KEY.test(key)) return undefined;
  if (typeof weight !== 'number' || !Number.isInteger(weight) || weight < 0 || weight > 10) {
    return undefined;
  }
  if (typeof reason !== 'string') return undefined;
  return [key, { weight, reason: reason.slice(0, MAX_REASON) }];
}

/**
 * The ratings kept in a stored value, oldest first. Anything else (nothing, broken JSON, another
 * shape, a newer version) reads as no ratings; a malformed entry is left out and the rest kept.
 * Never throws, and never keeps more than {@link RELATE_CACHE_MAX_PAIRS}.
 */
export function readRelateCache(raw: string | null): Map<string, RelationRating> {
  const cache = new Map<string, RelationRating>();
  if (raw === null || raw.length > RELATE_CACHE_MAX_CHARS * 2) return cache;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return cache;
  }
  const pairs = (value as Partial<Stored> | null)?.pairs;
  if ((value as Partial<Stored> | null)?.v !== 1 || !Array.isArray(pairs)) return cache;
  for (const item of pairs.slice(-RELATE_CACHE_MAX_PAIRS) as unknown[]) {
    const entry = entryOf(item);
    if (!entry) continue;
    cache.delete(entry[0]);
    cache.set(entry[0], entry[1]);
  }
  return cache;
}

/**
 * The ratings to keep: the stored ones (another tab's too), then this page's, then the pairs in
 * `recent` (today's policies) moved last, so the oldest unused go first; bounded to
 * {@link RELATE_CACHE_MAX_PAIRS} pairs and about {@link RELATE_CACHE_MAX_CHARS} characters.
 */
export function keptRelateCache(
  stored: RelateCache,
  cache: RelateCache,
  recent: Iterable<string> = [],
): Map<string, RelationRating> {
  const out = new Map<string, RelationRating>();
  const put = (key: string, rating: RelationRating) => {
    out.delete(key);
    out.set(key, { weight: rating.weight, reason: rating.reason.slice(0, MAX_REASON) });
  };
  for (const [key, rating] of stored) put(key, rating);
  for (const [key, rating] of cache) put(key, rating);
  for (const key of recent) {
    const rating = out.get(key);
    if (rating) put(key, rating);
  }
  let chars = 20;
  const sizes = [...out].map(([key, r]) => key.length + JSON.stringify(r.reason).length + 10);
  for (const size of sizes) chars += size;
  let drop = Math.max(0, out.size - RELATE_CACHE_MAX_PAIRS);
  for (let i = 0; i < drop; i++) chars -= sizes[i] ?? 0;
  while (chars > RELATE_CACHE_MAX_CHARS && drop < sizes.length) chars -= sizes[drop++] ?? 0;
  if (drop === 0) return out;
  return new Map([...out].slice(drop));
}

/** The stored value of ratings, oldest first (see {@link readRelateCache}). */
export function writeRelateCache(cache: RelateCache): string {
  const stored: Stored = {
    v: 1,
    pairs: [...cache].map(([key, r]) => [key, r.weight, r.reason] as const),
  };
  return JSON.stringify(stored);
}

/** The cache keys of every pair of the policies (the pairs a rating of them reads). */
export function pairKeysOf(policies: readonly RelatePolicy[]): string[] {
  const keys = distinctPolicies(policies).map(relatePolicyKey);
  const out: string[] = [];
  for (let i = 0; i < keys.length; i++) {
    for (let j = i + 1; j < keys.length; j++) {
      const x = keys[i] ?? '';
      const y = keys[j] ?? '';
      out.push(x < y ? `${x}|${y}` : `${y}|${x}`);
    }
  }
  return out;
}
