import { describe, expect, it } from 'vitest';
import type { ChatEngine } from '../core/index.ts';
import { analyzeProject } from '../core/index.ts';
import { storeWithEngine } from '../test/modelStore.ts';
import { modelReply, waitingRuntime } from '../test/scriptedModels.ts';
import type { LocalModels } from './slices/localModelSlice.ts';
import type { ModelServices } from './slices/modelsSlice.ts';
import { assistPlayer } from './slices/players.ts';

/** Rates every pair it is asked about 5, as the in-browser model. */
const rater: ChatEngine = {
  chat: (request) => {
    const others = (request.messages[0]?.content ?? '').split('The other policies')[1] ?? '';
    const ratings = [...others.matchAll(/^([a-z-]+): /gm)].map((m) => ({
      other: m[1],
      weight: 5,
      reason: 'they meet',
    }));
    return Promise.resolve(modelReply(JSON.stringify({ ratings })));
  },
};

/** The mini project with the in-browser model loaded (and no endpoint, no role chosen). */
async function withLocalModel() {
  const models: ModelServices = {
    remote: () => ({
      chat: (request, options) => rater.chat(request, options),
      listModels: () => Promise.resolve([]),
    }),
    local: { engine: rater } as unknown as LocalModels,
    runtime: waitingRuntime(0).runtime,
    clock: () => 0,
  };
  const { store } = storeWithEngine(rater, { models });
  await store.getState().boot({ example: 'mini' });
  store.setState({
    localModel: { ...store.getState().localModel, loaded: { name: 'tiny-local' } as never },
  });
  const { project } = store.getState();
  store.getState().setAnalysis(analyzeProject(project), project.files);
  return store;
}

describe('Assist with the model in this browser', () => {
  it('runs on it when no endpoint is chosen, and counts it free before and after', async () => {
    const store = await withLocalModel();
    const chosen = assistPlayer(store.getState());
    expect(chosen).toMatchObject({
      role: 'generator',
      free: true,
      player: { model: 'tiny-local' },
    });
    expect(chosen?.prices['tiny-local']).toEqual({ inputPerMillion: 0, outputPerMillion: 0 });

    const plan = store.getState().planRelations();
    if (!plan.ok) throw new Error(plan.message);
    expect(plan.estimate).toMatchObject({ model: 'tiny-local', free: true, cost: 0 });
    expect(plan.estimate.calls).toBeGreaterThan(0);

    await store.getState().rateRelations();
    expect(store.getState().relateJob).toMatchObject({ free: true, spent: { cost: 0 } });
    const log = store.getState().assistLog;
    expect(log).toHaveLength(plan.estimate.calls);
    expect(log.every((e) => e.model === 'tiny-local' && e.cost === 0)).toBe(true);
    const job = store.getState().relateJob;
    expect((job?.written ?? 0) + (job?.kept ?? 0)).toBe(plan.pairs);
  });

  it('prices an endpoint’s model from the table, and says when it has no price', async () => {
    const store = await withLocalModel();
    const id = store.getState().addEndpoint({
      kind: 'openai',
      label: 'E',
      baseUrl: 'http://127.0.0.1:9/v1',
      defaultModel: 'far',
    });
    store.getState().setRoleModel('generator', { engine: id, model: 'far' });
    expect(assistPlayer(store.getState())).toMatchObject({ free: false });
    const plan = store.getState().planRelations();
    expect(plan.ok && plan.estimate).toMatchObject({ model: 'far', free: false, cost: null });
  });
});
