import type { StateCreator } from 'zustand';
import type {
  GraphLayout,
  LayoutInput,
  LayoutResult,
  PolicyGraph,
  Point,
} from '../../core/index.ts';
import { nodeRadius } from '../../core/index.ts';
import type { AppState } from '../createAppStore.ts';

/** What the graph shows: a search, hidden categories, one tool, a weight floor. */
export interface GraphFilters {
  /** Matched against policy ids and texts, case-insensitively. */
  readonly search: string;
  readonly hiddenCategories: readonly string[];
  /** Only policies that use this tool, when set. */
  readonly tool: string | null;
  /**
   * Edges lighter than this are hidden (0 shows all). Null until the person sets it: then model
   * edges lighter than a default floor are hidden, so a fully rated project stays readable
   * (features/graph/visibleGraph.ts, `weightFloor`).
   */
  readonly minWeight: number | null;
  /**
   * Whether heuristic edges are drawn. Null until the person sets it: then they are drawn only
   * while no model has rated the project (`showsHeuristic` in features/graph/visibleGraph.ts),
   * since a model's ratings replace the guesses, and a pair it rated 0 is written nowhere.
   */
  readonly showHeuristic: boolean | null;
}

export const NO_FILTERS: GraphFilters = {
  search: '',
  hiddenCategories: [],
  tool: null,
  minWeight: null,
  showHeuristic: null,
};

/** A change to policies.yaml made from the graph: the new text, or why there is none. */
export type GraphEdit = { ok: true; text: string } | { ok: false; message: string };

/** Lays a graph out (in a worker in the page, in-thread in tests). */
export type Layouter = (
  input: LayoutInput,
  options: {
    seed: number;
    onProgress?: (done: number, total: number) => void;
    signal?: AbortSignal;
  },
) => Promise<LayoutResult>;

/** The automatic layout: where each policy goes, and how far a running layout has got. */
export interface GraphLayoutState {
  readonly positions: ReadonlyMap<string, Point>;
  /** 0-1 while a layout runs; null when none does. */
  readonly progress: number | null;
  /** Why the last layout failed, if it did. */
  readonly error: string | null;
}

/** The seed of every layout, so one project always lays out the same way. */
const LAYOUT_SEED = 7;

export interface GraphSlice {
  graphFilters: GraphFilters;
  /**
   * The selected policy, and whether the graph should bring it into view (true when it was
   * chosen elsewhere: the editor's cursor, the search, a neighbour's link; false for a click on
   * the node itself, which is in view already).
   */
  selectedPolicy: { readonly id: string; readonly centre: boolean } | null;
  /**
   * Whether the details panel is open (for the selected policy, or the relation the canvas has
   * selected). Selecting does not open it: a click on the graph does, the editor's cursor not.
   */
  detailsOpen: boolean;
  /** Show only this policy and its neighbours, when set. */
  focusedPolicy: string | null;
  /** Why the last graph edit could not be made, until the next one. */
  graphMessage: string | null;
  graphLayout: GraphLayoutState;
  /** Policies to pick out on the graph (a sample being previewed); null for none. */
  highlightedPolicies: readonly string[] | null;

  setGraphFilters: (patch: Partial<GraphFilters>) => void;
  selectPolicy: (id: string | null, options?: { centre?: boolean }) => void;
  /** Opens or closes the details panel; the selection stays as it is. */
  setDetailsOpen: (open: boolean) => void;
  focusPolicy: (id: string | null) => void;
  /** Applies an edit of policies.yaml as one undo step labelled `label`; false when refused. */
  editPolicies: (label: string, edit: (text: string) => GraphEdit) => boolean;
  /** Keeps policies where the user put them (merged into the project's layout). */
  placePolicies: (positions: GraphLayout) => void;
  /** Forgets every hand-placed position, so the automatic layout places all policies. */
  clearPlacements: () => void;
  dismissGraphMessage: () => void;
  highlightPolicies: (ids: readonly string[] | null) => void;
  /**
   * Lays the graph out, starting from the current positions (so an edit moves little) unless
   * `fresh`; hand-placed policies stay put. A newer request cancels a running one.
   */
  runLayout: (graph: PolicyGraph, options?: { fresh?: boolean }) => Promise<void>;
  cancelLayout: () => void;
}

/** Builds the slice behind the graph view around the given layouter. */
export function createGraphSlice(layouter: Layouter): StateCreator<AppState, [], [], GraphSlice> {
  return (set, get) => {
    let running: AbortController | undefined;
    return {
      graphFilters: NO_FILTERS,
      selectedPolicy: null,
      detailsOpen: false,
      focusedPolicy: null,
      graphMessage: null,
      graphLayout: { positions: new Map(), progress: null, error: null },
      highlightedPolicies: null,

      setGraphFilters: (patch) => {
        set((state) => ({ graphFilters: { ...state.graphFilters, ...patch } }));
      },
      selectPolicy: (id, { centre = false } = {}) => {
        const current = get().selectedPolicy;
        if (current?.id === id && current.centre === centre) return;
        // Nothing selected: nothing to show details of (a relation's panel reopens them itself).
        set(
          id === null
            ? { selectedPolicy: null, detailsOpen: false }
            : { selectedPolicy: { id, centre } },
        );
      },
      setDetailsOpen: (detailsOpen) => {
        if (get().detailsOpen !== detailsOpen) set({ detailsOpen });
      },
      focusPolicy: (focusedPolicy) => {
        set({ focusedPolicy });
      },
      editPolicies: (label, edit) => {
        const result = edit(get().project.files['policies.yaml']);
        if (!result.ok) {
          set({ graphMessage: result.message });
          return false;
        }
        set({ graphMessage: null });
        get().setFileText('policies.yaml', result.text, { origin: 'graph', label });
        return true;
      },
      placePolicies: (positions) => {
        set((state) => ({
          project: { ...state.project, layout: { ...state.project.layout, ...positions } },
        }));
      },
      clearPlacements: () => {
        set((state) => {
          const { layout: _dropped, ...project } = state.project;
          return { project };
        });
      },
      dismissGraphMessage: () => {
        set({ graphMessage: null });
      },
      highlightPolicies: (highlightedPolicies) => {
        set({ highlightedPolicies });
      },
      runLayout: async (graph, options = {}) => {
        running?.abort();
        const controller = new AbortController();
        running = controller;
        const placed = get().project.layout ?? {};
        const pinned = new Map<string, Point>();
        for (const node of graph.nodes) {
          const at = Object.hasOwn(placed, node.id) ? placed[node.id] : undefined;
          if (at) pinned.set(node.id, at);
        }
        const input: LayoutInput = {
          nodes: graph.nodes.map((n) => ({ id: n.id, radius: nodeRadius(n.challenge) })),
          edges: graph.edges.filter((e) => e.weight > 0),
          pinned,
          ...(options.fresh ? {} : { initial: get().graphLayout.positions }),
        };
        const update = (patch: Partial<GraphLayoutState>) => {
          if (running === controller) set((s) => ({ graphLayout: { ...s.graphLayout, ...patch } }));
        };
        update({ progress: 0, error: null });
        try {
          const result = await layouter(input, {
            seed: LAYOUT_SEED,
            signal: controller.signal,
            onProgress: (done, total) => {
              update({ progress: total > 0 ? done / total : 1 });
            },
          });
          update({ positions: result.positions, progress: null });
        } catch (error) {
          if (controller.signal.aborted) return;
          update({ progress: null, error: error instanceof Error ? error.message : String(error) });
        } finally {
          if (running === controller) running = undefined;
        }
      },
      cancelLayout: () => {
        running?.abort();
        running = undefined;
        set((s) => ({ graphLayout: { ...s.graphLayout, progress: null } }));
      },
    };
  };
}
