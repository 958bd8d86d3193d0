import type { Edge, NodeChange, OnConnect } from '@xyflow/react';
import {
  Background,
  ConnectionMode,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useNodesInitialized,
  useReactFlow,
  useStore,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { KeyboardEvent } from 'react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { GraphEdge } from '../../core/index.ts';
import {
  categoryColor,
  deletePolicy,
  edgeStyle,
  edgeWidth,
  nodeRadius,
  removeRelation,
  setRelation,
} from '../../core/index.ts';
import { selectPolicyGraph, selectPolicySpans } from '../../state/graphSelectors.ts';
import { selectEffectiveTheme } from '../../state/selectors.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { GraphLegend } from './GraphLegend.tsx';
import { GraphToolbar } from './GraphToolbar.tsx';
import { PolicyDetails } from './PolicyDetails.tsx';
import type { PolicyFlowNode } from './PolicyNode.tsx';
import { PolicyNode } from './PolicyNode.tsx';
import { visibleGraph } from './visibleGraph.ts';

// Defined once, outside any component, so React Flow never sees a new node type.
const NODE_TYPES = { policy: PolicyNode };
const NODE_ORIGIN: [number, number] = [0.5, 0.5];
const DELETE_KEYS = ['Delete', 'Backspace'];

/** The graph canvas: the policies drawn by React Flow, with the toolbar, legend and details. */
export function GraphCanvas() {
  return (
    <ReactFlowProvider>
      <GraphView />
    </ReactFlowProvider>
  );
}

function GraphView() {
  const store = useAppStoreApi();
  const theme = useAppStore(selectEffectiveTheme);
  const graph = useAppStore(selectPolicyGraph);
  const filters = useAppStore((s) => s.graphFilters);
  const focus = useAppStore((s) => s.focusedPolicy);
  const selected = useAppStore((s) => s.selectedPolicy);
  const positions = useAppStore((s) => s.graphLayout.positions);
  const placed = useAppStore((s) => s.project.layout);
  const analysed = useAppStore((s) => s.analysis !== null);
  const highlighted = useAppStore((s) => s.highlightedPolicies);
  const [selectedEdge, setSelectedEdge] = useState<string | null>(null);
  const flow = useReactFlow();

  // Lay out again whenever the policies or their edges change.
  const shape = useMemo(
    () =>
      `${graph.nodes.map((n) => `${n.id}:${n.challenge}`).join(',')}|${graph.edges
        .map((e) => `${e.id}:${e.weight}`)
        .join(',')}`,
    [graph],
  );
  const firstLayout = useRef(true);
  useEffect(() => {
    if (graph.nodes.length === 0) return;
    const fresh = firstLayout.current;
    firstLayout.current = false;
    void store.getState().runLayout(graph, { fresh });
    // `shape` stands for the graph: a new analysis with the same policies and edges lays out nothing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shape, store]);

  const visible = useMemo(() => visibleGraph(graph, filters, focus), [graph, filters, focus]);
  const colourOf = useMemo(() => {
    const index = new Map(graph.categories.map((c, i) => [c, i]));
    return (category: string) => categoryColor(index.get(category) ?? 0, theme);
  }, [graph.categories, theme]);

  const derivedNodes = useMemo((): PolicyFlowNode[] => {
    const out: PolicyFlowNode[] = [];
    // A previewed sample picks its policies out; otherwise the search does.
    const picked = highlighted ? new Set(highlighted) : visible.matches;
    for (const policy of visible.nodes) {
      const hand = placed && Object.hasOwn(placed, policy.id) ? placed[policy.id] : undefined;
      const at = hand ?? positions.get(policy.id);
      if (!at) continue;
      const radius = nodeRadius(policy.challenge);
      out.push({
        id: policy.id,
        type: 'policy',
        position: { x: at.x, y: at.y },
        // Known sizes: React Flow needs not measure a thousand nodes, and the minimap draws them.
        width: radius * 2,
        height: radius * 2,
        selected: selected?.id === policy.id,
        ariaLabel: `Policy ${policy.id}, ${policy.category}, challenge ${policy.challenge}`,
        data: {
          policy,
          color: colourOf(policy.category),
          radius,
          dimmed: picked !== null && !picked.has(policy.id),
          matched: picked?.has(policy.id) ?? false,
          pinned: hand !== undefined,
        },
      });
    }
    return out;
  }, [visible, positions, placed, selected, colourOf, highlighted]);

  // Local copy so dragging is smooth; rebuilt whenever what it derives from changes.
  const [local, setLocal] = useState({ from: derivedNodes, nodes: derivedNodes });
  if (local.from !== derivedNodes) setLocal({ from: derivedNodes, nodes: derivedNodes });
  const nodes = local.from === derivedNodes ? local.nodes : derivedNodes;

  const edges = useMemo((): Edge[] => {
    const drawn = new Set(derivedNodes.map((n) => n.id));
    return visible.edges
      .filter((e) => drawn.has(e.source) && drawn.has(e.target))
      .map((e) => ({
        id: e.id,
        source: e.source,
        target: e.target,
        type: 'straight',
        selected: e.id === selectedEdge,
        className: `policy-edge is-${e.origin}`,
        ariaLabel: `${e.origin} relation between ${e.source} and ${e.target}, weight ${e.weight}`,
        style: styleOf(e, theme),
        ...(e.id === selectedEdge ? { label: String(e.weight) } : {}),
      }));
  }, [visible, derivedNodes, selectedEdge, theme]);

  const onNodesChange = useCallback(
    (changes: NodeChange<PolicyFlowNode>[]) => {
      setLocal(({ from, nodes: current }) => {
        const byId = new Map(current.map((n) => [n.id, n]));
        const moved: Record<string, { x: number; y: number }> = {};
        for (const change of changes) {
          if (change.type !== 'position' || !change.position) continue;
          const node = byId.get(change.id);
          if (node) byId.set(change.id, { ...node, position: change.position });
          if (!change.dragging) moved[change.id] = change.position;
        }
        if (Object.keys(moved).length > 0) {
          // Keep where the user put them (the drag ended, or arrow keys moved them).
          queueMicrotask(() => {
            store.getState().placePolicies(moved);
          });
        }
        return { from, nodes: current.map((n) => byId.get(n.id) ?? n) };
      });
      for (const change of changes) {
        if (change.type === 'select' && change.selected) store.getState().selectPolicy(change.id);
      }
    },
    [store],
  );

  const showInEditor = useCallback(
    (id: string) => {
      const span = selectPolicySpans(store.getState()).find((s) => s.id === id);
      if (!span) return;
      const text = store.getState().project.files['policies.yaml'];
      const before = text.slice(0, span.idAt);
      const line = before.split('\n').length;
      const column = span.idAt - before.lastIndexOf('\n');
      store.getState().revealAt('policies.yaml', line, column, false);
    },
    [store],
  );

  const onConnect: OnConnect = useCallback(
    ({ source, target }) => {
      if (!source || !target || source === target) return;
      store
        .getState()
        .editPolicies(`Connect ${source} and ${target}`, (text) =>
          setRelation(text, source, target, 5, 'manual'),
        );
    },
    [store],
  );

  const removeEdges = useCallback(
    (removed: Edge[]) => {
      const byId = new Map(graph.edges.map((e) => [e.id, e]));
      for (const { id } of removed) {
        const edge = byId.get(id);
        if (edge) dropEdge(store, edge);
      }
      setSelectedEdge(null);
    },
    [graph.edges, store],
  );

  // The graph's own undo: it is policies.yaml's history, shared with the editor.
  const onKeyDown = (event: KeyboardEvent) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
    const target = event.target as HTMLElement;
    if (target.closest('input, textarea, select')) return;
    const key = event.key.toLowerCase();
    const redo = (key === 'z' && event.shiftKey) || key === 'y';
    if (key !== 'z' && key !== 'y') return;
    event.preventDefault();
    if (redo) store.getState().redo('policies.yaml');
    else store.getState().undo('policies.yaml');
  };

  // The editor's cursor selected a policy: bring it into view.
  useEffect(() => {
    if (selected?.from !== 'editor') return;
    const node = flow.getInternalNode(selected.id);
    if (!node) return;
    const { x, y } = node.internals.positionAbsolute;
    void flow.setCenter(x, y, { zoom: Math.max(flow.getZoom(), 0.8), duration: 200 });
  }, [selected, flow]);

  // Fit the whole graph in view until the user pans or zooms: after the first layout, and when
  // the pane is resized (maximized, restored, dragged).
  const autoFit = useRef(true);
  const initialised = useNodesInitialized();
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (initialised && autoFit.current) void flow.fitView({ padding: 0.12 });
  }, [initialised, positions, flow]);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const observer = new ResizeObserver(() => {
      if (autoFit.current) void flow.fitView({ padding: 0.12 });
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
    };
  }, [flow]);
  const zoom = useStore((s) => s.transform[2]);

  const edgeDetails = selectedEdge ? graph.edges.find((e) => e.id === selectedEdge) : undefined;

  return (
    <div className="graph-canvas" data-testid="graph-canvas" onKeyDown={onKeyDown}>
      <GraphToolbar graph={graph} />
      <div ref={host} className={zoom < 0.85 ? 'graph-flow is-far' : 'graph-flow'}>
        <ReactFlow<PolicyFlowNode>
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          nodeOrigin={NODE_ORIGIN}
          onNodesChange={onNodesChange}
          onNodeClick={(_, node) => {
            setSelectedEdge(null);
            store.getState().selectPolicy(node.id, 'graph');
            showInEditor(node.id);
          }}
          onEdgeClick={(_, edge) => {
            setSelectedEdge(edge.id);
            store.getState().selectPolicy(null);
          }}
          onPaneClick={() => {
            setSelectedEdge(null);
            store.getState().selectPolicy(null);
          }}
          onConnect={onConnect}
          onMoveStart={(event) => {
            // Only a person's pan or zoom has an event; fitView's own moves do not.
            if (event) autoFit.current = false;
          }}
          onNodesDelete={(removed) => {
            for (const node of removed) {
              store
                .getState()
                .editPolicies(`Delete ${node.id}`, (text) => deletePolicy(text, node.id));
            }
          }}
          onEdgesDelete={removeEdges}
          deleteKeyCode={DELETE_KEYS}
          connectionMode={ConnectionMode.Loose}
          connectionRadius={40}
          colorMode={theme}
          onlyRenderVisibleElements
          minZoom={0.05}
          maxZoom={3}
          nodesFocusable
          edgesFocusable
          proOptions={{ hideAttribution: true }}
        >
          <Background gap={20} />
          <Controls showInteractive={false} />
          <MiniMap<PolicyFlowNode>
            pannable
            zoomable
            nodeColor={(n) => n.data.color}
            nodeBorderRadius={20}
            style={{ width: 150, height: 100 }}
            ariaLabel="Overview of the whole graph"
          />
        </ReactFlow>
        <GraphLegend categories={graph.categories} colourOf={colourOf} />
        {(selected || edgeDetails) && (
          <PolicyDetails
            graph={graph}
            policyId={selected?.id ?? null}
            edge={edgeDetails ?? null}
            onShowInEditor={showInEditor}
            onClose={() => {
              setSelectedEdge(null);
              store.getState().selectPolicy(null);
            }}
          />
        )}
        {graph.nodes.length === 0 && (
          <div className="graph-overlay">
            <EmptyState
              icon="graph"
              title={analysed ? 'No policies to draw' : 'Reading the project…'}
            >
              <p>
                Each policy in <code>policies.yaml</code> becomes a node, coloured by category and
                sized by challenge; relations between policies become weighted edges. Add one with
                the + button above.
              </p>
            </EmptyState>
          </div>
        )}
      </div>
    </div>
  );
}

/** The same stroke the SVG export draws. */
function styleOf(edge: GraphEdge, theme: 'light' | 'dark') {
  const { color, opacity, dash } = edgeStyle(edge.origin, theme);
  return {
    stroke: color,
    strokeOpacity: opacity,
    strokeWidth: edgeWidth(edge.weight),
    ...(dash ? { strokeDasharray: dash } : {}),
  };
}

/** Removes an edge: a written relation is deleted; a heuristic one is overruled with weight 0. */
function dropEdge(store: ReturnType<typeof useAppStoreApi>, edge: GraphEdge) {
  const label = `Remove the relation between ${edge.source} and ${edge.target}`;
  store
    .getState()
    .editPolicies(label, (text) =>
      edge.origin === 'heuristic'
        ? setRelation(text, edge.source, edge.target, 0, 'manual')
        : removeRelation(text, edge.source, edge.target),
    );
}
