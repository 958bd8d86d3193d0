import type { RunReport } from '../../core/index.ts';
import { ENDING_LABELS, PERSON, spendingWords } from '../../core/index.ts';
import type { CurrentRun } from '../../state/slices/simulationSlice.ts';
import { DialogueList } from './DialogueList.tsx';
import { PolicyTable } from './PolicyTable.tsx';
import { UnattributedList } from './UnattributedList.tsx';
import { CategoryTable } from './report/CategoryTable.tsx';
import { EndingsTable } from './report/EndingsTable.tsx';
import { LevelChart } from './report/LevelChart.tsx';
import { ModelsCaption } from './report/ModelsCaption.tsx';
import { PassHatKChart } from './report/PassHatKChart.tsx';
import { ReportFiles } from './report/ReportFiles.tsx';
import { UsageTable } from './report/UsageTable.tsx';
import { counted, percent, rateWithInterval } from './format.ts';
import { useAppStore } from '../../state/useAppStore.ts';
import { AttackCards } from './report/AttackCards.tsx';

/** How a run is going or went: progress, pass rates with their intervals, policies, dialogues. */
export function RunReportView({ run, report }: { run: CurrentRun; report: RunReport }) {
  const { progress, overall, errors, usage } = report;
  const spent = spendingWords(usage);
  const models = report.run?.models;
  const played =
    models?.user === PERSON ? 'the customer' : models?.agent === PERSON ? 'the agent' : undefined;
  const done = progress.dialoguesEnded;
  const total = Math.max(progress.dialoguesExpected, 1);
  const state = run.live
    ? 'Running'
    : progress.ended === 'done'
      ? 'Finished'
      : progress.ended === 'cancelled'
        ? 'Stopped'
        : progress.ended === 'budget'
          ? 'Stopped: budget spent'
          : 'Interrupted';
  return (
    <section className="run-report" aria-label="Run report">
      <header className="run-header">
        <div>
          <h3>{run.title}</h3>
          <span className="simulate-faint">
            {state} · {done} of {progress.dialoguesExpected} dialogues
            {progress.running > 0 && ` · ${progress.running} running`}
            {' · '}
            {spent.summary}
            {spent.estimated !== undefined && (
              <span data-testid="usage-estimated">{` (${spent.estimated})`}</span>
            )}
            {Object.entries(report.msByRole)
              .map(([role, ms]) => ` · ${role} ${(ms / 1000).toFixed(1)} s`)
              .join('')}
          </span>
        </div>
        {/* A game cut off mid-way cannot go on without its person: nothing to resume. */}
        {state === 'Interrupted' && !played && <ResumeButton />}
      </header>
      <progress className="run-progress" max={total} value={done} aria-label="Dialogues finished" />
      {played && (
        <p className="simulate-faint" data-testid="played">
          Played by hand in Play: a person was {played}, so this dialogue says how the other side
          behaved with them.
        </p>
      )}
      {report.run?.externalAgent && (
        <p className="simulate-faint" data-testid="external-agent">
          The agent was your own endpoint: its tool calls and database were not seen, so only
          transcript checks (and a judge) could find breaches.
        </p>
      )}
      {run.error && (
        <p className="simulate-message" role="alert">
          The run failed: {run.error}
        </p>
      )}
      <div className="run-cards">
        <div className="run-card run-card-wide" data-testid="pass-rate">
          <div className="run-card-label">Pass rate</div>
          <div className="run-card-value">{percent(overall.rate)}</div>
          <div className="simulate-faint">
            {overall.passes} passed, {overall.fails} failed · {rateWithInterval(overall)}
          </div>
          <ModelsCaption report={report} />
        </div>
        <div className="run-card" data-testid="errors">
          <div className="run-card-label">Errors (not failures)</div>
          <div className="run-card-value">{errors.total}</div>
          <div className="simulate-faint">
            {errors.byReason.length === 0
              ? 'none'
              : errors.byReason
                  .map((e) => `${e.count} ${ENDING_LABELS[e.reason].short}`)
                  .join(', ')}
          </div>
        </div>
        {report.judgeOpinion.failed.judgements > 0 && (
          <div className="run-card" data-testid="judge-failed" role="alert">
            <div className="run-card-label">Judge failed</div>
            <div className="run-card-value">{report.judgeOpinion.failed.judgements}</div>
            <div className="simulate-faint">
              {`judgements not given in ${counted(report.judgeOpinion.failed.dialogues, 'dialogue')}: nothing was found there, the judge was not heard.`}
              {report.judgeOpinion.failed.first !== undefined &&
                ` First: ${report.judgeOpinion.failed.first}`}
            </div>
          </div>
        )}
        {report.judgeOpinion.dialoguesJudged > 0 && (
          <div className="run-card" data-testid="judge-card">
            <div className="run-card-label">Judge’s opinion</div>
            <div className="simulate-faint">
              {`${counted(
                report.judgeOpinion.byPolicy.reduce((n, o) => n + o.violated, 0),
                'violation',
              )} in ${counted(report.judgeOpinion.dialoguesJudged, 'dialogue')} judged; agrees with the checks ${report.judgeOpinion.agreement.agreed} of ${report.judgeOpinion.agreement.compared} times. ${
                report.run?.judgeDecides.length
                  ? `It decides ${report.run.judgeDecides.length === 1 ? '1 policy' : `${report.run.judgeDecides.length} policies`} no check covers (${report.run.judgeDecides.join(', ')}): decided by a model.`
                  : 'A model’s opinion, not a verdict.'
              }`}
              {report.judgeOpinion.spread.repeated > 0 &&
                ` Asked more than once, it gave the same answer every time for ${report.judgeOpinion.spread.unanimous} of ${report.judgeOpinion.spread.repeated} policy judgements.`}
              {report.judgeOpinion.people.judgeMarked > 0 &&
                ` People reviewing it found the judge right ${report.judgeOpinion.people.judgeRight} of ${report.judgeOpinion.people.judgeMarked} times.`}
            </div>
          </div>
        )}
        {assertionsCard(report.judgeOpinion.assertions, report.judgeOpinion.people)}
        <AttackCards report={report} />
        {report.suspect > 0 && (
          <div className="run-card" data-testid="suspect-count">
            <div className="run-card-label">Simulator suspect</div>
            <div className="run-card-value">{report.suspect}</div>
            <div className="simulate-faint">not in the pass rate until you review them below</div>
          </div>
        )}
        {report.judgeOpinion.people.findingsMarked > 0 && (
          <div className="run-card" data-testid="people-review">
            <div className="run-card-label">People’s review</div>
            <div className="simulate-faint">
              {`${counted(report.judgeOpinion.people.findingsMarked, 'finding')} reviewed in Replay, ${report.judgeOpinion.people.findingsWrong} marked wrong${report.judgeOpinion.people.findingsWrong > 0 ? ': a check may need fixing' : ''}.`}
            </div>
          </div>
        )}
      </div>
      <ReportFiles title={run.title} events={run.events} report={report} />
      <GenerationFailures report={report} />
      <IdleWarning report={report} />
      <UnattributedList report={report} />
      <ReportCharts report={report} />
      <CategoryTable report={report} />
      <PolicyTable report={report} run={run.id} />
      <div className="report-tables">
        <EndingsTable report={report} />
        <UsageTable report={report} />
      </div>
      <DialogueList report={report} live={run.live} run={run.id} />
    </section>
  );
}

/** Pass rate by challenge level and pass^k, each captioned with the models behind it. */
function ReportCharts({ report }: { report: RunReport }) {
  if (report.byLevel.length === 0 && report.passHatK.length === 0) return null;
  return (
    <div className="report-charts">
      {report.byLevel.length > 0 && (
        <figure className="report-figure">
          <LevelChart levels={report.byLevel} />
          <figcaption>
            Pass rate by challenge level, with 95% intervals · <ModelsCaption report={report} />
          </figcaption>
        </figure>
      )}
      {report.passHatK.length > 0 && (
        <figure className="report-figure">
          <PassHatKChart points={report.passHatK} />
          <figcaption>
            pass^k: every one of k trials passed · <ModelsCaption report={report} />
          </figcaption>
        </figure>
      )}
    </div>
  );
}

/** Goes on with an interrupted run: what was judged stays, the rest runs. */
function ResumeButton() {
  const resumeRun = useAppStore((s) => s.resumeRun);
  const readOnly = useAppStore((s) => s.readOnly);
  if (readOnly) return null;
  return (
    <button type="button" className="button" onClick={() => void resumeRun()}>
      Resume
    </button>
  );
}

/** Sampled combinations the generator wrote no valid scenario for, each with its reason. */
function GenerationFailures({ report }: { report: RunReport }) {
  const generation = report.generation;
  if (!generation || generation.failed.length === 0) return null;
  const { asked, failed } = generation;
  return (
    <details className="generation-failures" data-testid="generation-failures">
      <summary>
        {failed.length} of {asked} sampled combination{asked === 1 ? '' : 's'} got no valid scenario
      </summary>
      <ul>
        {failed.map((f, i) => (
          <li key={i}>
            <code>{f.policies.join(', ')}</code> (level {f.level}
            {f.attempts !== null && f.attempts > 0 && `, ${tries(f.attempts)}`}): {f.error}
          </li>
        ))}
      </ul>
    </details>
  );
}

function tries(n: number): string {
  return `${n} ${n === 1 ? 'try' : 'tries'}`;
}

/** Scenarios a do-nothing agent would pass: their passes say little about the agent. */
function IdleWarning({ report }: { report: RunReport }) {
  const idle = report.scenarios.filter((s) => s.passesIdle !== null);
  if (idle.length === 0) return null;
  return (
    <details className="idle-warning" data-testid="idle-warning">
      <summary>
        {idle.length} scenario{idle.length === 1 ? '' : 's'} would pass even if the agent did
        nothing
      </summary>
      <ul>
        {idle.map((s) => (
          <li key={s.id}>
            <code>{s.id}</code>: {s.passesIdle}
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * The scenarios' natural-language assertions: the judge's opinions, how many went unjudged, and
 * how often people reviewing them in Replay found the judge right.
 */
function assertionsCard(
  { met, notMet, notJudged, graded }: RunReport['judgeOpinion']['assertions'],
  { assertionsMarked, assertionsRight }: RunReport['judgeOpinion']['people'],
) {
  if (met + notMet + notJudged === 0) return null;
  return (
    <div className="run-card" data-testid="assertions-card">
      <div className="run-card-label">Assertions</div>
      <div className="simulate-faint">
        {met + notMet > 0 &&
          `Judge’s opinion: ${String(met)} held, ${String(notMet)} did not. A model’s opinion, ${graded > 0 ? `deciding the verdict only for the ${String(graded)} whose scenario is graded by them (graded_by)` : 'not a verdict'}.`}
        {notJudged > 0 &&
          ` ${String(notJudged)} not judged (no judge model, an error, or no answer): never counted as held.`}
        {assertionsMarked > 0 &&
          ` People reviewing it found the judge right ${String(assertionsRight)} of ${String(assertionsMarked)} times.`}
      </div>
    </div>
  );
}
