import type { Diagnostic, PolicyGraph, PolicySpan } from '../core/index.ts';
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
    // A typo that breaks policies.yaml's YAML keeps the graph as it last parsed (see selectGraphStale).
    if (graphCache && policiesBroken(state)) return graphCache.graph;
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

  /**
   * Why the graph on screen is the one policies.yaml last parsed to: its YAML is broken now (the
   * first such problem), or null when the graph is the text's own.
   */
  function selectGraphStale(state: AppState): Diagnostic | null {
    if (!graphCache || !state.analysis) return null;
    return brokenYaml(state.analysis.diagnostics) ?? null;
  }

  return { selectPolicyGraph, selectPolicySpans, selectGraphStale };
}

/** The first YAML syntax error of policies.yaml, if it has one. */
function brokenYaml(diagnostics: readonly Diagnostic[]): Diagnostic | undefined {
  return diagnostics.find((d) => d.file === 'policies.yaml' && d.code === 'yaml-syntax');
}

function policiesBroken(state: AppState): boolean {
  return brokenYaml(state.analysis?.diagnostics ?? []) !== undefined;
}

/** This store's graph selectors: `graphSelectors(store).select...`. */
export const graphSelectors = perStore(createGraphSelectors);
