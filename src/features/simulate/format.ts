import type { PassRate } from '../../core/index.ts';

/** A rate as a whole percentage, or a dash when there is nothing to rate. */
export function percent(rate: number): string {
  return Number.isFinite(rate) ? `${Math.round(rate * 100)}%` : '–';
}

/** "95% CI 49–94%", the Wilson interval a rate was given with. */
export function rateWithInterval(rate: PassRate): string {
  if (rate.passes + rate.fails === 0) return 'nothing judged yet';
  return `95% CI ${Math.round(rate.low * 100)}–${Math.round(rate.high * 100)}%`;
}

/** "1 failure", "2 failures": a count with its noun, plural when it is not one. */
export function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
