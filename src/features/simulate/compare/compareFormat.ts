import type { Change, RateDifference } from '../../../core/index.ts';

/** The word a comparison row is given. */
export const CHANGE_WORDS: Readonly<Record<Change, string>> = {
  better: 'better',
  worse: 'worse',
  same: 'within noise',
  untested: 'not tested in both',
};

const points = (share: number) => {
  const n = Math.round(share * 100);
  return `${n > 0 ? '+' : n < 0 ? '−' : '±'}${Math.abs(n)}`;
};

/** "+25 points (95% CI −10 to +60)", or a dash when either side has nothing judged. */
export function differenceText(difference: RateDifference): string {
  if (Number.isNaN(difference.delta)) return '–';
  return `${points(difference.delta)} points (95% CI ${points(difference.low)} to ${points(difference.high)})`;
}
