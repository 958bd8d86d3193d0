import { useState } from 'react';
import type { AttackPair, AttackTactic } from '../../core/index.ts';
import { ATTACK_TACTICS } from '../../core/index.ts';
import { useAppStore } from '../../state/useAppStore.ts';
import { AssistEstimateLine, AssistProgress, AssistSpentLine } from '../assist/AssistCost.tsx';

const TACTICS = Object.keys(ATTACK_TACTICS) as AttackTactic[];
const NO_POLICIES: readonly { readonly id: string }[] = [];

/**
 * "Generate adversarial scenarios": choose policies and tactics, see the estimate, generate with
 * progress and Stop, then accept the offered scenarios in whole or in part (one undo step).
 */
export function AttackPanel() {
  const attack = useAppStore((s) => s.attack);
  const policies = useAppStore((s) => s.analysis?.model.policies ?? NO_POLICIES);
  const choose = useAppStore((s) => s.chooseAttacks);
  const start = useAppStore((s) => s.startAttacks);
  const stop = useAppStore((s) => s.stopAttacks);
  const { estimate, progress, result } = attack;
  const toggle = <T,>(list: readonly T[], item: T) =>
    list.includes(item) ? list.filter((x) => x !== item) : [...list, item];

  return (
    <details className="prompts-panel" data-testid="attack-panel">
      <summary>Generate adversarial scenarios</summary>
      <p className="simulate-faint">
        For each chosen policy and tactic, the generator model writes a scenario that tries to make
        the agent break the policy, and a contrastive twin where helping is right, so false alarms
        of the checks and the judge show in the report. Each is checked before it is offered.
      </p>
      <fieldset disabled={attack.running}>
        <legend>Policies</legend>
        {policies.map((p) => (
          <label key={p.id} className="simulate-check">
            <input
              type="checkbox"
              checked={attack.policies.includes(p.id)}
              onChange={() => {
                void choose({ policies: toggle(attack.policies, p.id) });
              }}
            />{' '}
            {p.id}
          </label>
        ))}
      </fieldset>
      <fieldset disabled={attack.running}>
        <legend>Tactics</legend>
        {TACTICS.map((t) => (
          <label key={t} className="simulate-check" title={ATTACK_TACTICS[t]}>
            <input
              type="checkbox"
              checked={attack.tactics.includes(t)}
              onChange={() => {
                void choose({ tactics: toggle(attack.tactics, t) });
              }}
            />{' '}
            {t}
          </label>
        ))}
      </fieldset>
      {estimate && !attack.running && (
        <AssistEstimateLine
          doing={`To write ${estimate.calls} pair${estimate.calls === 1 ? '' : 's'} of scenarios`}
          estimate={estimate}
        />
      )}
      {attack.running ? (
        <AssistProgress
          done={progress?.done ?? 0}
          total={progress?.total ?? estimate?.calls ?? 0}
          unit="pair"
          onStop={stop}
        />
      ) : (
        <div className="prompt-head">
          <button
            type="button"
            className="button"
            disabled={estimate === null}
            onClick={() => void start()}
          >
            Generate
          </button>
        </div>
      )}
      {attack.notice && (
        <p className="simulate-faint" role="status">
          {attack.notice}
        </p>
      )}
      {attack.message && (
        <p className="simulate-message" role="alert">
          {attack.message}
        </p>
      )}
      {result && <AttackOffer pairs={result.pairs} />}
      {result && (
        <AssistSpentLine spent={result.spent} stopped={result.stopped} free={attack.free} />
      )}
      {result && result.failures.length > 0 && (
        <ul aria-label="Failed">
          {result.failures.map((f) => (
            <li key={`${f.policy}-${f.tactic}`}>
              {f.policy} · {f.tactic}: {f.error}
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}

/** The offered scenarios, each with a box to keep it; Accept appends the kept ones. */
function AttackOffer({ pairs }: { pairs: readonly AttackPair[] }) {
  const accept = useAppStore((s) => s.acceptAttacks);
  const dismiss = useAppStore((s) => s.dismissAttacks);
  const all = pairs.flatMap((p) => [p.adversarial, p.twin]);
  const [kept, setKept] = useState<ReadonlySet<string>>(() => new Set(all.map((s) => s.id)));
  if (all.length === 0) return <p>No scenario could be offered.</p>;
  return (
    <section role="dialog" aria-label="Offered scenarios">
      <ul className="prompt-list">
        {all.map((s) => (
          <li key={s.id} className="prompt-card">
            <label>
              <input
                type="checkbox"
                checked={kept.has(s.id)}
                onChange={() => {
                  const next = new Set(kept);
                  if (!next.delete(s.id)) next.add(s.id);
                  setKept(next);
                }}
              />{' '}
              <code>{s.id}</code> <span className="prompt-badge">{s.tags.join(', ')}</span>
            </label>
            <p className="prompt-purpose">{s.goal}</p>
          </li>
        ))}
      </ul>
      <div className="prompt-head">
        <button
          type="button"
          className="button"
          onClick={() => {
            accept(kept);
          }}
        >
          Add {kept.size} to scenarios.yaml
        </button>
        <button type="button" className="button button-quiet" onClick={dismiss}>
          Discard
        </button>
      </div>
    </section>
  );
}
