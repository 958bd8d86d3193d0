import { useState } from 'react';
import type { GraphEdge, PolicyGraph } from '../../core/index.ts';
import { deletePolicy, removeRelation, setPolicyField, setRelation } from '../../core/index.ts';
import { graphSelectors } from '../../state/graphSelectors.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { IconButton } from '../../ui/IconButton.tsx';
import { useDismissible } from '../../ui/useDismissible.tsx';
import { PolicyRunResults } from './PolicyRunResults.tsx';
import './details.css';

/**
 * The details panel beside the canvas: the selected policy (or relation), its text and fields,
 * its results in the run the graph shows, its relations with their weights, and the edits the
 * graph offers. Every edit is one undo step in policies.yaml. Escape closes it (after any dialog).
 */
export function PolicyDetails({
  graph,
  policyId,
  edge,
  onShowInEditor,
  onClose,
}: {
  graph: PolicyGraph;
  policyId: string | null;
  edge: GraphEdge | null;
  onShowInEditor: (id: string) => void;
  onClose: () => void;
}) {
  const policy = graph.nodes.find((n) => n.id === policyId);
  const stale = useAppStore(graphSelectors(useAppStoreApi()).selectGraphStale) !== null;
  useDismissible(true, onClose);
  return (
    <aside
      className="policy-details details-panel"
      aria-label={policy ? `Policy ${policy.id}` : 'Relation'}
      data-testid="details-panel"
    >
      <header>
        <h3>{policy ? policy.id : edge ? 'Relation' : (policyId ?? 'Nothing selected')}</h3>
        <IconButton icon="close" label="Close details" onClick={onClose} />
      </header>
      {policy ? (
        <>
          <PolicyFields graph={graph} id={policy.id} onShowInEditor={onShowInEditor} />
          <PolicyRunResults policy={policy.id} />
        </>
      ) : edge ? (
        <EdgeFields edge={edge} />
      ) : stale ? (
        <p>policies.yaml does not parse now; this policy shows again once it does.</p>
      ) : (
        <p>This policy is no longer in policies.yaml.</p>
      )}
    </aside>
  );
}

function PolicyFields({
  graph,
  id,
  onShowInEditor,
}: {
  graph: PolicyGraph;
  id: string;
  onShowInEditor: (id: string) => void;
}) {
  const store = useAppStoreApi();
  const edit = store.getState().editPolicies;
  const policy = graph.nodes.find((n) => n.id === id);
  const [connectTo, setConnectTo] = useState('');
  const [weight, setWeight] = useState(5);
  const flows = useAppStore((s) => s.analysis?.model.policies.find((p) => p.id === id)?.flows);
  if (!policy) return null;
  const related = graph.edges
    .filter((e) => e.source === id || e.target === id)
    .sort((a, b) => b.weight - a.weight);
  const others = graph.nodes.filter(
    (n) => n.id !== id && !related.some((e) => e.source === n.id || e.target === n.id),
  );

  return (
    <div className="policy-fields">
      <p className="policy-text">{policy.text}</p>
      <label>
        Category
        <input
          aria-label="Category"
          key={policy.category}
          defaultValue={policy.category}
          list="graph-categories"
          onBlur={(e) => {
            const value = e.target.value.trim();
            if (value && value !== policy.category) {
              edit(`Set the category of ${id}`, (t) => setPolicyField(t, id, 'category', value));
            }
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') e.currentTarget.blur();
          }}
        />
        <datalist id="graph-categories">
          {graph.categories.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
      </label>
      <label>
        Challenge
        <select
          aria-label="Challenge"
          value={policy.challenge}
          onChange={(e) =>
            edit(`Set the challenge of ${id}`, (t) =>
              setPolicyField(t, id, 'challenge', Number(e.target.value)),
            )
          }
        >
          {[1, 2, 3, 4, 5].map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <p className="policy-meta">
        {policy.tools.length > 0 ? `Tools: ${policy.tools.join(', ')}.` : 'No tools.'}
      </p>
      {flows && flows.length > 0 && (
        <p className="policy-meta" aria-label="Flows">
          {flows.length === 1 ? 'Flow' : 'Flows'}: {flows.join(', ')}.
        </p>
      )}
      <h4>Relations</h4>
      {related.length === 0 ? (
        <p className="policy-meta">None yet.</p>
      ) : (
        <ul className="policy-relations">
          {related.map((e) => {
            const other = e.source === id ? e.target : e.source;
            return (
              <li key={e.id}>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => {
                    store.getState().selectPolicy(other, { centre: true });
                  }}
                >
                  {other}
                </button>
                <WeightInput edge={e} />
                <span
                  className={`origin-badge is-${e.origin}`}
                  title={e.reason ?? e.reasons.join(', ')}
                >
                  {e.origin}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <form
        className="policy-connect"
        onSubmit={(e) => {
          e.preventDefault();
          const target = connectTo.trim();
          if (!target) return;
          if (edit(`Connect ${id} and ${target}`, (t) => setRelation(t, id, target, weight))) {
            setConnectTo('');
          }
        }}
      >
        <input
          aria-label={`Connect ${id} to`}
          placeholder="Connect to…"
          list="graph-connect-targets"
          value={connectTo}
          onChange={(e) => {
            setConnectTo(e.target.value);
          }}
        />
        <datalist id="graph-connect-targets">
          {others.map((n) => (
            <option key={n.id} value={n.id} />
          ))}
        </datalist>
        <input
          type="number"
          min={0}
          max={10}
          aria-label="Weight of the new relation"
          value={weight}
          onChange={(e) => {
            setWeight(Math.max(0, Math.min(10, Number(e.target.value) || 0)));
          }}
        />
        <button type="submit" className="button">
          Connect
        </button>
      </form>
      <div className="policy-actions">
        <button
          type="button"
          className="button button-quiet"
          onClick={() => {
            onShowInEditor(id);
          }}
        >
          Show in editor
        </button>
        <button
          type="button"
          className="button button-quiet"
          onClick={() => {
            store.getState().focusPolicy(id);
          }}
        >
          Focus neighbours
        </button>
        <button
          type="button"
          className="button button-danger"
          onClick={() => {
            if (edit(`Delete ${id}`, (t) => deletePolicy(t, id)))
              store.getState().selectPolicy(null);
          }}
        >
          Delete policy
        </button>
      </div>
    </div>
  );
}

/** A relation's weight, written on Enter or blur; a heuristic edge becomes a manual relation. */
function WeightInput({ edge }: { edge: GraphEdge }) {
  const store = useAppStoreApi();
  const commit = (raw: string) => {
    const weight = Number(raw);
    if (!Number.isFinite(weight) || weight === edge.weight) return;
    store
      .getState()
      .editPolicies(`Set the weight between ${edge.source} and ${edge.target}`, (t) =>
        setRelation(t, edge.source, edge.target, Math.max(0, Math.min(10, Math.round(weight)))),
      );
  };
  return (
    <input
      key={edge.weight}
      type="number"
      min={0}
      max={10}
      className="weight-input"
      aria-label={`Weight between ${edge.source} and ${edge.target}`}
      defaultValue={edge.weight}
      onBlur={(e) => {
        commit(e.target.value);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit(e.currentTarget.value);
      }}
    />
  );
}

/** Where a relation's weight came from, and what setting it by hand does. */
const ORIGIN_WORDS: Record<GraphEdge['origin'], string> = {
  manual: 'Set by hand in policies.yaml (manual): a model’s rating never replaces it.',
  model:
    'Rated by a model (origin: model in policies.yaml). Setting a weight here makes it yours (manual), and later ratings keep it.',
  heuristic:
    'Not written: the graph’s own guess (heuristic). Setting a weight writes it to policies.yaml.',
};

function EdgeFields({ edge }: { edge: GraphEdge }) {
  const store = useAppStoreApi();
  return (
    <div className="policy-fields">
      <p>
        <strong>{edge.source}</strong> and <strong>{edge.target}</strong>
      </p>
      <label>
        Weight (0 never together, 10 always)
        <WeightInput edge={edge} />
      </label>
      <p className="policy-meta" data-testid="relation-origin">
        {ORIGIN_WORDS[edge.origin]}
      </p>
      {edge.reason !== undefined && (
        <p className="policy-meta" data-testid="relation-reason">
          {edge.origin === 'model' ? 'The model’s reason: ' : 'Reason: '}
          {edge.reason}
        </p>
      )}
      {edge.origin === 'heuristic' && (
        <p className="policy-meta">
          Computed from what they share: {edge.reasons.join(', ') || 'nothing written'}.
        </p>
      )}
      {edge.origin !== 'heuristic' && (
        <button
          type="button"
          className="button button-danger"
          onClick={() =>
            store
              .getState()
              .editPolicies(`Remove the relation between ${edge.source} and ${edge.target}`, (t) =>
                removeRelation(t, edge.source, edge.target),
              )
          }
        >
          Remove relation
        </button>
      )}
    </div>
  );
}
