import type { StateCreator } from 'zustand';
import type {
  AssistEstimate,
  AssistSpent,
  KeyValueStore,
  RelateCache,
  RelatePolicy,
} from '../../core/index.ts';
import {
  RELATE_CACHE_KEY,
  estimateAssist,
  keptRelateCache,
  pairKeysOf,
  planRelate,
  projectPrompts,
  readRelateCache,
  sizeRelate,
  writeRelateCache,
} from '../../core/index.ts';
import type { AppState } from '../createAppStore.ts';
import type { ModelServices } from './modelsSlice.ts';
import { assistPlayer } from './players.ts';

/** Where "Rate relations" stands: before (its estimate), while it runs, and after. */
export interface RelateJob {
  readonly running: boolean;
  readonly done: number;
  readonly total: number;
  readonly spent: AssistSpent | null;
  /** The model ran in this browser: it cost nothing. */
  readonly free: boolean;
  readonly stopped: boolean;
  /** Failed calls and bad answers, in words. */
  readonly problems: readonly string[];
  /** Relations written to policies.yaml, and hand-written ones left as they were. */
  readonly written: number;
  readonly kept: number;
}

/** What rating the current policies would take, or why it cannot start. */
export type RelatePlanView =
  | {
      readonly ok: true;
      readonly pairs: number;
      readonly estimate: AssistEstimate;
    }
  | { readonly ok: false; readonly message: string };

export interface RelateSlice {
  /**
   * The model's ratings by pair of policy contents, so an edit re-rates only its pairs; kept in
   * this browser's preferences, so a reload re-rates nothing that did not change.
   */
  relateCache: RelateCache;
  relateJob: RelateJob | null;
  /** The calls, tokens and cost of rating what is not rated yet, with the chosen model. */
  planRelations: () => RelatePlanView;
  /** Rates what is not rated yet and writes the ratings to policies.yaml as one undo step. */
  rateRelations: () => Promise<void>;
  /** Stops between calls; what was rated so far is kept and written. */
  stopRelations: () => void;
}

/** The judge's model when one is chosen (rating is judging), else the generator's. */
const rater = (state: AppState) => assistPlayer(state, 'judge');

function policiesOf(state: AppState): readonly RelatePolicy[] {
  return state.analysis?.model.policies ?? [];
}

/**
 * Builds the slice behind "Rate relations" in the graph pane; `preferences` keeps the ratings on
 * this device (bounded; a stored value that does not read is ignored).
 */
export function createRelateSlice(
  models: ModelServices | undefined,
  preferences?: KeyValueStore,
): StateCreator<AppState, [], [], RelateSlice> {
  let controller: AbortController | undefined;
  const stored = () => readRelateCache(preferences?.getItem(RELATE_CACHE_KEY) ?? null);
  return (set, get) => ({
    relateCache: stored(),
    relateJob: null,

    planRelations: () => {
      const state = get();
      const chosen = rater(state);
      if (!chosen || !models) {
        return {
          ok: false,
          message: 'Choose a model for the judge or the generator first (Models in the header).',
        };
      }
      const policies = policiesOf(state);
      const plan = planRelate(policies, state.relateCache);
      const template = state.analysis ? projectPrompts(state.analysis.model).relate : undefined;
      const estimate = estimateAssist(
        sizeRelate(plan, policies, template),
        chosen.player.model,
        chosen.prices,
        chosen.free,
      );
      const pairs = plan.reduce((sum, batch) => sum + batch.others.length, 0);
      return { ok: true, pairs, estimate };
    },

    rateRelations: async () => {
      const state = get();
      const chosen = rater(state);
      if (!chosen || !models || state.relateJob?.running || !state.analysis) return;
      const policies = policiesOf(state);
      const template = projectPrompts(state.analysis.model).relate;
      controller = new AbortController();
      set({
        relateJob: {
          running: true,
          done: 0,
          total: planRelate(policies, state.relateCache).length,
          spent: null,
          free: chosen.free,
          stopped: false,
          problems: [],
          written: 0,
          kept: 0,
        },
      });
      // The model calls and the YAML edit load on first use, not with the page.
      const [{ rateRelations }, { setRelations }, { currentRatings }] = await Promise.all([
        import('../../core/assist/relateRun.ts'),
        import('../../core/graph/edits.ts'),
        import('../../core/assist/relate.ts'),
      ]);
      const outcome = await rateRelations(policies, state.relateCache, {
        player: chosen.player,
        role: chosen.role,
        template,
        context: {
          runtime: models.runtime,
          prices: chosen.prices,
          clock: models.clock,
          signal: controller.signal,
          emit: get().assistEmitter('relate'),
        },
        onProgress: (done, total) => {
          const job = get().relateJob;
          if (job) set({ relateJob: { ...job, done, total } });
        },
      });
      // The policies may have been edited meanwhile: write the ratings of today's pairs.
      const ratings = currentRatings(policiesOf(get()), outcome.cache);
      const edit = setRelations(get().project.files['policies.yaml'], ratings, 'model');
      if (edit.ok && edit.splices.length > 0) get().editPolicies('Rate relations', () => edit);
      if (!edit.ok) set({ graphMessage: edit.message });
      const { written, kept } = edit.ok ? edit : { written: 0, kept: 0 };
      // Merged with what another tab kept meanwhile; today's pairs are the last to go.
      const cache = keptRelateCache(stored(), outcome.cache, pairKeysOf(policiesOf(get())));
      preferences?.setItem(RELATE_CACHE_KEY, writeRelateCache(cache));
      set({
        relateCache: cache,
        relateJob: {
          running: false,
          done: get().relateJob?.done ?? 0,
          total: outcome.planned,
          spent: outcome.spent,
          free: chosen.free,
          stopped: outcome.stopped,
          problems: outcome.problems,
          written,
          kept,
        },
      });
    },

    stopRelations: () => {
      controller?.abort();
    },
  });
}
