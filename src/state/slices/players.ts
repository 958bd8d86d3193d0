import type { ChatEngine } from '../../core/index.ts';
import { LOCAL_ENGINE } from '../../core/index.ts';
import type { AppState } from '../createAppStore.ts';

/** A model chosen for one role, with the engine that runs it. */
export interface ChosenPlayer {
  readonly engine: ChatEngine;
  readonly model: string;
}

/** The models a run (or a game of play) would use, per role; a role left out has none. */
export interface ChosenPlayers {
  readonly agent?: ChosenPlayer;
  readonly user?: ChosenPlayer;
  readonly judge?: ChosenPlayer;
  readonly generator?: ChosenPlayer;
  /** The agent's endpoint hosts the user's own bot: it is sent only the conversation. */
  readonly externalAgent: boolean;
  /** The models among these that run in this browser, and so cost nothing. */
  readonly freeModels: readonly string[];
}

/**
 * Picks the model for each role from the Models settings. The agent, the simulated user and the
 * generator run in this browser unless given an endpoint; the judge runs only when the user gave
 * it a model.
 */
export function choosePlayers(state: AppState): ChosenPlayers {
  const { roles, endpoints } = state.modelSettings;
  const localName = state.localModel.loaded?.name ?? 'local';
  const freeModels: string[] = [];
  const pick = (role: 'agent' | 'user' | 'generator'): ChosenPlayer | undefined => {
    const choice = roles[role];
    const engineId = choice?.engine ?? LOCAL_ENGINE;
    const engine = state.engineFor(engineId);
    const model = choice?.model ?? localName;
    if (engine && engineId === LOCAL_ENGINE) freeModels.push(model);
    return engine ? { engine, model } : undefined;
  };
  const agent = pick('agent');
  const user = pick('user');
  const generator = pick('generator');
  const judgeChoice = roles.judge;
  const judgeEngine = judgeChoice ? state.engineFor(judgeChoice.engine) : undefined;
  const judge =
    judgeChoice && judgeEngine ? { engine: judgeEngine, model: judgeChoice.model } : undefined;
  if (judge && judgeChoice?.engine === LOCAL_ENGINE) freeModels.push(judge.model);
  const externalAgent = endpoints.find((e) => e.id === roles.agent?.engine)?.hostsAgent === true;
  return {
    ...(agent && { agent }),
    ...(user && { user }),
    ...(judge && { judge }),
    ...(generator && { generator }),
    externalAgent,
    freeModels,
  };
}

/** A model an Assist action calls, in which role, and the prices its calls are counted at. */
export interface AssistPlayer {
  readonly player: ChosenPlayer;
  readonly role: 'generator' | 'judge';
  /** It runs in this browser: it costs nothing, so its calls are priced at 0. */
  readonly free: boolean;
  readonly prices: AppState['modelSettings']['prices'];
}

/**
 * The model for an Assist action: the generator's (proposals are generated), or for `judge`
 * work (rating) the judge's when one is chosen, else the generator's. Undefined when none is set.
 */
export function assistPlayer(
  state: AppState,
  work: 'generate' | 'judge' = 'generate',
): AssistPlayer | undefined {
  const players = choosePlayers(state);
  const judge = work === 'judge' ? players.judge : undefined;
  const player = judge ?? players.generator;
  if (!player) return undefined;
  const free = players.freeModels.includes(player.model);
  const { prices } = state.modelSettings;
  return {
    player,
    role: judge ? 'judge' : 'generator',
    free,
    prices: free
      ? { ...prices, [player.model]: { inputPerMillion: 0, outputPerMillion: 0 } }
      : prices,
  };
}
