import { useCallback, useState } from 'react';
import type { RelationOrigin } from '../../core/index.ts';
import { edgeStyle } from '../../core/index.ts';
import { selectEffectiveTheme } from '../../state/selectors.ts';
import { useAppStore } from '../../state/useAppStore.ts';

const EDGE_KINDS: readonly [RelationOrigin, string][] = [
  ['manual', 'written by hand'],
  ['model', 'by a model'],
  ['heuristic', 'heuristic (computed)'],
];

/**
 * The legend: one entry per category (click to hide or show its policies) and the three kinds of
 * edge. It doubles as the category filter.
 */
export function GraphLegend({
  categories,
  colourOf,
  byResults = false,
}: {
  categories: readonly string[];
  colourOf: (category: string) => string;
  /** The nodes are coloured by a run's failure rates (scale in the toolbar), not by category. */
  byResults?: boolean;
}) {
  const hidden = useAppStore((s) => s.graphFilters.hiddenCategories);
  const setFilters = useAppStore((s) => s.setGraphFilters);
  const theme = useAppStore(selectEffectiveTheme);
  // Folded at first on a narrow pane, where it would cover much of the graph.
  const [open, setOpen] = useState<boolean | null>(null);
  const measure = useCallback((element: HTMLElement | null) => {
    const width = element?.parentElement?.clientWidth ?? 0;
    setOpen((current) => current ?? width > 640);
  }, []);
  if (categories.length === 0) return null;
  return (
    <section ref={measure} className="graph-legend" aria-label="Legend">
      <button
        type="button"
        className="legend-toggle"
        aria-expanded={open === true}
        onClick={() => {
          setOpen(!open);
        }}
      >
        Legend {open ? '▾' : '▸'}
      </button>
      {open && (
        <>
          {byResults && (
            <p className="legend-note">
              Colour: failure rate in the chosen run (scale above). Categories:
            </p>
          )}
          <ul className={byResults ? 'legend-categories is-plain' : 'legend-categories'}>
            {categories.map((category) => {
              const off = hidden.includes(category);
              return (
                <li key={category}>
                  <button
                    type="button"
                    className={off ? 'legend-item is-off' : 'legend-item'}
                    aria-pressed={!off}
                    title={off ? `Show ${category} policies` : `Hide ${category} policies`}
                    onClick={() => {
                      setFilters({
                        hiddenCategories: off
                          ? hidden.filter((c) => c !== category)
                          : [...hidden, category],
                      });
                    }}
                  >
                    {!byResults && (
                      <span className="legend-swatch" style={{ background: colourOf(category) }} />
                    )}
                    {category}
                  </button>
                </li>
              );
            })}
          </ul>
          <ul className="legend-edges" aria-label="Edges">
            {EDGE_KINDS.map(([origin, words]) => {
              const { color, opacity, dash } = edgeStyle(origin, theme);
              return (
                <li key={origin}>
                  <svg width="24" height="8" aria-hidden="true">
                    <line
                      x1="0"
                      y1="4"
                      x2="24"
                      y2="4"
                      stroke={color}
                      strokeOpacity={opacity}
                      strokeWidth={2}
                      strokeDasharray={dash}
                    />
                  </svg>
                  {words}
                </li>
              );
            })}
            <li className="legend-note">
              Thicker edges: more likely to meet. Bigger nodes: harder.
            </li>
          </ul>
        </>
      )}
    </section>
  );
}
