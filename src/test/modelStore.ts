import { createMemoryStore } from '../adapters/storage/preferences.ts';
import { createMemoryRunRepository } from '../adapters/storage/runRepository.ts';
import type { ChatEngine, Project } from '../core/index.ts';
import type { AppServices } from '../state/createAppStore.ts';
import { createAppStore } from '../state/createAppStore.ts';
import type { ModelServices } from '../state/slices/modelsSlice.ts';
import { waitingRuntime } from './scriptedModels.ts';
import { testServices } from './services.ts';

/**
 * A store whose endpoints all answer through `chat`, with runs kept in memory. No sleep ends on
 * its own (no retry waits, no time limit), unless the test calls `expire(ms)`.
 */
export function storeWithEngine(
  chat: ChatEngine,
  overrides: Partial<AppServices> = {},
  initial: { project?: Project } = {},
) {
  const runs = createMemoryRunRepository();
  const { runtime, expire } = waitingRuntime(0);
  const models: ModelServices = {
    remote: () => ({
      chat: (request, options) => chat.chat(request, options),
      listModels: () => Promise.resolve([]),
    }),
    runtime,
    clock: () => 0,
  };
  const store = createAppStore(
    testServices({ preferences: createMemoryStore(), runs, models, ...overrides }),
    initial,
  );
  return { store, runs, expire };
}

/** A price for the endpoint model "m", so runs with a dollar budget can count what they spend. */
export const M_PRICE = { inputPerMillion: 1, outputPerMillion: 2 };

/**
 * Opens the mini example (unless `boot` is false: the store keeps its project) and gives the
 * agent and the simulated user one endpoint, model "m", priced at `M_PRICE`.
 */
export async function withEndpointModels(store: ReturnType<typeof createAppStore>, boot = true) {
  if (boot) await store.getState().boot({ example: 'mini' });
  store.getState().setPrice('m', M_PRICE);
  const id = store.getState().addEndpoint({
    kind: 'openai',
    label: 'E',
    baseUrl: 'http://127.0.0.1:9/v1',
    defaultModel: 'm',
  });
  store.getState().setRoleModel('agent', { engine: id, model: 'm' });
  store.getState().setRoleModel('user', { engine: id, model: 'm' });
  return id;
}
