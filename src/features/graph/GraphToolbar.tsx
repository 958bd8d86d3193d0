import { useState } from 'react';
import type { PolicyGraph } from '../../core/index.ts';
import type { ShareView } from '../../core/index.ts';
import { addPolicy, shareUrl } from '../../core/index.ts';
import type { AppState } from '../../state/createAppStore.ts';
import type { GraphFilters } from '../../state/slices/graphSlice.ts';
import { canMove } from '../../state/slices/projectSlice.ts';
import { selectEffectiveTheme } from '../../state/selectors.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { copyText } from '../../ui/clipboard.ts';
import { Icon } from '../../ui/Icon.tsx';
import { IconButton } from '../../ui/IconButton.tsx';
import { exportPng, exportSvg } from './exportGraph.ts';
import { HeatmapControl } from './HeatmapControl.tsx';
import { RelateDialog } from './RelateDialog.tsx';
import { SampleDialog } from './SampleDialog.tsx';
import {
  MODEL_EDGE_FLOOR,
  MODEL_EDGES_PER_POLICY,
  visibleGraph,
  showsHeuristic,
  weightFilter,
} from './visibleGraph.ts';

/** Search, filters, layout, add, sample, export and undo for the graph. */
export function GraphToolbar({ graph }: { graph: PolicyGraph }) {
  const store = useAppStoreApi();
  const filters = useAppStore((s) => s.graphFilters);
  const setFilters = useAppStore((s) => s.setGraphFilters);
  const focus = useAppStore((s) => s.focusedPolicy);
  const highlighted = useAppStore((s) => s.highlightedPolicies);
  const progress = useAppStore((s) => s.graphLayout.progress);
  const layoutError = useAppStore((s) => s.graphLayout.error);
  const message = useAppStore((s) => s.graphMessage);
  const canUndo = useAppStore((s) => canMove(s, 'undo', 'policies.yaml'));
  const canRedo = useAppStore((s) => canMove(s, 'redo', 'policies.yaml'));
  const placedCount = useAppStore((s) => Object.keys(s.project.layout ?? {}).length);
  const [sampling, setSampling] = useState(false);
  const [relating, setRelating] = useState(false);
  const [linkNote, setLinkNote] = useState<string | null>(null);
  const tools = [...new Set(graph.nodes.flatMap((n) => n.tools))].sort();
  const weak = visibleGraph(graph, filters, focus).weakModelEdges;
  const rated = filters.minWeight === null && graph.edges.some((e) => e.origin === 'model');

  const addNew = () => {
    const { selectedPolicy } = store.getState();
    const near = graph.nodes.find((n) => n.id === selectedPolicy?.id);
    let added: string | undefined;
    store.getState().editPolicies('Add a policy', (text) => {
      const result = addPolicy(text, {
        text: 'Describe the new policy here.',
        category: near?.category ?? graph.categories[0] ?? 'general',
        challenge: 2,
      });
      if (result.ok) added = result.id;
      return result;
    });
    if (added !== undefined) {
      store.getState().selectPolicy(added, { centre: true });
      store.getState().setDetailsOpen(true);
    }
  };

  const exportAs = async (kind: 'png' | 'svg') => {
    const state = store.getState();
    const shown = visibleGraph(graph, state.graphFilters, state.focusedPolicy);
    const positions = new Map(state.graphLayout.positions);
    for (const [id, at] of Object.entries(state.project.layout ?? {})) positions.set(id, at);
    const options = { theme: selectEffectiveTheme(state), title: state.project.name };
    const picture = { ...graph, nodes: shown.nodes, edges: shown.edges };
    if (kind === 'svg') exportSvg(picture, positions, options);
    else await exportPng(picture, positions, options);
  };

  return (
    <div className="graph-toolbar" role="toolbar" aria-label="Graph tools">
      <input
        type="search"
        className="graph-search"
        placeholder="Search policies"
        aria-label="Search policies"
        value={filters.search}
        onChange={(e) => {
          setFilters({ search: e.target.value });
        }}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return;
          const query = filters.search.trim().toLowerCase();
          const hit = graph.nodes.find(
            (n) => n.id.toLowerCase().includes(query) || n.text.toLowerCase().includes(query),
          );
          if (hit) store.getState().selectPolicy(hit.id, { centre: true });
        }}
      />
      <select
        className="graph-tool"
        aria-label="Only policies using a tool"
        value={filters.tool ?? ''}
        onChange={(e) => {
          setFilters({ tool: e.target.value === '' ? null : e.target.value });
        }}
      >
        <option value="">All tools</option>
        {tools.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
      <label className="graph-weight">
        <span>
          Weight ≥ {filters.minWeight ?? 0}
          {rated && `, model ≥ ${MODEL_EDGE_FLOOR}`}
        </span>
        <input
          type="range"
          min={0}
          max={10}
          value={filters.minWeight ?? 0}
          aria-label="Hide edges lighter than"
          onChange={(e) => {
            setFilters({ minWeight: Number(e.target.value) });
          }}
        />
      </label>
      <label className="graph-check">
        <input
          type="checkbox"
          checked={showsHeuristic(graph, filters)}
          onChange={(e) => {
            setFilters({ showHeuristic: e.target.checked });
          }}
        />
        Heuristic edges
      </label>
      {focus !== null && (
        <button
          type="button"
          className="button button-quiet"
          onClick={() => {
            store.getState().focusPolicy(null);
          }}
        >
          Show all
        </button>
      )}
      {highlighted !== null && (
        <button
          type="button"
          className="button button-quiet"
          onClick={() => {
            store.getState().highlightPolicies(null);
          }}
        >
          Clear sample
        </button>
      )}
      <span className="graph-count" role="status">
        {counts(graph, filters, focus)}
      </span>
      {weak > 0 && (
        <span
          className="graph-weak-note"
          data-testid="weak-model-edges"
          title={`Until you set a weight, model edges under ${MODEL_EDGE_FLOOR} are hidden, and so are those past each policy’s ${MODEL_EDGES_PER_POLICY} strongest.`}
        >
          {weak.toLocaleString('en-US')} weaker model {weak === 1 ? 'edge' : 'edges'} hidden.{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setFilters({ minWeight: 0 });
            }}
          >
            Show them
          </button>
        </span>
      )}
      <HeatmapControl />
      <span className="graph-toolbar-spacer" />
      {progress !== null ? (
        <span className="graph-progress" role="status">
          <progress max={1} value={progress} aria-label="Layout progress" /> Laying out…
          <button
            type="button"
            className="button button-quiet"
            onClick={() => {
              store.getState().cancelLayout();
            }}
          >
            Stop
          </button>
        </span>
      ) : (
        <IconButton
          icon="layout"
          label={
            placedCount > 0
              ? `Lay out again (forgets ${placedCount} placed by hand)`
              : 'Lay out again'
          }
          onClick={() => {
            store.getState().clearPlacements();
            void store.getState().runLayout(graph, { fresh: true });
          }}
        />
      )}
      <IconButton icon="plus" label="Add a policy" onClick={addNew} />
      <IconButton
        icon="dice"
        label="Sample policy combinations"
        onClick={() => {
          setSampling(true);
        }}
      />
      <IconButton
        icon="chip"
        label="Rate relations with a model"
        onClick={() => {
          setRelating(true);
        }}
      />
      <span className="graph-export" role="group" aria-label="Export the graph">
        <Icon name="download" />
        <button
          type="button"
          className="button button-quiet"
          aria-label="Export as PNG"
          onClick={() => void exportAs('png')}
        >
          PNG
        </button>
        <button
          type="button"
          className="button button-quiet"
          aria-label="Export as SVG"
          onClick={() => void exportAs('svg')}
        >
          SVG
        </button>
        <IconButton
          icon="share"
          label="Copy link to this view"
          title="Copy link to this view: it opens this project with the graph maximised, the selected policy, the search and tool filter, and the highlighted sample"
          onClick={() => {
            void copyViewLink(store.getState()).then(setLinkNote);
          }}
        />
      </span>
      {linkNote && (
        <output className="graph-link-note">
          {linkNote === COPIED ? (
            COPIED
          ) : (
            <input
              readOnly
              aria-label="Link to this view"
              value={linkNote}
              onFocus={(e) => {
                e.target.select();
              }}
            />
          )}
        </output>
      )}
      <IconButton
        icon="undo"
        label="Undo in policies.yaml"
        shortcut="Ctrl+Z"
        disabled={!canUndo}
        onClick={() => store.getState().undo('policies.yaml')}
      />
      <IconButton
        icon="redo"
        label="Redo in policies.yaml"
        shortcut="Ctrl+Shift+Z"
        disabled={!canRedo}
        onClick={() => store.getState().redo('policies.yaml')}
      />
      {(message ?? layoutError) && (
        <p className="graph-message" role="alert">
          {message ?? `The layout failed: ${layoutError}`}
          {message && (
            <button
              type="button"
              className="button button-quiet"
              onClick={() => {
                store.getState().dismissGraphMessage();
              }}
            >
              Dismiss
            </button>
          )}
        </p>
      )}
      {relating && (
        <RelateDialog
          onClose={() => {
            setRelating(false);
          }}
        />
      )}
      {sampling && (
        <SampleDialog
          graph={graph}
          onClose={() => {
            setSampling(false);
          }}
        />
      )}
    </div>
  );
}

const COPIED = 'Link copied.';

/**
 * Copies a share link whose view part says what to show on arrival: the graph maximised, the
 * selected policy, the filters and the highlighted sample. Resolves with what to tell the person:
 * that it was copied, or the link itself when the clipboard is refused.
 */
async function copyViewLink(state: AppState): Promise<string> {
  const { graphFilters: filters, selectedPolicy, highlightedPolicies } = state;
  const view: ShareView = {
    maximize: 'graph',
    ...(selectedPolicy && { policy: selectedPolicy.id }),
    ...(filters.search !== '' && { search: filters.search }),
    ...(filters.tool !== null && { tool: filters.tool }),
    ...(highlightedPolicies && { sample: highlightedPolicies }),
  };
  const link = shareUrl(window.location.origin + window.location.pathname, state.project, view);
  return (await copyText(link)) ? COPIED : link;
}

/**
 * "58 policies · 44 relations · 96 heuristic": what the graph holds; while filters or focus hide
 * some, what shows of it: "12 of 58 policies · 5 of 44 relations · 20 of 96 heuristic".
 */
function counts(graph: PolicyGraph, filters: GraphFilters, focus: string | null): string {
  const shown = new Set(visibleGraph(graph, filters, focus).nodes.map((n) => n.id));
  const heavy = weightFilter(graph, filters);
  const heuristicShown = showsHeuristic(graph, filters);
  // Counted like the totals, weight 0 included: only what the filters hide is left out.
  const through = graph.edges.filter(
    (e) =>
      shown.has(e.source) &&
      shown.has(e.target) &&
      heavy(e) &&
      (heuristicShown || e.origin !== 'heuristic') &&
      (focus === null || !shown.has(focus) || e.source === focus || e.target === focus),
  );
  const heuristic = (edges: readonly PolicyGraph['edges'][number][]) =>
    edges.filter((e) => e.origin === 'heuristic').length;
  const part = (count: number, total: number, one: string, many: string) =>
    `${count === total ? '' : `${count.toLocaleString('en-US')} of `}${total.toLocaleString('en-US')} ${total === 1 ? one : many}`;
  const allHeuristic = heuristic(graph.edges);
  const shownHeuristic = heuristic(through);
  return [
    part(shown.size, graph.nodes.length, 'policy', 'policies'),
    part(
      through.length - shownHeuristic,
      graph.edges.length - allHeuristic,
      'relation',
      'relations',
    ),
    ...(allHeuristic > 0 ? [part(shownHeuristic, allHeuristic, 'heuristic', 'heuristic')] : []),
  ].join(' · ');
}
