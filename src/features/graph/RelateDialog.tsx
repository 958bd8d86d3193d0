import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { AssistEstimateLine, AssistProgress, AssistSpentLine } from '../assist/AssistCost.tsx';

const count = (n: number) => n.toLocaleString('en-US');

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
        !running &&
        (plan.pairs === 0 ? (
          <p aria-label="Estimate">Every pair is rated: nothing to ask.</p>
        ) : (
          <AssistEstimateLine
            doing={`To rate ${count(plan.pairs)} pair${plan.pairs === 1 ? '' : 's'}`}
            estimate={plan.estimate}
          />
        ))
      )}
      {running && (
        <AssistProgress
          done={job.done}
          total={job.total}
          unit="call"
          onStop={() => {
            store.getState().stopRelations();
          }}
        />
      )}
      {job && !running && job.spent && (
        <div role="status" aria-label="Rating result">
          <AssistSpentLine spent={job.spent} stopped={job.stopped} free={job.free} />
          <p>
            Wrote {count(job.written)} relation{job.written === 1 ? '' : 's'}
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
      {!running && (
        <p>
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
        </p>
      )}
    </Dialog>
  );
}
