// How the bench states its figures: medians and percentiles, rounded to a tenth.

/** The value at the middle of `values` (the upper one of an even count), rounded to a tenth. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return round(sorted[Math.floor(sorted.length / 2)] ?? Number.NaN);
}

/** The value `p` percent of the way up `values` (nearest rank), rounded to a tenth. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return round(
    sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN,
  );
}

/** A number rounded to a tenth. */
export function round(n: number): number {
  return Math.round(n * 10) / 10;
}
