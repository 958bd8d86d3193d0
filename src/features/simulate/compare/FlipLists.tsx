import type { Flip, RunComparison } from '../../../core/index.ts';
import { useAppStore } from '../../../state/useAppStore.ts';

const GROUPS = [
  { key: 'broke', title: 'Passed before, failed after' },
  { key: 'fixed', title: 'Failed before, passed after' },
  { key: 'erred', title: 'An error on one side (not judged there)' },
] as const;

/** The scenario trials that flipped; each opens both dialogues side by side in Replay. */
export function FlipLists({
  comparison,
  before,
  after,
}: {
  comparison: RunComparison;
  before: string;
  after: string;
}) {
  const openReplay = useAppStore((s) => s.openReplay);
  const compareReplay = useAppStore((s) => s.compareReplay);
  const showPane = useAppStore((s) => s.showPane);
  const open = async (flip: Flip) => {
    await openReplay({ run: before, dialogue: flip.before.dialogue });
    await compareReplay({ run: after, dialogue: flip.after.dialogue });
    showPane('replay');
  };
  const none = GROUPS.every((g) => comparison[g.key].length === 0);
  return (
    <section className="compare-flips" aria-label="Scenarios that flipped">
      <h3>Scenarios that flipped</h3>
      {none && <p className="simulate-faint">No scenario trial changed its verdict.</p>}
      {GROUPS.map(({ key, title }) =>
        comparison[key].length === 0 ? null : (
          <div key={key}>
            <h4>{title}</h4>
            <ul aria-label={title}>
              {comparison[key].map((flip) => (
                <li key={`${flip.scenario}#${flip.trial}`}>
                  <button
                    type="button"
                    className="link-button"
                    title="Open both dialogues side by side in Replay"
                    onClick={() => void open(flip)}
                  >
                    {flip.before.dialogue}
                    {flip.after.dialogue !== flip.before.dialogue && ` → ${flip.after.dialogue}`}
                  </button>{' '}
                  <span className="simulate-faint">
                    {flip.before.verdict} → {flip.after.verdict}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        ),
      )}
      {(comparison.onlyBefore > 0 || comparison.onlyAfter > 0) && (
        <p className="simulate-faint">
          Trials in one run only: {comparison.onlyBefore} before, {comparison.onlyAfter} after.
        </p>
      )}
    </section>
  );
}
