import type { RunReport } from '../../../core/index.ts';
import { linearScale, passHatKLabel, wholePercent } from './chartMath.ts';
import { CHART, RateChartFrame } from './RateChartFrame.tsx';

const { width: WIDTH, height: HEIGHT } = CHART;
const PAD = { left: 34, right: 34, top: 10, bottom: 26 };

/** pass^k for k = 1..K as a curve: how fast "every trial passes" falls as trials grow. */
export function PassHatKChart({ points }: { points: RunReport['passHatK'] }) {
  const last = points[points.length - 1];
  if (!last) return null;
  const label = passHatKLabel(points);
  const x = linearScale([1, Math.max(last.k, 2)], [PAD.left + 10, WIDTH - PAD.right]);
  const y = linearScale([0, 1], [HEIGHT - PAD.bottom, PAD.top]);
  const drawn = points.filter((p) => Number.isFinite(p.value));
  return (
    <RateChartFrame testId="pass-hat-k-chart" label={label} left={PAD.left} right={PAD.right} y={y}>
      <polyline
        className="report-chart-line"
        points={drawn.map((p) => `${x(p.k)},${y(p.value)}`).join(' ')}
      />
      {drawn.map((p) => (
        <circle key={p.k} className="report-chart-dot" cx={x(p.k)} cy={y(p.value)} r={3.5} />
      ))}
      {points.map((p) => (
        <text key={p.k} className="report-chart-axis" x={x(p.k)} y={HEIGHT - 8} textAnchor="middle">
          k={p.k} · {wholePercent(p.value)}
        </text>
      ))}
    </RateChartFrame>
  );
}
