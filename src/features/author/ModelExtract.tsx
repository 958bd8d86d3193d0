import { useEffect, useMemo, useState } from 'react';
import { addPoliciesToYaml, diffLines, newCandidates } from '../../core/index.ts';
import type { ExtractJob } from '../../state/slices/extractSlice.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { DiffHunkTable } from '../../ui/DiffHunk.tsx';
import { AssistEstimateLine, AssistProgress, AssistSpentLine } from '../assist/AssistCost.tsx';
import { CandidateItem, withTick } from './CandidateItem.tsx';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * "Ask a model" in the Extract dialog: the estimate before, progress with Stop while the model
 * reads agent.md section by section, then its proposals to tick, as the lines policies.yaml would
 * gain. Everything the model wrote is shown as plain text.
 */
export function ModelExtract({ onAdded }: { onAdded: () => void }) {
  const store = useAppStoreApi();
  const job = useAppStore((s) => s.extractJob);
  // Planned again when what it depends on changes, unless it is running or has answered.
  const settings = useAppStore((s) => s.modelSettings);
  const prompt = useAppStore((s) => s.project.files['agent.md']);
  const model = useAppStore((s) => s.analysis?.model);
  useEffect(() => {
    const status = store.getState().extractJob?.status;
    if (status === undefined || status === 'unavailable' || status === 'planned')
      void store.getState().planExtraction();
  }, [store, settings, prompt, model]);

  if (!job) return <p className="loading">Working out what it would take…</p>;
  switch (job.status) {
    case 'unavailable':
      return <p role="alert">{job.message}</p>;
    case 'planned':
      return (
        <>
          <p className="dialog-note">
            A model reads agent.md one section at a time (each heading is a flow) and proposes
            atomic policies with a category, a challenge, the tools involved and the words each came
            from. A rule several flows state becomes one policy naming its flows. Nothing is written
            until you choose.
          </p>
          <AssistEstimateLine
            doing={`To read ${plural(job.sections, 'section')} (${plural(job.flows, 'flow')})`}
            estimate={job.estimate}
          />
          <div className="dialog-actions">
            <button
              type="button"
              className="button"
              onClick={() => {
                void store.getState().extractWithModel();
              }}
            >
              Ask the model
            </button>
          </div>
        </>
      );
    case 'running':
      return (
        <AssistProgress
          done={job.done}
          total={job.total}
          unit="section"
          onStop={() => {
            store.getState().stopExtraction();
          }}
        />
      );
    case 'done':
      return <Proposals job={job} onAdded={onAdded} />;
  }
}

/** The model's proposals, each ticked unless policies.yaml holds it, and the diff they make. */
function Proposals({
  job,
  onAdded,
}: {
  job: Extract<ExtractJob, { status: 'done' }>;
  onAdded: () => void;
}) {
  const store = useAppStoreApi();
  const current = useAppStore((s) => s.project.files['policies.yaml']);
  const policies = useAppStore((s) => s.analysis?.model.policies);
  const [skipped, setSkipped] = useState<ReadonlySet<string>>(
    () => new Set(job.proposals.filter((p) => p.existing !== null).map((p) => p.candidate.id)),
  );
  const chosen = useMemo(
    () => job.proposals.filter((p) => !skipped.has(p.candidate.id)),
    [job, skipped],
  );
  const diff = useMemo(
    () =>
      diffLines(
        current,
        addPoliciesToYaml(
          current,
          chosen.map((p) => p.candidate),
        ),
      ),
    [current, chosen],
  );
  // What policies.yaml would really gain: a ticked proposal it holds already is not added twice.
  const adding = useMemo(
    () =>
      newCandidates(
        chosen.map((p) => p.candidate),
        policies ?? [],
      ).length,
    [chosen, policies],
  );

  return (
    <>
      <AssistSpentLine spent={job.spent} stopped={job.stopped} free={job.estimate.free} />
      {job.problems.length > 0 && (
        <details className="extract-problems">
          <summary>{plural(job.problems.length, 'problem')} with the answers</summary>
          <ul aria-label="Problems">
            {job.problems.map((problem, i) => (
              <li key={i}>{problem}</li>
            ))}
          </ul>
        </details>
      )}
      {job.proposals.length === 0 ? (
        <p>The model proposed no policies.</p>
      ) : (
        <ul className="candidate-list" aria-label="Proposals">
          {job.proposals.map(({ candidate: c, ruleBased, existing }) => (
            <CandidateItem
              key={c.id}
              candidate={c}
              where={linesOf(c.source, c.placed)}
              ticked={!skipped.has(c.id)}
              onTick={(ticked) => {
                setSkipped(withTick(skipped, c.id, ticked));
              }}
            >
              <span className="candidate-notes">
                {c.flows.length > 0 &&
                  `${c.flows.length === 1 ? 'Flow' : 'Flows'}: ${c.flows.join(', ')}. `}
                {ruleBased === null ? 'Not found by rules.' : `Also found by rules (${ruleBased}).`}
                {existing !== null && ` policies.yaml already has it (${existing}).`}
              </span>
            </CandidateItem>
          ))}
        </ul>
      )}
      {job.missed.length > 0 && (
        <details className="extract-missed">
          <summary>
            {plural(job.missed.length, 'rule')} found by rules that the model did not propose
          </summary>
          <ul aria-label="Not proposed by the model">
            {job.missed.map((r) => (
              <li key={r.id}>
                <span className="candidate-id">{r.id}</span> (line {r.source.line}): {r.text}
              </li>
            ))}
          </ul>
        </details>
      )}
      <section className="extract-diff" aria-label="Changes to policies.yaml">
        <h3>policies.yaml with the ticked proposals</h3>
        {diff.hunks.length === 0 ? (
          <p className="dialog-note">Nothing would change.</p>
        ) : (
          diff.hunks.map((h) => <DiffHunkTable key={`${h.beforeStart}-${h.afterStart}`} hunk={h} />)
        )}
      </section>
      {job.acceptProblem !== undefined && <p role="alert">{job.acceptProblem}</p>}
      <div className="dialog-actions">
        <button
          type="button"
          className="button button-quiet"
          onClick={() => {
            store.getState().dismissExtraction();
          }}
        >
          Discard the proposals
        </button>
        <button
          type="button"
          className="button"
          disabled={adding === 0 || diff.added === 0}
          onClick={() => {
            if (store.getState().acceptExtraction(chosen.map((p) => p.candidate.id))) onAdded();
          }}
        >
          Add {plural(adding, 'policy', 'policies')} to policies.yaml
        </button>
      </div>
    </>
  );
}

/** "lines 4–5", or "near line 4" when the quote was placed by its words. */
function linesOf(source: { line: number; endLine: number }, placed: 'exact' | 'near'): string {
  const where =
    source.endLine > source.line ? `lines ${source.line}–${source.endLine}` : `line ${source.line}`;
  return placed === 'near' ? `near ${where} (its quote is not in agent.md as written)` : where;
}
