import { createMemoryStore } from '../adapters/storage/preferences.ts';
import { createMemoryRunRepository } from '../adapters/storage/runRepository.ts';
import type { ChatEngine } from '../core/index.ts';
import { createAppStore } from '../state/createAppStore.ts';
import type { ModelServices } from '../state/slices/modelsSlice.ts';
import { waitingRuntime } from './scriptedModels.ts';
import { testServices } from './services.ts';

/**
 * A store whose endpoints all answer through `chat`, with runs kept in memory. No sleep ends on
 * its own (no retry waits, no time limit), unless the test calls `expire(ms)`.
 */
export function storeWithEngine(chat: ChatEngine) {
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
  const store = createAppStore(testServices({ preferences: createMemoryStore(), runs, models }));
  return { store, runs, expire };
}

/** Opens the mini example and gives the agent and the simulated user one endpoint, model "m". */
export async function withEndpointModels(store: ReturnType<typeof createAppStore>) {
  await store.getState().boot({ example: 'mini' });
  const id = store.getState().addEndpoint({
    kind: 'openai',
    label: 'E',
    baseUrl: 'http://127.0.0.1:9/v1',
    defaultModel: 'm',
  });
  store.getState().setRoleModel('agent', { engine: id, model: 'm' });
  store.getState().setRoleModel('user', { engine: id, model: 'm' });
}
