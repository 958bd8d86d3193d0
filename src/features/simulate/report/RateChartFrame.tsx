import type { ReactNode } from 'react';

/** The size every report chart is drawn at (its viewBox), and the room kept around the plot. */
export const CHART = { width: 320, height: 150 } as const;

/**
 * A report chart's frame: an accessible SVG (its numbers in words as its label and title) with
 * the 0%, 50% and 100% grid lines of a rate, `y` mapping a rate to its height. The chart draws
 * its marks as children.
 */
export function RateChartFrame({
  testId,
  label,
  left,
  right,
  y,
  children,
}: {
  testId: string;
  label: string;
  left: number;
  right: number;
  y: (rate: number) => number;
  children: ReactNode;
}) {
  return (
    <svg
      className="report-chart"
      data-testid={testId}
      role="img"
      aria-label={label}
      viewBox={`0 0 ${CHART.width} ${CHART.height}`}
    >
      <title>{label}</title>
      {[0, 0.5, 1].map((tick) => (
        <g key={tick} className="report-chart-grid">
          <line x1={left} x2={CHART.width - right} y1={y(tick)} y2={y(tick)} />
          <text x={left - 4} y={y(tick)} textAnchor="end" dominantBaseline="middle">
            {tick * 100}%
          </text>
        </g>
      ))}
      {children}
    </svg>
  );
}
