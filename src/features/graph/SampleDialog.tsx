import { useMemo, useState } from 'react';
import type { PolicyGraph, SampleReport } from '../../core/index.ts';
import { sampleWithReport } from '../../core/index.ts';
import { useAppStoreApi } from '../../state/useAppStore.ts';
import { Dialog } from '../../ui/Dialog.tsx';

const MAX_COUNT = 200;

/**
 * A preview of what the simulation will test: policy combinations sampled from the graph by a
 * seeded weighted walk, with levels (summed challenge) balanced over the band chosen here.
 */
export function SampleDialog({ graph, onClose }: { graph: PolicyGraph; onClose: () => void }) {
  const store = useAppStoreApi();
  const [seed, setSeed] = useState(1);
  const [count, setCount] = useState(12);
  const [min, setMin] = useState(4);
  const [max, setMax] = useState(8);
  const [preferUncovered, setPreferUncovered] = useState(true);

  const result = useMemo((): SampleReport | { error: string } => {
    try {
      return sampleWithReport(graph, {
        seed,
        count: Math.min(MAX_COUNT, Math.max(0, Math.floor(count))),
        levels: { min, max },
        preferUncovered,
      });
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  }, [graph, seed, count, min, max, preferUncovered]);

  const number = (value: string, fallback: number) => {
    const n = Number(value);
    return Number.isFinite(n) ? n : fallback;
  };

  return (
    <Dialog open title="Sample policy combinations" onClose={onClose} wide>
      <p className="sample-help" id="sample-level-help">
        A sample’s <strong>level</strong> is the sum of its policies’ challenges (each 1–5, set in
        policies.yaml): three policies of challenge 2, 3 and 4 make level 9. The higher the level,
        the more, or the harder, the policies one conversation has to keep at once.
      </p>
      <form
        className="sample-form"
        onSubmit={(e) => {
          e.preventDefault();
        }}
      >
        <label>
          Seed
          <input
            aria-label="Seed"
            type="number"
            value={seed}
            onChange={(e) => {
              setSeed(number(e.target.value, seed));
            }}
          />
        </label>
        <label>
          Samples
          <input
            type="number"
            aria-label="Number of samples"
            min={1}
            max={MAX_COUNT}
            value={count}
            onChange={(e) => {
              setCount(number(e.target.value, count));
            }}
          />
        </label>
        <label>
          Levels (sums of challenges) from
          <input
            type="number"
            aria-describedby="sample-level-help"
            min={1}
            value={min}
            onChange={(e) => {
              setMin(number(e.target.value, min));
            }}
          />
        </label>
        <label>
          to
          <input
            type="number"
            min={1}
            value={max}
            onChange={(e) => {
              setMax(number(e.target.value, max));
            }}
          />
        </label>
        <label className="graph-check">
          <input
            type="checkbox"
            checked={preferUncovered}
            onChange={(e) => {
              setPreferUncovered(e.target.checked);
            }}
          />
          Favour policies not yet covered
        </label>
      </form>
      {'error' in result ? (
        <p role="alert">{result.error}</p>
      ) : (
        <>
          {result.unreachable.length > 0 && (
            <p className="sample-note">
              {result.unreachable
                .map(
                  (u) =>
                    `${u.from === u.to ? `Level ${u.from}` : `Levels ${u.from}–${u.to}`}: ${u.reason}`,
                )
                .join(' ')}
            </p>
          )}
          <ol className="sample-list" aria-label="Samples">
            {result.samples.map((sample, i) => (
              <li key={i}>
                <button
                  type="button"
                  className="sample-item"
                  title="Show these policies on the graph"
                  onClick={() => {
                    store.getState().highlightPolicies(sample.policies);
                    onClose();
                  }}
                >
                  <span
                    className="sample-level"
                    title={`Level ${sample.level}: the sum of these policies’ challenges`}
                  >
                    level {sample.level}
                  </span>
                  <span>{sample.policies.join(' · ')}</span>
                </button>
              </li>
            ))}
          </ol>
        </>
      )}
    </Dialog>
  );
}
