import type { Edge } from '@xyflow/react';
import type { GraphEdge, GraphLayout, Point } from '../../core/index.ts';
import {
  edgeStyle,
  edgeWidth,
  nodeRadius,
  removeRelation,
  setRelation,
  untestedColor,
} from '../../core/index.ts';
import type { AppStore } from '../../state/createAppStore.ts';
import type { GraphLight } from '../../state/replaySelectors.ts';
import type { PolicyFlowNode } from './PolicyNode.tsx';
import type { VisibleGraph } from './visibleGraph.ts';

/** What the policy nodes show besides their policies: where they stand and how they are marked. */
export interface NodeMarks {
  /** Where the layout put each policy. */
  readonly positions: ReadonlyMap<string, Point>;
  /** Where the user put some by hand (the project's layout); these win over the layout. */
  readonly placed: GraphLayout | undefined;
  readonly selectedId: string | undefined;
  /** Policies a previewed sample or the search picked out; null when nothing is picked. */
  readonly picked: ReadonlySet<string> | null;
  readonly colourOf: (category: string) => string;
  /** The replayed step's policies to light; null when nothing is replayed. */
  readonly replay?: GraphLight | null;
  /** A run's results to colour the policies by, instead of their categories; null for none. */
  readonly heat?: HeatMarks | null;
}

/** A run's results on the graph: each policy's failure rate and colour, and the relations tested. */
export interface HeatMarks {
  /** Failed over tested dialogues; null when nothing tested the policy. */
  readonly rate: (id: string) => number | null;
  readonly colour: (id: string) => string;
  readonly tested: (edge: GraphEdge) => boolean;
}

/** How a replayed step marks a policy: broken here, concerned here, under test, or none of these. */
export type ReplayMark = 'breached' | 'lit' | 'in-play' | 'out';

/** A policy's mark for the replayed step. */
export function replayMark(light: GraphLight, id: string): ReplayMark {
  if (light.breached.has(id)) return 'breached';
  if (light.lit.has(id)) return 'lit';
  return light.inPlay.has(id) ? 'in-play' : 'out';
}

/** React Flow's nodes for the visible policies that have a position yet. */
export function policyNodes(visible: VisibleGraph, marks: NodeMarks): PolicyFlowNode[] {
  const { positions, placed, selectedId, picked, colourOf, replay, heat } = marks;
  const out: PolicyFlowNode[] = [];
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
      // Given as measured too, so a redraw (a replay step re-lighting nodes) never re-measures them.
      measured: { width: radius * 2, height: radius * 2 },
      selected: selectedId === policy.id,
      ariaLabel: `Policy ${policy.id}, ${policy.category}, challenge ${policy.challenge}`,
      data: {
        policy,
        color: heat ? heat.colour(policy.id) : colourOf(policy.category),
        radius,
        dimmed: picked !== null && !picked.has(policy.id),
        matched: picked?.has(policy.id) ?? false,
        pinned: hand !== undefined,
        ...(replay && { replay: replayMark(replay, policy.id) }),
        ...(heat && { failureRate: heat.rate(policy.id) }),
      },
    });
  }
  return out;
}

/**
 * React Flow's edges for the drawn relations; the selected one shows its weight. With a run's
 * results (`heat`), a relation no dialogue of the run tested is grey.
 */
export function relationEdges(
  drawn: readonly GraphEdge[],
  selectedEdge: string | null,
  theme: 'light' | 'dark',
  heat: HeatMarks | null = null,
): Edge[] {
  return drawn.map((e) => {
    const untested = heat !== null && !heat.tested(e);
    return {
      id: e.id,
      source: e.source,
      target: e.target,
      type: 'straight',
      selected: e.id === selectedEdge,
      className: `policy-edge is-${e.origin}${untested ? ' is-untested' : ''}`,
      ariaLabel: `${e.origin} relation between ${e.source} and ${e.target}, weight ${e.weight}${untested ? ', never tested in the run' : ''}`,
      style: untested
        ? { ...styleOf(e, theme), stroke: untestedColor(theme), strokeOpacity: 0.45 }
        : styleOf(e, theme),
      ...(e.id === selectedEdge ? { label: String(e.weight) } : {}),
    };
  });
}

/** Where each drawn node is, by policy id. */
export function positionsOf(
  nodes: readonly PolicyFlowNode[],
): ReadonlyMap<string, { x: number; y: number }> {
  return new Map(nodes.map((n) => [n.id, n.position]));
}

/** The same stroke the SVG export draws. */
export function styleOf(edge: GraphEdge, theme: 'light' | 'dark') {
  const { color, opacity, dash } = edgeStyle(edge.origin, theme);
  return {
    stroke: color,
    strokeOpacity: opacity,
    strokeWidth: edgeWidth(edge.weight),
    ...(dash ? { strokeDasharray: dash } : {}),
  };
}

/** Removes an edge: a written relation is deleted; a heuristic one is overruled with weight 0. */
export function dropEdge(store: AppStore, edge: GraphEdge) {
  const label = `Remove the relation between ${edge.source} and ${edge.target}`;
  store
    .getState()
    .editPolicies(label, (text) =>
      edge.origin === 'heuristic'
        ? setRelation(text, edge.source, edge.target, 0, 'manual')
        : removeRelation(text, edge.source, edge.target),
    );
}
