import type { Edge, NodeChange, OnConnect } from '@xyflow/react';
import {
  Background,
  ConnectionMode,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useStore,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { KeyboardEvent } from 'react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { categoryColor, deletePolicy, nodeRadius, setRelation } from '../../core/index.ts';
import { selectEffectiveTheme } from '../../state/selectors.ts';
import { useAppStore, useAppStoreApi, useSelectors } from '../../state/useAppStore.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { EDGE_SVG_LIMIT, GraphPicture, NODE_DOM_LIMIT, policyNear } from './GraphPicture.tsx';
import { GraphLegend } from './GraphLegend.tsx';
import { GraphToolbar } from './GraphToolbar.tsx';
import { PolicyDetails } from './PolicyDetails.tsx';
import type { PolicyFlowNode } from './PolicyNode.tsx';
import { PolicyNode } from './PolicyNode.tsx';
import { dropEdge, positionsOf, styleOf } from './flowElements.ts';
import { useAutoFit } from './useAutoFit.ts';
import { visibleGraph } from './visibleGraph.ts';

// Defined once, outside any component, so React Flow never sees a new node type.
const NODE_TYPES = { policy: PolicyNode };
const NODE_ORIGIN: [number, number] = [0.5, 0.5];
const DELETE_KEYS = ['Delete', 'Backspace'];
// Nodes drawn into the picture are hidden from React Flow, but still count for fitting the view.
const FIT = { padding: 0.12, includeHiddenNodes: true };
// Start zoomed out, so a large graph's first frame is the picture, not a thousand elements.
const START = { x: 0, y: 0, zoom: 0.5 };

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
  const graph = useAppStore(useSelectors().selectPolicyGraph);
  const filters = useAppStore((s) => s.graphFilters);
  const focus = useAppStore((s) => s.focusedPolicy);
  const selected = useAppStore((s) => s.selectedPolicy);
  const positions = useAppStore((s) => s.graphLayout.positions);
  const placed = useAppStore((s) => s.project.layout);
  const analysed = useAppStore((s) => s.analysis !== null);
  const highlighted = useAppStore((s) => s.highlightedPolicies);
  const [selectedEdge, setSelectedEdge] = useState<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
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

  const drawnEdges = useMemo(() => {
    const drawn = new Set(derivedNodes.map((n) => n.id));
    return visible.edges.filter((e) => drawn.has(e.source) && drawn.has(e.target));
  }, [visible, derivedNodes]);
  // A boolean, so zooming re-renders this view only when labels (or real nodes) come or go.
  const far = useStore((s) => s.transform[2] < 0.85);
  // A large graph seen from afar is a picture; real nodes appear as the view closes in.
  const pictureNodes = far && nodes.length > NODE_DOM_LIMIT;
  const asPicture = pictureNodes || drawnEdges.length > EDGE_SVG_LIMIT;
  const flowNodes = useMemo(
    () => (pictureNodes ? nodes.map((n) => ({ ...n, hidden: true })) : nodes),
    [nodes, pictureNodes],
  );
  // The edge picture of a large graph is redrawn when a drag ends, not at every step of it.
  const [dragging, setDragging] = useState(false);
  const [pictured, setPictured] = useState(() => ({
    from: nodes,
    positions: positionsOf(nodes),
  }));
  if (!dragging && pictured.from !== nodes) {
    setPictured({ from: nodes, positions: positionsOf(nodes) });
  }
  const nodePositions = pictured.positions;

  const edges = useMemo((): Edge[] => {
    if (asPicture) return [];
    return drawnEdges.map((e) => ({
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
  }, [drawnEdges, asPicture, selectedEdge, theme]);

  const onNodesChange = useCallback(
    (changes: NodeChange<PolicyFlowNode>[]) => {
      // Only moves matter here: sizes are fixed, and selection lives in the store. Other changes
      // (React Flow measuring nodes as they scroll into view) must not copy a thousand nodes.
      const moves = changes.filter(
        (c): c is Extract<NodeChange<PolicyFlowNode>, { type: 'position' }> =>
          c.type === 'position' && c.position !== undefined,
      );
      if (moves.length > 0) {
        setLocal(({ from, nodes: current }) => {
          const byId = new Map(moves.map((c) => [c.id, c.position]));
          return {
            from,
            nodes: current.map((n) => {
              const position = byId.get(n.id);
              return position ? { ...n, position } : n;
            }),
          };
        });
        const placed: Record<string, { x: number; y: number }> = {};
        for (const move of moves) {
          if (!move.dragging && move.position) placed[move.id] = move.position;
        }
        // Keep where the user put them (the drag ended, or arrow keys moved them).
        if (Object.keys(placed).length > 0) store.getState().placePolicies(placed);
      }
      for (const change of changes) {
        if (change.type === 'select' && change.selected) store.getState().selectPolicy(change.id);
      }
    },
    [store],
  );

  const showInEditor = useCallback(
    (id: string) => {
      const span = store.selectors.selectPolicySpans(store.getState()).find((s) => s.id === id);
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

  // A policy chosen outside the graph (the editor's cursor, the search, a link): show it.
  useEffect(() => {
    if (!selected?.centre) return;
    const node = flow.getInternalNode(selected.id);
    if (!node) return;
    const { x, y } = node.internals.positionAbsolute;
    void flow.setCenter(x, y, { zoom: Math.max(flow.getZoom(), 0.8), duration: 200 });
  }, [selected, flow]);

  const { host, onMoveStart } = useAutoFit(FIT, positions);

  const edgeDetails = selectedEdge ? graph.edges.find((e) => e.id === selectedEdge) : undefined;

  return (
    <div
      ref={root}
      className="graph-canvas"
      data-testid="graph-canvas"
      tabIndex={-1}
      onKeyDown={onKeyDown}
    >
      <GraphToolbar graph={graph} />
      <div ref={host} className={far ? 'graph-flow is-far' : 'graph-flow'}>
        <ReactFlow<PolicyFlowNode>
          nodes={flowNodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          nodeOrigin={NODE_ORIGIN}
          onNodesChange={onNodesChange}
          onNodeClick={(_, node) => {
            setSelectedEdge(null);
            store.getState().selectPolicy(node.id);
            showInEditor(node.id);
          }}
          onEdgeClick={(_, edge) => {
            setSelectedEdge(edge.id);
            store.getState().selectPolicy(null);
          }}
          onPaneClick={(event) => {
            setSelectedEdge(null);
            const hit = pictureNodes
              ? policyNear(nodes, flow.screenToFlowPosition({ x: event.clientX, y: event.clientY }))
              : undefined;
            store.getState().selectPolicy(hit ?? null);
            if (hit) showInEditor(hit);
          }}
          onConnect={onConnect}
          onNodeDragStart={() => {
            setDragging(true);
          }}
          onNodeDragStop={() => {
            setDragging(false);
          }}
          onMoveStart={onMoveStart}
          onNodesDelete={(removed) => {
            for (const node of removed) {
              store
                .getState()
                .editPolicies(`Delete ${node.id}`, (text) => deletePolicy(text, node.id));
            }
            // The focused node is gone: keep the keyboard in the graph, so Ctrl+Z undoes here.
            root.current?.focus();
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
          fitViewOptions={FIT}
          defaultViewport={START}
        >
          <Background gap={20} />
          {asPicture && (
            <GraphPicture
              edges={drawnEdges}
              nodes={pictureNodes ? nodes : null}
              positions={nodePositions}
              theme={theme}
            />
          )}
          <Controls showInteractive={false} />
          {!pictureNodes && (
            <MiniMap<PolicyFlowNode>
              pannable
              zoomable
              nodeColor={(n) => n.data.color}
              nodeBorderRadius={20}
              style={{ width: 150, height: 100 }}
              ariaLabel="Overview of the whole graph"
            />
          )}
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
