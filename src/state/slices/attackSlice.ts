import type { StateCreator } from 'zustand';
import type { AssistEstimate, AttackResult, AttackTactic, ProjectModel } from '../../core/index.ts';
import type { acceptScenarios } from '../../core/assist/attackYaml.ts';
import { estimateAssist, projectPrompts, runClock } from '../../core/index.ts';
import type { AppState } from '../createAppStore.ts';
import type { ModelServices } from './modelsSlice.ts';
import { assistPlayer } from './players.ts';

/** The "Generate adversarial scenarios" job: the choice, its estimate, progress and the offer. */
export interface AttackState {
  readonly policies: readonly string[];
  readonly tactics: readonly AttackTactic[];
  /** What generating would cost with the generator model; null when nothing is chosen. */
  readonly estimate: AssistEstimate | null;
  /** The writer runs in this browser: what it spent cost nothing. */
  readonly free: boolean;
  readonly running: boolean;
  readonly progress: { readonly done: number; readonly total: number } | null;
  /** The pairs on offer (and the failures, the spend), until accepted or dismissed. */
  readonly result: AttackResult | null;
  /** What went wrong, shown as an alert. */
  readonly message: string | null;
  /** What was done (scenarios added), shown as a quiet status. */
  readonly notice: string | null;
}

export interface AttackSlice {
  attack: AttackState;
  /** Chooses policies and tactics; the estimate follows (once the writer's code has loaded). */
  chooseAttacks: (patch: {
    readonly policies?: readonly string[];
    readonly tactics?: readonly AttackTactic[];
  }) => Promise<void>;
  /** Asks the generator model for the chosen pairs; they are offered, never applied. */
  startAttacks: () => Promise<void>;
  /** Stops between calls (cancelling the one under way); what was made is offered. */
  stopAttacks: () => void;
  /** Appends the scenarios with these ids to scenarios.yaml as one undo step. */
  acceptAttacks: (ids: ReadonlySet<string>) => void;
  dismissAttacks: () => void;
}

const IDLE: AttackState = {
  policies: [],
  tactics: [
    'social-engineering',
    'false-authority',
    'split-request',
    'urgency',
    'earlier-approval',
  ],
  estimate: null,
  free: false,
  running: false,
  progress: null,
  result: null,
  message: null,
  notice: null,
};

/** The attack slice: model calls through the injected `ModelServices`, edits through the project. */
export function createAttackSlice(
  models: ModelServices | undefined,
): StateCreator<AppState, [], [], AttackSlice> {
  let controller: AbortController | null = null;
  // Loaded with the writer's code: only a generated result can be accepted.
  let acceptInto: typeof acceptScenarios | undefined;
  return (set, get) => {
    const patchAttack = (patch: Partial<AttackState>) => {
      set({ attack: { ...get().attack, ...patch } });
    };
    const template = (model: ProjectModel | undefined) =>
      projectPrompts({ prompts: model?.prompts ?? [] }).attack;
    return {
      attack: IDLE,
      chooseAttacks: async (patch) => {
        patchAttack(patch);
        // The writer's code (the scenario checks) loads when attacks are first chosen.
        const { sizeAttacks } = await import('../../core/assist/attack.ts');
        const state = get();
        const next = state.attack;
        const writer = assistPlayer(state);
        let estimate: AttackState['estimate'] = null;
        if (next.policies.length > 0 && next.tactics.length > 0) {
          try {
            estimate = estimateAssist(
              sizeAttacks(
                state.project,
                { policies: next.policies, tactics: next.tactics },
                template(state.analysis?.model),
              ),
              writer?.player.model ?? 'local',
              writer?.prices ?? state.modelSettings.prices,
              writer?.free ?? false,
            );
          } catch (error) {
            patchAttack({ estimate: null, message: messageOf(error) });
            return;
          }
        }
        patchAttack({ estimate, message: null });
      },
      startAttacks: async () => {
        const state = get();
        const { policies, tactics } = state.attack;
        const writer = assistPlayer(state);
        if (!models || !writer) {
          patchAttack({ message: 'Choose a model for the generator role under Models first.' });
          return;
        }
        if (policies.length === 0 || tactics.length === 0) {
          patchAttack({ message: 'Choose at least one policy and one tactic.' });
          return;
        }
        controller = new AbortController();
        patchAttack({
          running: true,
          free: writer.free,
          result: null,
          message: null,
          notice: null,
          progress: null,
        });
        try {
          const [{ generateAttacks }, yaml] = await Promise.all([
            import('../../core/assist/attack.ts'),
            import('../../core/assist/attackYaml.ts'),
          ]);
          acceptInto = yaml.acceptScenarios;
          const result = await generateAttacks(
            state.project,
            { policies, tactics },
            {
              writer: writer.player,
              runtime: models.runtime,
              prices: writer.prices,
              emit: get().assistEmitter('attack'),
              clock: runClock(models.clock),
              signal: controller.signal,
              template: template(state.analysis?.model),
              onProgress: (done, total) => {
                patchAttack({ progress: { done, total } });
              },
            },
          );
          patchAttack({ running: false, result });
        } catch (error) {
          patchAttack({ running: false, message: messageOf(error) });
        } finally {
          controller = null;
        }
      },
      stopAttacks: () => {
        controller?.abort();
      },
      acceptAttacks: (ids) => {
        const state = get();
        const result = state.attack.result;
        if (!result || !acceptInto) return;
        const edit = acceptInto(state.project.files['scenarios.yaml'], result.pairs, ids);
        if (!edit.ok) {
          patchAttack({ message: `scenarios.yaml was not changed: ${edit.message}` });
          return;
        }
        if ((edit.count ?? 0) > 0)
          state.setFileText('scenarios.yaml', edit.text, {
            origin: 'command',
            label: `Add ${plural(edit.count ?? 0, 'adversarial or contrastive scenario')}`,
          });
        patchAttack({
          result: null,
          progress: null,
          message: null,
          notice: `Added ${plural(edit.count ?? 0, 'scenario')} to scenarios.yaml.`,
        });
      },
      dismissAttacks: () => {
        patchAttack({ result: null, progress: null, message: null });
      },
    };
  };
}

/** `1 scenario`, `2 scenarios`. */
function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
