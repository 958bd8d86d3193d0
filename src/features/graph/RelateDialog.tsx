import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import type { RelateCost } from '../../core/index.ts';
import { Dialog } from '../../ui/Dialog.tsx';

const count = (n: number) => n.toLocaleString('en-US');
const dollars = (cost: number | null) =>
  cost === null ? 'cost unknown (no price for the model)' : `$${cost.toFixed(cost < 1 ? 4 : 2)}`;
const calls = (n: number) => `${count(n)} ${n === 1 ? 'call' : 'calls'}`;

/** "34 calls · 21,000 tokens in · 18,000 out · $0.0123" */
function costLine(cost: RelateCost): string {
  return `${calls(cost.calls)} · ${count(cost.inputTokens)} tokens in · ${count(cost.outputTokens)} out · ${dollars(cost.cost)}`;
}

/**
 * "Rate relations": a model rates how likely pairs of policies meet in one conversation, one
 * policy against many per call, only pairs not rated since their policies last changed. Shows the
 * estimate before, progress and Stop while it runs, and what it spent and wrote after.
 */
export function RelateDialog({ onClose }: { onClose: () => void }) {
  const store = useAppStoreApi();
  const job = useAppStore((s) => s.relateJob);
  // Re-planned when the policies, the cache or the models change.
  useAppStore((s) => s.analysis?.model.policies);
  useAppStore((s) => s.relateCache);
  useAppStore((s) => s.modelSettings);
  const plan = store.getState().planRelations();
  const running = job?.running === true;

  return (
    <Dialog open title="Rate relations" onClose={onClose}>
      <p className="sample-help">
        A model rates how likely each pair of policies meets in one conversation (0–10). Each call
        rates one policy against many others; pairs already rated (remembered in this browser) are
        not asked again until one of their policies changes. The ratings are written to
        policies.yaml as relations with <code>origin: model</code>, as one undo step; relations
        written by hand are kept.
      </p>
      {!plan.ok ? (
        <p role="alert">{plan.message}</p>
      ) : (
        !running && (
          <p aria-label="Estimate">
            {plan.pairs === 0
              ? 'Every pair is rated: nothing to ask.'
              : `To rate ${count(plan.pairs)} pairs with ${plan.model}: about ${costLine(plan.estimate)}.`}
          </p>
        )
      )}
      {running && (
        <p role="status">
          <progress max={job.total} value={job.done} /> {count(job.done)} of {calls(job.total)}
        </p>
      )}
      {job && !running && job.spent && (
        <div role="status" aria-label="Rating result">
          <p>
            {job.stopped ? 'Stopped. ' : ''}Spent {costLine(job.spent)}
            {job.spent.failed > 0 ? ` (${count(job.spent.failed)} failed)` : ''}. Wrote{' '}
            {count(job.written)} relations
            {job.kept > 0 ? `; kept ${count(job.kept)} written by hand` : ''}.
          </p>
          {job.problems.length > 0 && (
            <ul>
              {job.problems.map((problem, i) => (
                <li key={i}>{problem}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <p>
        {running ? (
          <button
            type="button"
            className="button"
            onClick={() => {
              store.getState().stopRelations();
            }}
          >
            Stop
          </button>
        ) : (
          <button
            type="button"
            className="button"
            disabled={!plan.ok || plan.pairs === 0}
            onClick={() => {
              void store.getState().rateRelations();
            }}
          >
            Rate
          </button>
        )}
      </p>
    </Dialog>
  );
}
