import { useId, useState } from 'react';
import type { ExampleVerdict, Guardability, ProjectModel } from '../../core/index.ts';
import {
  estimateAssist,
  guardablePolicies,
  projectPrompts,
  sizeGuardDraft,
} from '../../core/index.ts';
import { assistPlayer } from '../../state/slices/players.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { AssistEstimateLine, AssistSpentLine } from '../assist/AssistCost.tsx';

/**
 * A model drafts a guard rule for a policy. The draft is shown only after PolicyLab checked it
 * and ran its examples; the person tries it in the rule playground and accepts it whole (one
 * undo step in rules.yaml) or not at all.
 */
export function GuardDraftDialog({ onClose }: { onClose: () => void }) {
  const store = useAppStoreApi();
  const model = useAppStore((s) => s.analysis?.model);
  const drafting = useAppStore((s) => s.guardDrafting);
  const { draftGuardRule, stopGuardDraft, clearGuardDraft, acceptGuardDraft, tryGuardDraft } =
    store.getState();
  const close = () => {
    clearGuardDraft();
    onClose();
  };
  const choices = model ? guardablePolicies(model) : [];
  const offered = choices.filter((c) => c.offered);
  // A draft kept from before (tried in the playground, then reopened) keeps its policy chosen, so
  // the picker never names one policy above another's draft.
  const [picked, setPicked] = useState(() => drafting?.policy ?? '');
  const policy = picked !== '' ? picked : (offered[0]?.policy ?? '');
  const pickId = useId();

  return (
    <Dialog open title="Draft a guard rule" onClose={close} wide>
      {!model && <p className="loading">Reading the project…</p>}
      {model && offered.length === 0 && (
        <p>No policy names a tool and limits its calls, so there is nothing to guard.</p>
      )}
      {model && offered.length > 0 && (
        <div className="guard-draft-pick">
          <label htmlFor={pickId}>Policy</label>
          <select
            id={pickId}
            value={policy}
            disabled={drafting?.status === 'drafting'}
            onChange={(e) => {
              const next = e.currentTarget.value;
              setPicked(next);
              // Another policy's draft is no answer for this one.
              if (drafting && drafting.policy !== next) clearGuardDraft();
            }}
          >
            {offered.map((c) => (
              <option key={c.policy} value={c.policy}>
                {c.policy}
              </option>
            ))}
          </select>
          {drafting?.status === 'drafting' ? (
            <button type="button" className="button button-quiet" onClick={stopGuardDraft}>
              Stop
            </button>
          ) : (
            <button
              type="button"
              className="button"
              onClick={() => {
                void draftGuardRule(policy);
              }}
            >
              Draft
            </button>
          )}
        </div>
      )}
      {model && offered.length > 0 && drafting?.status !== 'drafting' && !drafting?.result && (
        <Estimate model={model} policy={policy} />
      )}
      <NotOffered choices={choices} />
      {drafting?.status === 'drafting' && (
        <p role="status">Drafting a rule for {drafting.policy}…</p>
      )}
      {drafting?.result && !drafting.result.ok && (
        <div role="alert" className="guard-draft-failed">
          <p>{drafting.result.stopped ? 'Stopped.' : 'No rule is offered.'}</p>
          <AssistSpentLine spent={drafting.result.spent} free={drafting.free === true} />
          <ul>
            {drafting.result.why.map((why, i) => (
              <li key={i}>{why}</li>
            ))}
          </ul>
        </div>
      )}
      {drafting?.result?.ok && (
        <section aria-label="Draft rule">
          <pre className="guard-draft-rule">
            {[
              `${drafting.result.draft.tool}:`,
              `  - id: ${drafting.result.draft.id}`,
              `    policy: ${drafting.result.draft.policy}`,
              `    decision: ${drafting.result.draft.decision}`,
              `    when: ${drafting.result.draft.when}`,
              `    fallback: ${drafting.result.draft.fallback}`,
              `    message: ${drafting.result.draft.message}`,
            ].join('\n')}
          </pre>
          <p>
            Checked: it compiles, names real tools and arguments, and decides the model’s examples
            as it said{drafting.result.repaired ? ' (after one repair)' : ''}.
          </p>
          <AssistSpentLine spent={drafting.result.spent} free={drafting.free === true} />
          <Verdicts title="The model’s examples" verdicts={drafting.result.examples} />
          <Verdicts
            title="Calls PolicyLab made from the tool’s schema"
            verdicts={drafting.result.generated}
          />
          {drafting.problem !== undefined && <p role="alert">{drafting.problem}</p>}
          <div className="dialog-actions">
            <button
              type="button"
              className="button button-quiet"
              onClick={() => {
                tryGuardDraft();
                onClose();
              }}
            >
              Try in the playground
            </button>
            <button
              type="button"
              className="button"
              onClick={() => {
                if (acceptGuardDraft()) onClose();
              }}
            >
              Accept into rules.yaml
            </button>
          </div>
        </section>
      )}
    </Dialog>
  );
}

/** What drafting a rule for the policy would cost with the generator model. */
function Estimate({ model, policy }: { model: ProjectModel; policy: string }) {
  // Re-drawn when the models or prices change.
  useAppStore((s) => s.modelSettings);
  const state = useAppStoreApi().getState();
  const found = model.policies.find((p) => p.id === policy);
  const drafter = assistPlayer(state);
  if (!found) return null;
  if (!drafter) return <p>No generator model is set up (Models, in the header).</p>;
  const estimate = estimateAssist(
    sizeGuardDraft(model, found, projectPrompts(model).guardDraft),
    drafter.player.model,
    drafter.prices,
    drafter.free,
  );
  return <AssistEstimateLine doing={`To draft a rule for ${policy}`} estimate={estimate} />;
}

function NotOffered({ choices }: { choices: readonly Guardability[] }) {
  const left = choices.flatMap((c) => (c.offered ? [] : [c]));
  if (left.length === 0) return null;
  return (
    <details className="guard-draft-not-offered">
      <summary>{left.length} policies cannot be guarded</summary>
      <ul>
        {left.map((c) => (
          <li key={c.policy}>
            <strong>{c.policy}</strong>: {c.why}
          </li>
        ))}
      </ul>
    </details>
  );
}

function Verdicts({ title, verdicts }: { title: string; verdicts: readonly ExampleVerdict[] }) {
  return (
    <table className="guard-draft-examples" aria-label={title}>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th>Arguments</th>
          <th>Expected</th>
          <th>Decided</th>
          <th>Why</th>
        </tr>
      </thead>
      <tbody>
        {verdicts.map((v, i) => (
          <tr key={i}>
            <td>
              <code>{JSON.stringify(v.args)}</code>
            </td>
            <td>{v.expect ?? '—'}</td>
            <td>{v.allowed ? 'allow' : 'forbid'}</td>
            <td>{v.why}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
