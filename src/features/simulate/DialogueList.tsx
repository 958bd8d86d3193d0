import { useState } from 'react';
import type { DialogueReport, ModelRole, RunReport } from '../../core/index.ts';
import { ENDING_LABELS } from '../../core/index.ts';
import { useAppStore } from '../../state/useAppStore.ts';
import { ReplayLink } from './ReplayLink.tsx';

/** Whose provider failed, as the dialogue list says it. */
const ROLE_NAMES: Readonly<Record<ModelRole, string>> = {
  agent: 'the agent’s',
  user: 'the simulated user’s',
  judge: 'the judge’s',
  generator: 'the generator’s',
};

/**
 * Rows drawn at first, and added per "Show more": a run of thousands of dialogues opens its report
 * at once (the Replay pane lists them all, virtualised and filtered).
 */
const PAGE = 100;

/**
 * Every dialogue of the run: its verdict, how it ended, and what broke. A dialogue the simulated
 * user probably spoiled waits for a person's review (unless the run is still going). A long run
 * shows its first rows, and more on request.
 */
export function DialogueList({
  report,
  live,
  run,
}: {
  report: RunReport;
  live: boolean;
  run: string;
}) {
  const [shown, setShown] = useState(PAGE);
  if (report.dialogues.length === 0) return null;
  const total = report.dialogues.length;
  const rows = total > shown ? report.dialogues.slice(0, shown) : report.dialogues;
  return (
    <>
      <DialogueTable rows={rows} live={live} run={run} />
      {rows.length < total && (
        <p className="simulate-faint" data-testid="dialogues-more">
          {rows.length} of {total} dialogues shown.{' '}
          <button
            type="button"
            className="button button-quiet"
            onClick={() => {
              setShown(shown + PAGE);
            }}
          >
            Show {Math.min(PAGE, total - rows.length)} more
          </button>
          <button
            type="button"
            className="button button-quiet"
            onClick={() => {
              setShown(total);
            }}
          >
            Show all {total}
          </button>{' '}
          The Replay pane lists them all, with filters.
        </p>
      )}
    </>
  );
}

function DialogueTable({
  rows,
  live,
  run,
}: {
  rows: readonly DialogueReport[];
  live: boolean;
  run: string;
}) {
  return (
    <table className="run-table" aria-label="Dialogues">
      <thead>
        <tr>
          <th scope="col">Dialogue</th>
          <th scope="col">Verdict</th>
          <th scope="col">Ended</th>
          <th scope="col">Why</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((d) => (
          <tr key={d.dialogue} data-verdict={d.verdict}>
            <th scope="row">
              <ReplayLink
                run={run}
                dialogue={d.dialogue}
                turn={d.breaches.find((b) => b.turn !== undefined)?.turn}
              >
                {d.dialogue}
              </ReplayLink>
            </th>
            <td>
              <span className="verdict" data-verdict={d.verdict}>
                {d.verdict}
              </span>
            </td>
            <td className="simulate-faint">
              {d.ending ? ENDING_LABELS[d.ending].short : '…'}
              {d.endingRole && d.ending === 'provider-error' && ` (${ROLE_NAMES[d.endingRole]})`}
            </td>
            <td className="simulate-faint">
              {d.suspect.length > 0 && <Suspicion dialogue={d} live={live} />}
              {d.verdict === 'suspect'
                ? null
                : d.verdict === 'error'
                  ? d.errorReason === d.ending
                    ? d.endingDetail
                    : `The scenario is at fault: ${d.scenarioFaults.join(' ')}`
                  : d.breaches.map((b, i) => (
                      <span key={`${b.id}-${String(i)}`} title={b.detail}>
                        {i > 0 && ', '}
                        {b.policy ??
                          (b.source === 'ending'
                            ? 'unattributed: its own output'
                            : b.source === 'assertion'
                              ? `judge’s opinion, graded: ${b.id} not met`
                              : `unattributed: ${b.id}`)}
                        {b.source === 'judge' && ' (decided by a model)'}
                        {b.turnLabel !== undefined && ` (${b.turnLabel})`}
                        {b.attempt && ' · tried, refused'}
                      </span>
                    ))}
              {d.noted.length > 0 &&
                ` · tried, refused (noted): ${d.noted.map((b) => b.policy ?? b.id).join(', ')}`}
              {d.unclear.length > 0 &&
                ` · unclear, for a person to read: ${d.unclear.map((u) => u.policy ?? u.id).join(', ')}`}
              {d.ungraded.length > 0 &&
                ` · not graded: ${d.ungraded.map((u) => u.policy ?? u.id).join(', ')}`}
              {d.judgeFailed.length > 0 &&
                ` · the judge failed on: ${d.judgeFailed.map((f) => `${f.policy} (${f.error})`).join(', ')}`}
              {d.judgeViolations.length > 0 &&
                ` · judge’s opinion: ${d.judgeViolations.map((j) => j.policy).join(', ')}`}
              {assertionNote(d.assertions)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Why the simulated user is suspect here, and the person's review (or the buttons to make it). */
function Suspicion({ dialogue, live }: { dialogue: DialogueReport; live: boolean }) {
  const review = useAppStore((s) => s.reviewDialogue);
  const readOnly = useAppStore((s) => s.readOnly);
  return (
    <div className="suspicion" data-testid="suspect">
      <span>Simulator suspect: {dialogue.suspect.join(' ')}</span>
      {dialogue.review === null ? (
        !live &&
        !readOnly && (
          <span className="suspicion-actions">
            <button
              type="button"
              className="button button-quiet"
              onClick={() => void review(dialogue.dialogue, 'counts')}
            >
              Count it
            </button>
            <button
              type="button"
              className="button button-quiet"
              onClick={() => void review(dialogue.dialogue, 'discarded')}
            >
              Discard as the simulator’s error
            </button>
          </span>
        )
      ) : (
        <span>
          {' '}
          Reviewed: {dialogue.review === 'counts' ? 'counts as judged' : 'discarded (an error)'}.
        </span>
      )}
    </div>
  );
}

/**
 * The scenario's natural-language assertions in a dialogue's row: those the judge found not to
 * hold (its opinion) and those not judged, never counted as held.
 */
function assertionNote(assertions: DialogueReport['assertions']): string {
  const unmet = assertions.filter((a) => a.opinion === 'not-met');
  const unjudged = assertions.filter((a) => a.opinion === 'not-judged').length;
  const parts = [
    ...(unmet.length > 0
      ? [`judge’s opinion, assertion not held: ${unmet.map((a) => `“${a.text}”`).join(', ')}`]
      : []),
    ...(unjudged > 0
      ? [`${String(unjudged)} assertion${unjudged === 1 ? '' : 's'} not judged`]
      : []),
  ];
  return parts.map((p) => ` · ${p}`).join('');
}
