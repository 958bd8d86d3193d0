import type { PassRate, RunReport, TerminationReason } from '../../../core/index.ts';

type LevelReport = RunReport['byLevel'][number];
type PassHatK = RunReport['passHatK'][number];

/*
 * The arithmetic and words behind the report's charts and sortable tables, kept out of the
 * components so they can be tested without a page.
 */

/** A linear map from `domain` onto `range`; a domain of one point maps to the range's start. */
export function linearScale(
  domain: readonly [number, number],
  range: readonly [number, number],
): (x: number) => number {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0;
  return (x) => (span === 0 ? r0 : r0 + ((x - d0) / span) * (r1 - r0));
}

/** A rate as a whole percentage for a chart's words: "50%", or "no rate" when nothing is judged. */
export function wholePercent(rate: number): string {
  return Number.isFinite(rate) ? `${Math.round(rate * 100)}%` : 'no rate';
}

function judged(rate: PassRate): string {
  return `${rate.passes} of ${rate.passes + rate.fails}`;
}

function intervalWords(rate: PassRate): string {
  return rate.passes + rate.fails === 0
    ? 'nothing judged'
    : `95% interval ${Math.round(rate.low * 100)} to ${Math.round(rate.high * 100)}%`;
}

/** What the level chart shows, in words, for its aria-label: every level's rate and interval. */
export function levelChartLabel(levels: readonly LevelReport[]): string {
  const parts = levels.map(
    (l) =>
      `level ${l.level ?? 'unknown'}: ${wholePercent(l.rate)} (${judged(l)} passed, ${intervalWords(l)})`,
  );
  return `Pass rate by challenge level. ${parts.join('; ')}.`;
}

/** What the pass^k chart shows, in words: the chance that all k trials of a scenario pass. */
export function passHatKLabel(points: readonly PassHatK[]): string {
  const parts = points.map(
    (p) => `k=${p.k}: ${wholePercent(p.value)} over ${p.scenarios} scenarios`,
  );
  return `pass^k, the share of scenarios whose first k trials all passed. ${parts.join('; ')}.`;
}

/** Which way a table is sorted. */
export type SortDirection = 'ascending' | 'descending';

/**
 * Rows sorted by a key, in a direction; ties keep their order. Rows whose key is NaN (nothing
 * judged) go last either way, so an empty rate never reads as the best or the worst.
 */
export function sortRows<T>(
  rows: readonly T[],
  key: (row: T) => number | string,
  direction: SortDirection,
): T[] {
  const sign = direction === 'ascending' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, value: key(row) }))
    .sort((a, b) => {
      const aNaN = typeof a.value === 'number' && Number.isNaN(a.value);
      const bNaN = typeof b.value === 'number' && Number.isNaN(b.value);
      if (aNaN !== bNaN) return aNaN ? 1 : -1;
      if (aNaN && bNaN) return a.index - b.index;
      const order =
        typeof a.value === 'number' && typeof b.value === 'number'
          ? a.value - b.value
          : String(a.value).localeCompare(String(b.value));
      return order * sign || a.index - b.index;
    })
    .map((entry) => entry.row);
}

/** Which column a table is sorted by, and which way. */
export interface SortState<K extends string> {
  readonly key: K;
  readonly direction: SortDirection;
}

/**
 * The sort after a click on `key`'s header: the other way round when it is already sorted by it;
 * otherwise by it, names A to Z and numbers highest first.
 */
export function nextSort<K extends string>(current: SortState<K> | null, key: K): SortState<K> {
  if (current?.key !== key) return { key, direction: key === 'name' ? 'ascending' : 'descending' };
  return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
}

/** How the finished dialogues ended, by cause, most common first: the agent's endings and errors. */
export function endingCounts(
  dialogues: readonly { readonly ending: TerminationReason | null; readonly verdict: string }[],
): { reason: TerminationReason; count: number; errors: number }[] {
  const counts = new Map<TerminationReason, { count: number; errors: number }>();
  for (const d of dialogues) {
    if (d.ending === null) continue;
    const entry = counts.get(d.ending) ?? { count: 0, errors: 0 };
    entry.count += 1;
    if (d.verdict === 'error') entry.errors += 1;
    counts.set(d.ending, entry);
  }
  return [...counts]
    .map(([reason, c]) => ({ reason, ...c }))
    .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
}
