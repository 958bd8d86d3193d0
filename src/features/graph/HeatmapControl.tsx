import { heatStops, untestedColor } from '../../core/index.ts';
import type { GraphRunChoice } from '../../state/slices/graphRunSlice.ts';
import { graphRunId } from '../../state/slices/graphRunSlice.ts';
import { selectEffectiveTheme } from '../../state/selectors.ts';
import type { AppState } from '../../state/createAppStore.ts';
import { useAppStore } from '../../state/useAppStore.ts';

const NONE = 'none';
const LATEST = 'latest';

function choiceValue(s: AppState): string {
  const c = s.graphRunChoice;
  return typeof c === 'string' ? c : c.run;
}

/**
 * The toolbar's run picker: the graph coloured by each policy's failure rate in a run (the
 * project's latest by default), or by category ("none"); with the scale's legend while on.
 */
export function HeatmapControl() {
  const runs = useAppStore((s) => s.runList);
  const value = useAppStore(choiceValue);
  const shown = useAppStore(graphRunId);
  const pick = useAppStore((s) => s.pickGraphRun);
  const message = useAppStore((s) => s.graphRunMessage);
  const theme = useAppStore(selectEffectiveTheme);
  if (runs.length === 0) return null;
  const stops = heatStops(theme);
  return (
    <span className="heat-control">
      <label>
        Colour by
        <select
          aria-label="Colour policies by the results of a run"
          value={value}
          onChange={(e) => {
            const v = e.target.value;
            const choice: GraphRunChoice = v === NONE || v === LATEST ? v : { run: v };
            pick(choice);
          }}
        >
          <option value={NONE}>category</option>
          <option value={LATEST}>latest run’s results</option>
          {runs.map((r) => (
            <option key={r.id} value={r.id}>
              {r.title}
            </option>
          ))}
        </select>
      </label>
      {shown !== null && (
        <span
          className="heat-legend"
          role="img"
          aria-label="Failure rate in the run: amber none failed, red all failed; grey never tested"
          title={message ?? undefined}
        >
          <span>0%</span>
          <span
            className="heat-scale"
            style={{ background: `linear-gradient(to right, ${stops.join(', ')})` }}
          />
          <span>100% failed</span>
          <span className="heat-untested" style={{ background: untestedColor(theme) }} />
          <span>not tested</span>
        </span>
      )}
      {message && (
        <span className="heat-message" role="alert">
          {message}
        </span>
      )}
    </span>
  );
}
