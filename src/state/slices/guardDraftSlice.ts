import type { StateCreator } from 'zustand';
import type { GuardDraftResult, GuardRule } from '../../core/index.ts';
import type { draftRule } from '../../core/assist/guardCheck.ts';
import type { draftGuard } from '../../core/assist/guardDraft.ts';
import type { addGuardRule } from '../../core/assist/guardEdit.ts';
import { NOTHING_SPENT, projectPrompts } from '../../core/index.ts';
import type { AppState } from '../createAppStore.ts';
import type { ModelServices } from './modelsSlice.ts';
import { assistPlayer } from './players.ts';

/** When the project fixes no clock, drafts are tried at the same time the playground uses. */
const DRAFT_NOW = '2026-06-15T12:00:00Z';

/** One guard drafting: for which policy, how far it got, and its result. */
export interface GuardDrafting {
  readonly policy: string;
  readonly status: 'drafting' | 'done';
  readonly result?: GuardDraftResult;
  /** The drafter runs in this browser: it cost nothing. */
  readonly free?: boolean;
  /** Set when accepting it failed (rules.yaml could not be edited), in words. */
  readonly problem?: string;
}

/** A draft rule tried in the rule playground before it is in rules.yaml, with calls to try. */
export interface PlaygroundTrial {
  readonly rule: GuardRule;
  readonly calls: readonly { readonly label: string; readonly args: Record<string, unknown> }[];
  readonly seq: number;
}

export interface GuardDraftSlice {
  guardDrafting: GuardDrafting | null;
  playgroundTrial: PlaygroundTrial | null;
  /** Asks the generator model for a guard rule for a policy (Models settings, role generator). */
  draftGuardRule: (policy: string) => Promise<void>;
  /** Stops the drafting in progress. */
  stopGuardDraft: () => void;
  /** Forgets the draft (the dialog closed). */
  clearGuardDraft: () => void;
  /** Adds the offered draft to rules.yaml as one undo step; false with `problem` set when it cannot. */
  acceptGuardDraft: () => boolean;
  /** Opens rules.yaml and the playground with the draft rule and its example calls. */
  tryGuardDraft: () => void;
  endPlaygroundTrial: () => void;
}

/** The guard drafting job: a model's draft, checked by core, offered whole or not. */
interface GuardCore {
  readonly draftGuard: typeof draftGuard;
  readonly draftRule: typeof draftRule;
  readonly addGuardRule: typeof addGuardRule;
}

export function createGuardDraftSlice(
  models: ModelServices | undefined,
): StateCreator<AppState, [], [], GuardDraftSlice> {
  let controller: AbortController | undefined;
  // The drafting code (CEL checks, the tool runtime) loads with the first draft, not with the page.
  let core: GuardCore | undefined;
  const load = async (): Promise<GuardCore> => {
    const [draft, check, edit] = await Promise.all([
      import('../../core/assist/guardDraft.ts'),
      import('../../core/assist/guardCheck.ts'),
      import('../../core/assist/guardEdit.ts'),
    ]);
    core = {
      draftGuard: draft.draftGuard,
      draftRule: check.draftRule,
      addGuardRule: edit.addGuardRule,
    };
    return core;
  };
  return (set, get) => ({
    guardDrafting: null,
    playgroundTrial: null,
    draftGuardRule: async (policy) => {
      controller?.abort();
      const model = get().analysis?.model;
      const drafter = assistPlayer(get());
      const finish = (result: GuardDraftResult) => {
        set({ guardDrafting: { policy, status: 'done', result, free: drafter?.free ?? false } });
      };
      if (!model || !drafter || !models) {
        finish({
          ok: false,
          why: ['No model is set up for the generator: choose one under Models in the header.'],
          stopped: false,
          spent: NOTHING_SPENT,
        });
        return;
      }
      const own = (controller = new AbortController());
      set({ guardDrafting: { policy, status: 'drafting' } });
      const { draftGuard } = core ?? (await load());
      const start = models.clock();
      const result = await draftGuard(model, policy, {
        drafter: drafter.player,
        template: projectPrompts(model).guardDraft,
        runtime: models.runtime,
        prices: drafter.prices,
        emit: get().assistEmitter('guard-draft'),
        clock: () => models.clock() - start,
        signal: own.signal,
        now: DRAFT_NOW,
      });
      if (controller === own) finish(result);
    },
    stopGuardDraft: () => {
      controller?.abort();
    },
    clearGuardDraft: () => {
      controller?.abort();
      controller = undefined;
      set({ guardDrafting: null });
    },
    acceptGuardDraft: () => {
      const drafting = get().guardDrafting;
      const result = drafting?.result;
      if (!drafting || !result?.ok || !core) return false;
      const edit = core.addGuardRule(get().project.files['rules.yaml'], result.draft);
      if (!edit.ok) {
        set({ guardDrafting: { ...drafting, problem: edit.message } });
        return false;
      }
      get().setFileText('rules.yaml', edit.text, {
        origin: 'command',
        label: `Add guard rule ${result.draft.id}`,
      });
      set({ guardDrafting: null, playgroundTrial: null });
      return true;
    },
    tryGuardDraft: () => {
      const result = get().guardDrafting?.result;
      if (!result?.ok || !core) return;
      const { draftRule } = core;
      const calls = [...result.examples, ...result.generated].map((e) => ({
        label: `${e.expect === undefined ? '' : `should ${e.expect}: `}${e.why === '' ? JSON.stringify(e.args) : e.why}`,
        args: { ...e.args },
      }));
      set((state) => ({
        playgroundTrial: {
          rule: draftRule(result.draft),
          calls,
          seq: (state.playgroundTrial?.seq ?? 0) + 1,
        },
      }));
      get().openFile('rules.yaml');
    },
    endPlaygroundTrial: () => {
      set({ playgroundTrial: null });
    },
  });
}
