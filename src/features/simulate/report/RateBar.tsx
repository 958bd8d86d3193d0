import type { PassRate } from '../../../core/index.ts';

/** A small bar of a pass rate with its 95% interval drawn across it; nothing when nothing was judged. */
export function RateBar({ rate }: { rate: PassRate }) {
  if (rate.passes + rate.fails === 0) return null;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return (
    <svg className="rate-bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
      <rect className="rate-bar-track" x="0" y="2" width="100" height="6" rx="1" />
      <rect className="rate-bar-fill" x="0" y="2" width={rate.rate * 100} height="6" rx="1" />
      <line
        className="rate-bar-interval"
        data-low={pct(rate.low)}
        data-high={pct(rate.high)}
        x1={rate.low * 100}
        x2={rate.high * 100}
        y1="5"
        y2="5"
      />
    </svg>
  );
}
