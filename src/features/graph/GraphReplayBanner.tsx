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
  const title = [
    `Replaying ${light.dialogue}, step ${step + 1}: ${light.inPlay.size} policies under test (ringed)`,
    ...(lit.length > 0 ? [`concerned at this step: ${lit.join(', ')}`] : []),
    ...(broken.length > 0 ? [`broken at this step: ${broken.join(', ')}`] : []),
  ].join('; ');
  return (
    <div className="graph-replay-banner" role="status" data-testid="graph-replay" title={title}>
      <span className="graph-replay-text">
        Replay, step {step + 1}
        {broken.length > 0 ? (
          <span className="legend-swatch-breached"> · broken: {broken.join(', ')}</span>
        ) : (
          lit.length > 0 && <> · {lit.join(', ')}</>
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
