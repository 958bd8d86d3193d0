import type { StateCreator } from 'zustand';
import type { AssistEstimate, AssistSpent, CandidatePolicy } from '../../core/index.ts';
import { estimateAssist, meteredContext, projectPrompts } from '../../core/index.ts';
import type { ExtractResult } from '../../core/assist/extractByModel.ts';
import type { ReviewedProposal } from '../../core/assist/extractReview.ts';
import type { AppState } from '../createAppStore.ts';
import type { ModelServices } from './modelsSlice.ts';
import { assistPlayer } from './players.ts';

/** "Ask a model" in the Extract dialog: why it cannot start, its estimate, its run, its result. */
export type ExtractJob =
  | { readonly status: 'unavailable'; readonly message: string }
  | {
      readonly status: 'planned';
      readonly estimate: AssistEstimate;
      /** How many sections (one call each) and flows (distinct headings) agent.md has. */
      readonly sections: number;
      readonly flows: number;
    }
  | {
      readonly status: 'running';
      readonly estimate: AssistEstimate;
      readonly done: number;
      readonly total: number;
    }
  | {
      readonly status: 'done';
      readonly estimate: AssistEstimate;
      readonly proposals: readonly ReviewedProposal[];
      /** Rules-based candidates no proposal states. */
      readonly missed: readonly CandidatePolicy[];
      readonly flows: ExtractResult['flows'];
      /** Failed calls and what was wrong with answers, in words. */
      readonly problems: readonly string[];
      readonly stopped: boolean;
      readonly spent: AssistSpent;
      /** Set when writing policies.yaml failed, in words. */
      readonly acceptProblem?: string;
    };

export interface ExtractSlice {
  extractJob: ExtractJob | null;
  /** Works out the calls and the estimate of extracting agent.md's policies with a model. */
  planExtraction: () => Promise<void>;
  /** One call per section of agent.md, on the generator's model; the proposals wait for review. */
  extractWithModel: () => Promise<void>;
  /** Stops between (or during) calls; what was answered is kept. */
  stopExtraction: () => void;
  /** Adds the chosen proposals to policies.yaml as one undo step; false when nothing was added. */
  acceptExtraction: (ids: readonly string[]) => boolean;
  /** Forgets the proposals (the dialog closed). */
  dismissExtraction: () => void;
}

/** What the model is told the project has: its tools, the categories it may use, the ids taken. */
function knownOf(state: AppState, listed: readonly string[]) {
  const model = state.analysis?.model;
  const policies = model?.policies ?? [];
  // The documented list first, then the project's own categories it lacks.
  const categories = [...new Set([...listed, ...policies.map((p) => p.category)])];
  return {
    tools: (model?.tools ?? []).map((t) => t.name),
    categories,
    ids: policies.map((p) => p.id),
    policies,
    template: model ? projectPrompts(model).extractPolicies : undefined,
  };
}

/** The extraction code loads with the first use of the dialog's model part, not with the page. */
const loadCore = async () => {
  const [run, review, rules, call] = await Promise.all([
    import('../../core/assist/extractByModel.ts'),
    import('../../core/assist/extractReview.ts'),
    import('../../core/extract.ts'),
    import('../../core/assist/assistCall.ts'),
  ]);
  return { ...run, ...review, ...rules, ...call };
};

/** Builds the slice behind "Ask a model" in the Extract policies dialog. */
export function createExtractSlice(
  models: ModelServices | undefined,
): StateCreator<AppState, [], [], ExtractSlice> {
  let controller: AbortController | undefined;
  // Loaded by the first plan; a job is only ever done after it loaded.
  let loaded: Awaited<ReturnType<typeof loadCore>> | undefined;
  const load = async () => (loaded ??= await loadCore());
  return (set, get) => ({
    extractJob: null,

    planExtraction: async () => {
      const core = await load();
      const state = get();
      const chosen = assistPlayer(state);
      if (!chosen || !models) {
        set({
          extractJob: {
            status: 'unavailable',
            message: 'Choose a model for the generator first (Models in the header).',
          },
        });
        return;
      }
      const known = knownOf(state, core.POLICY_CATEGORIES);
      const plan = core.planExtract(
        state.project.files['agent.md'],
        known.tools,
        known.categories,
        known.template,
      );
      if (plan.calls === 0) {
        set({ extractJob: { status: 'unavailable', message: 'agent.md has no text to read.' } });
        return;
      }
      set({
        extractJob: {
          status: 'planned',
          // Each section's answer may need its one repair turn.
          estimate: estimateAssist(
            { ...plan, maxCalls: plan.calls * 2 },
            chosen.player.model,
            chosen.prices,
            chosen.free,
          ),
          sections: plan.calls,
          flows: new Set(plan.sections.map((s) => s.title)).size,
        },
      });
    },

    extractWithModel: async () => {
      const job = get().extractJob;
      if (job?.status !== 'planned' || !models) return;
      const core = await load();
      const state = get();
      const chosen = assistPlayer(state);
      if (!chosen) return;
      const known = knownOf(state, core.POLICY_CATEGORIES);
      const prompt = state.project.files['agent.md'];
      const plan = core.planExtract(prompt, known.tools, known.categories, known.template);
      const own = (controller = new AbortController());
      const { estimate } = job;
      set({ extractJob: { status: 'running', estimate, done: 0, total: plan.calls } });
      const start = models.clock();
      const metered = meteredContext({
        runtime: models.runtime,
        prices: chosen.prices,
        clock: () => models.clock() - start,
        signal: own.signal,
        emit: get().assistEmitter('extract'),
      });
      const schema = { name: 'extract_policies', schema: core.EXTRACT_ANSWER_SCHEMA };
      const result = await core.extractByModel(
        prompt,
        plan,
        known,
        (text) => core.askJson(chosen.player, metered.context, text, schema, chosen.role),
        {
          ...(known.template && { template: known.template }),
          stopped: () => own.signal.aborted,
          onProgress: (done) => {
            const now = get().extractJob;
            if (now?.status === 'running' && controller === own)
              set({ extractJob: { ...now, done } });
          },
        },
      );
      if (controller !== own) return;
      controller = undefined;
      // Flows are written only when the prompt has more than one.
      const severalFlows = new Set(plan.sections.map((s) => s.title)).size > 1;
      const candidates = severalFlows
        ? result.candidates
        : result.candidates.map((c) => ({ ...c, flows: [] }));
      const ruleBased = core.newCandidates(
        core.extractPolicies(prompt, get().analysis?.model.tools ?? []),
        known.policies,
      );
      const review = core.reviewProposals(candidates, ruleBased, known.policies);
      set({
        extractJob: {
          status: 'done',
          estimate,
          proposals: review.proposals,
          missed: review.missed,
          flows: severalFlows ? result.flows : [],
          problems: result.problems,
          stopped: result.stopped || own.signal.aborted,
          spent: metered.spent(),
        },
      });
    },

    stopExtraction: () => {
      controller?.abort();
    },

    acceptExtraction: (ids) => {
      const job = get().extractJob;
      if (job?.status !== 'done' || !loaded) return false;
      const { addPoliciesToYaml } = loaded;
      const chosen = job.proposals.filter((p) => ids.includes(p.candidate.id));
      const before = get().project.files['policies.yaml'];
      const after = addPoliciesToYaml(
        before,
        chosen.map((p) => p.candidate),
      );
      if (after === before) {
        set({
          extractJob: {
            ...job,
            acceptProblem:
              chosen.length === 0
                ? 'No proposal is ticked.'
                : 'policies.yaml could not take them: fix its errors, or untick the ones it already holds.',
          },
        });
        return false;
      }
      get().setFileText('policies.yaml', after, {
        origin: 'command',
        label: `Add ${chosen.length} extracted polic${chosen.length === 1 ? 'y' : 'ies'}`,
      });
      set({ extractJob: null });
      return true;
    },

    dismissExtraction: () => {
      controller?.abort();
      controller = undefined;
      set({ extractJob: null });
    },
  });
}
