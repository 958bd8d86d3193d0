import type { PolicyVerdict } from '../../core/index.ts';
import { graphResultsSelectors } from '../../state/graphResultsSelectors.ts';
import { graphRunId } from '../../state/slices/graphRunSlice.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';

const VERDICTS: Readonly<Record<PolicyVerdict, string>> = {
  kept: 'kept',
  broken: 'broken',
  'not-checked': 'not checked',
  error: 'error (says nothing of it)',
  suspect: 'suspect, not reviewed',
  running: 'running',
};

const percent = (x: number) => `${Math.round(x * 100)}%`;

/**
 * A policy's results in the run the graph shows, as the run's report counts them: how many
 * dialogues tested it and broke it, the pass rate with its interval, and each dialogue that had it
 * under test with what it says of the policy, a click away from Replay.
 */
export function PolicyRunResults({ policy }: { policy: string }) {
  const store = useAppStoreApi();
  const results = useAppStore(graphResultsSelectors(store).selectGraphResults);
  const chosen = useAppStore(graphRunId);
  const anyRun = useAppStore((s) => s.runList.length > 0);
  const openReplay = useAppStore((s) => s.openReplay);
  const showPane = useAppStore((s) => s.showPane);

  if (!results) {
    return (
      <p className="policy-meta" data-testid="policy-results">
        {!anyRun
          ? 'No run of this project yet: run it from Simulate to see how the agent keeps this policy.'
          : chosen === null
            ? 'Pick a run under “Colour by” to see this policy’s results.'
            : 'Reading the run…'}
      </p>
    );
  }
  const result = results.byPolicy.get(policy);
  const tested = (result?.passes ?? 0) + (result?.fails ?? 0);
  return (
    <section
      className="policy-results"
      aria-label="Results in the run"
      data-testid="policy-results"
    >
      <h4>In {results.title}</h4>
      {result && tested > 0 ? (
        <p className="policy-meta">
          Tested in <strong data-testid="policy-tested">{tested}</strong> dialogue
          {tested === 1 ? '' : 's'}, broken in{' '}
          <strong data-testid="policy-broken">{result.fails}</strong>; pass rate{' '}
          <strong data-testid="policy-pass-rate">{percent(result.rate)}</strong> (95% interval{' '}
          {percent(result.low)}–{percent(result.high)}).
          {result.notChecked > 0 && ` Not checked in ${result.notChecked} more.`}
        </p>
      ) : (
        <p className="policy-meta">
          Not tested in this run
          {result && result.dialogues.length > 0
            ? ': it was under test, but nothing examined it or the dialogues ended in errors.'
            : '.'}
        </p>
      )}
      {result && result.dialogues.length > 0 && (
        <ul className="policy-dialogues" aria-label="Dialogues that had it under test">
          {result.dialogues.map((d) => (
            <li key={d.dialogue} data-verdict={d.verdict}>
              <button
                type="button"
                className="link-button"
                title={`Replay ${d.dialogue}`}
                onClick={() => {
                  void openReplay({ run: results.runId, dialogue: d.dialogue }).then(() => {
                    showPane('replay');
                  });
                }}
              >
                {d.dialogue}
              </button>
              <span className={`verdict-badge is-${d.verdict}`}>{VERDICTS[d.verdict]}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
