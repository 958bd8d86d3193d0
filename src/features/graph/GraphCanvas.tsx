import {
  Background,
  ConnectionMode,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useMemo, useRef } from 'react';
import { selectEffectiveTheme } from '../../state/selectors.ts';
import { graphSelectors } from '../../state/graphSelectors.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { GraphEmpty } from './GraphEmpty.tsx';
import { GraphLabels } from './GraphLabels.tsx';
import { GraphLegend } from './GraphLegend.tsx';
import { GraphReplayBanner } from './GraphReplayBanner.tsx';
import { GraphStaleNote } from './GraphStaleNote.tsx';
import { GraphPicture } from './GraphPicture.tsx';
import { GraphToolbar } from './GraphToolbar.tsx';
import { PolicyDetails } from './PolicyDetails.tsx';
import type { PolicyFlowNode } from './PolicyNode.tsx';
import { PolicyNode } from './PolicyNode.tsx';
import { relationEdges } from './flowElements.ts';
import { useDraggedNodes } from './useDraggedNodes.ts';
import { useFarPicture } from './useFarPicture.ts';
import { useGraphEdits } from './useGraphEdits.ts';
import { useGraphSelection } from './useGraphSelection.ts';
import { useHoveredPolicy } from './useHoveredPolicy.ts';
import { FIT, START, useGraphViewport } from './useGraphViewport.ts';
import { useHeatmap } from './useHeatmap.ts';
import { usePolicyNodes } from './usePolicyNodes.ts';
import { useRelayout } from './useRelayout.ts';

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
  const theme = useAppStore(selectEffectiveTheme);
  const graph = useAppStore(graphSelectors(useAppStoreApi()).selectPolicyGraph);
  const selected = useAppStore((s) => s.selectedPolicy);
  const detailsOpen = useAppStore((s) => s.detailsOpen);
  const analysed = useAppStore((s) => s.analysis !== null);
  const root = useRef<HTMLDivElement>(null);

  useRelayout(graph);
  const heat = useHeatmap(theme);
  const derived = usePolicyNodes(graph, theme, heat);
  const { nodes, onNodesChange } = useDraggedNodes(derived.nodes);
  const picture = useFarPicture(nodes, derived.edges);
  const selection = useGraphSelection(picture.pictureNodes ? nodes : null);
  const { selectedEdge } = selection;
  const edges = useMemo(
    () => (picture.asPicture ? [] : relationEdges(derived.edges, selectedEdge, theme, heat)),
    [derived.edges, picture.asPicture, selectedEdge, theme, heat],
  );
  const edits = useGraphEdits(graph, root, selection.selectEdge);
  const { host, onMoveStart, fit } = useGraphViewport(nodes);
  const hover = useHoveredPolicy();
  // Under the heatmap, the policies that failed most get their labels first.
  const failures = useMemo(
    () => (heat ? new Map(graph.nodes.map((n) => [n.id, heat.rate(n.id) ?? 0])) : undefined),
    [heat, graph.nodes],
  );

  const edgeDetails = selectedEdge ? graph.edges.find((e) => e.id === selectedEdge) : undefined;

  return (
    <div
      ref={root}
      className="graph-canvas"
      data-testid="graph-canvas"
      tabIndex={-1}
      onKeyDown={edits.onKeyDown}
    >
      <GraphToolbar graph={graph} />
      <div ref={host} className={picture.far ? 'graph-flow is-far' : 'graph-flow'}>
        <ReactFlow<PolicyFlowNode>
          nodes={picture.flowNodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          nodeOrigin={NODE_ORIGIN}
          onNodesChange={onNodesChange}
          onNodeClick={selection.onNodeClick}
          onNodeMouseEnter={hover.onNodeMouseEnter}
          onNodeMouseLeave={hover.onNodeMouseLeave}
          onEdgeClick={selection.onEdgeClick}
          onPaneClick={selection.onPaneClick}
          onConnect={edits.onConnect}
          onNodeDragStart={picture.onNodeDragStart}
          onNodeDragStop={picture.onNodeDragStop}
          onMoveStart={onMoveStart}
          onNodesDelete={edits.onNodesDelete}
          onEdgesDelete={edits.onEdgesDelete}
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
          {picture.asPicture && (
            <GraphPicture
              edges={derived.edges}
              nodes={picture.pictureNodes ? nodes : null}
              positions={picture.positions}
              theme={theme}
            />
          )}
          <Controls showInteractive={false} onFitView={fit} />
          {!picture.pictureNodes && (
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
        <GraphLabels
          nodes={nodes}
          edges={derived.edges}
          hovered={hover.hovered}
          failures={failures}
          host={host}
        />
        <GraphLegend
          categories={graph.categories}
          colourOf={derived.colourOf}
          byResults={heat !== null}
        />
        <GraphReplayBanner />
        <GraphStaleNote />
        {graph.nodes.length === 0 && <GraphEmpty analysed={analysed} />}
      </div>
      {detailsOpen && (selected || edgeDetails) && (
        <PolicyDetails
          graph={graph}
          policyId={selected?.id ?? null}
          edge={edgeDetails ?? null}
          onShowInEditor={selection.showInEditor}
          onClose={selection.close}
        />
      )}
    </div>
  );
}
