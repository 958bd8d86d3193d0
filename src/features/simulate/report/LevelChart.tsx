import type { RunReport } from '../../../core/index.ts';
import { levelChartLabel, linearScale, wholePercent } from './chartMath.ts';
import { CHART, RateChartFrame } from './RateChartFrame.tsx';

const { width: WIDTH, height: HEIGHT } = CHART;
const PAD = { left: 34, right: 8, top: 10, bottom: 26 };

/** Pass rate against challenge level: a bar per level with its 95% interval as a whisker. */
export function LevelChart({ levels }: { levels: RunReport['byLevel'] }) {
  if (levels.length === 0) return null;
  const label = levelChartLabel(levels);
  const y = linearScale([0, 1], [HEIGHT - PAD.bottom, PAD.top]);
  const band = (WIDTH - PAD.left - PAD.right) / levels.length;
  const barWidth = Math.min(36, band * 0.6);
  return (
    <RateChartFrame testId="level-chart" label={label} left={PAD.left} right={PAD.right} y={y}>
      {levels.map((level, i) => {
        const centre = PAD.left + band * (i + 0.5);
        const judged = level.passes + level.fails > 0;
        return (
          <g key={level.level ?? 'unknown'}>
            {judged && (
              <>
                <rect
                  className="report-chart-bar"
                  x={centre - barWidth / 2}
                  width={barWidth}
                  y={y(level.rate)}
                  height={Math.max(y(0) - y(level.rate), 0)}
                />
                <g className="report-chart-whisker">
                  <line x1={centre} x2={centre} y1={y(level.low)} y2={y(level.high)} />
                  <line x1={centre - 5} x2={centre + 5} y1={y(level.low)} y2={y(level.low)} />
                  <line x1={centre - 5} x2={centre + 5} y1={y(level.high)} y2={y(level.high)} />
                </g>
              </>
            )}
            <text className="report-chart-axis" x={centre} y={HEIGHT - 8} textAnchor="middle">
              {level.level ?? '?'} · {wholePercent(level.rate)}
            </text>
          </g>
        );
      })}
    </RateChartFrame>
  );
}
