import type { PolicyGraph, PolicySpan } from '../core/index.ts';
import { buildGraph, policySpans, sameGraph } from '../core/index.ts';
import type { AppState } from './createAppStore.ts';
import { perStore } from './perStore.ts';

const EMPTY_GRAPH: PolicyGraph = { nodes: [], edges: [], categories: [] };

/** The graph's memoised selectors, made once per store (`graphSelectors(store)`). */
export function createGraphSelectors() {
  let graphCache: { model: unknown; graph: PolicyGraph } | undefined;
  let spansCache: { text: string; spans: readonly PolicySpan[] } | undefined;

  /**
   * The policy graph of the latest analysis: rebuilt when the analysis changes, and the previous
   * object kept when the new one draws the same (typing in rules.yaml must not redraw the graph).
   */
  function selectPolicyGraph(state: AppState): PolicyGraph {
    const model = state.analysis?.model;
    if (!model) return EMPTY_GRAPH;
    if (graphCache?.model !== model) {
      const graph = buildGraph(model);
      graphCache = {
        model,
        graph: graphCache && sameGraph(graphCache.graph, graph) ? graphCache.graph : graph,
      };
    }
    return graphCache.graph;
  }

  /** Where each policy is written in policies.yaml, for jumping there and following the cursor. */
  function selectPolicySpans(state: AppState): readonly PolicySpan[] {
    const text = state.project.files['policies.yaml'];
    if (spansCache?.text !== text) spansCache = { text, spans: policySpans(text) };
    return spansCache.spans;
  }

  return { selectPolicyGraph, selectPolicySpans };
}

/** This store's graph selectors: `graphSelectors(store).select...`. */
export const graphSelectors = perStore(createGraphSelectors);
