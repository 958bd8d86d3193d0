import { replaySelectors } from '../../state/replaySelectors.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';

/** While a dialogue is replayed: what the lit nodes mean, and a way to stop lighting them. */
export function GraphReplayBanner() {
  const selectors = replaySelectors(useAppStoreApi());
  const light = useAppStore(selectors.selectGraphLight);
  const step = useAppStore(selectors.selectStep);
  const setLights = useAppStore((s) => s.setReplayLightsGraph);
  if (!light) return null;
  const broken = [...light.breached];
  const lit = [...light.lit].filter((p) => !light.breached.has(p));
  return (
    <div className="graph-replay-banner" role="status" data-testid="graph-replay">
      <span>
        Replaying <strong>{light.dialogue}</strong>, step {step + 1}: {light.inPlay.size} under test
        {lit.length > 0 && <> · concerned here: {lit.join(', ')}</>}
        {broken.length > 0 && (
          <span className="legend-swatch-breached"> · broken here: {broken.join(', ')}</span>
        )}
      </span>
      <button
        type="button"
        className="button button-quiet"
        onClick={() => {
          setLights(false);
        }}
      >
        Unlight
      </button>
    </div>
  );
}
