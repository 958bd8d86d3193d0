import { graphSelectors } from '../../state/graphSelectors.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';

/** While policies.yaml does not parse, says that the graph is the one it last parsed to, and why. */
export function GraphStaleNote() {
  const stale = useAppStore(graphSelectors(useAppStoreApi()).selectGraphStale);
  const revealAt = useAppStore((s) => s.revealAt);
  if (!stale) return null;
  return (
    <div className="graph-stale" role="status" data-testid="graph-stale">
      <span>
        policies.yaml does not parse (line {stale.line}): this is the graph as it last parsed.
      </span>
      <button
        type="button"
        className="button button-quiet"
        onClick={() => {
          revealAt('policies.yaml', stale.line, stale.column, true);
        }}
      >
        Show the line
      </button>
    </div>
  );
}
