import { describe, expect, it } from 'vitest';
import type { ChatEngine, ChatRequest } from '../core/index.ts';
import { analyzeProject } from '../core/index.ts';
import { createMemoryStore } from '../adapters/storage/preferences.ts';
import type { KeyValueStore } from '../core/index.ts';
import { storeWithEngine, withEndpointModels } from '../test/modelStore.ts';
import { modelReply } from '../test/scriptedModels.ts';

const POLICIES = `# The desk's policies.
policies:
  - { id: refund-window, text: Refunds within thirty days., category: refunds, challenge: 2 }
  - { id: refund-limit, text: Refunds over 500 need a manager., category: refunds, challenge: 3 }
  - { id: verify-identity, text: Verify the customer first., category: identity, challenge: 2 }
  - { id: greeting, text: Greet warmly., category: tone, challenge: 1 }
relations:
  - { between: [refund-window, verify-identity], weight: 1, origin: manual } # we know
`;

/** Rates every pair 6 and records what it was asked. */
function rater() {
  const seen: ChatRequest[] = [];
  const engine: ChatEngine = {
    chat: (request) => {
      seen.push(request);
      const others = (request.messages[0]?.content ?? '').split('The other policies')[1] ?? '';
      const ratings = [...others.matchAll(/^([a-z-]+): /gm)].map((m) => ({
        other: m[1],
        weight: 6,
        reason: 'both come up',
      }));
      return Promise.resolve(modelReply(JSON.stringify({ ratings })));
    },
  };
  return { engine, seen };
}

async function ready(engine: ChatEngine, preferences: KeyValueStore = createMemoryStore()) {
  const { store } = storeWithEngine(engine, { preferences });
  const id = await withEndpointModels(store);
  const analyse = () => {
    const { project } = store.getState();
    store.getState().setAnalysis(analyzeProject(project), project.files);
  };
  store.getState().setFileText('policies.yaml', POLICIES);
  analyse();
  return { store, id, analyse };
}

describe('relate slice', () => {
  it('stops between calls on Stop and writes what was rated', async () => {
    const { engine, seen } = rater();
    let stop = () => {};
    const stopping: ChatEngine = {
      chat: (request, options) => {
        if (seen.length === 1) stop();
        return engine.chat(request, options);
      },
    };
    const { store, id } = await ready(stopping);
    stop = () => {
      store.getState().stopRelations();
    };
    store.getState().setRoleModel('judge', { engine: id, model: 'm' });
    await store.getState().rateRelations();
    expect(seen).toHaveLength(2);
    expect(store.getState().relateJob).toMatchObject({ running: false, stopped: true, total: 3 });
    // Two calls rated refund-window's 3 pairs and refund-limit's 2; the manual one stays.
    const text = store.getState().project.files['policies.yaml'];
    expect(text.match(/origin: model/g)).toHaveLength(4);
    expect(text).not.toContain('[verify-identity, greeting]');
    expect(store.getState().planRelations()).toMatchObject({ ok: true, pairs: 1 });
  });

  it('asks for a model before it can rate', async () => {
    const { store } = await ready(rater().engine);
    expect(store.getState().planRelations()).toEqual({
      ok: false,
      message: 'Choose a model for the judge or the generator first (Models in the header).',
    });
  });

  it('estimates, rates, writes model relations as one undo step, then re-rates only an edit', async () => {
    const { engine, seen } = rater();
    const { store, id, analyse } = await ready(engine);
    store.getState().setRoleModel('judge', { engine: id, model: 'm' });
    const plan = store.getState().planRelations();
    expect(plan).toMatchObject({ ok: true, pairs: 6, estimate: { calls: 3, model: 'm' } });
    if (plan.ok) expect(plan.estimate.cost).toBeGreaterThan(0);

    await store.getState().rateRelations();
    expect(seen).toHaveLength(3);
    const text = store.getState().project.files['policies.yaml'];
    expect(text).toContain('# The desk');
    expect(text).toContain(
      '{ between: [refund-window, verify-identity], weight: 1, origin: manual } # we know',
    );
    expect(text).toContain(
      '- { between: [refund-window, refund-limit], weight: 6, origin: model, reason: both come up }',
    );
    expect(text.match(/origin: model/g)).toHaveLength(5);
    expect(store.getState().relateJob).toMatchObject({
      running: false,
      done: 3,
      total: 3,
      stopped: false,
      problems: [],
      written: 5,
      kept: 1,
      spent: { calls: 3, failed: 0 },
    });
    // Every call is in the project's Assist log, counted as rating relations.
    expect(store.getState().assistLog.map((e) => e.action)).toEqual(['relate', 'relate', 'relate']);

    analyse();
    expect(store.getState().planRelations()).toMatchObject({
      ok: true,
      pairs: 0,
      estimate: { calls: 0 },
    });
    store
      .getState()
      .setFileText('policies.yaml', text.replace('Greet warmly.', 'Greet warmly, by name.'));
    analyse();
    expect(store.getState().planRelations()).toMatchObject({ pairs: 3, estimate: { calls: 1 } });
    await store.getState().rateRelations();
    expect(seen).toHaveLength(4);

    expect(store.getState().undo('policies.yaml')).toBe(true);
    expect(store.getState().undo('policies.yaml')).toBe(true);
    expect(store.getState().project.files['policies.yaml']).toBe(POLICIES);
  });

  it('keeps the ratings over a reload: unchanged policies plan no call', async () => {
    const preferences = createMemoryStore();
    const first = rater();
    const before = await ready(first.engine, preferences);
    before.store.getState().setRoleModel('judge', { engine: before.id, model: 'm' });
    await before.store.getState().rateRelations();
    expect(first.seen).toHaveLength(3);
    const rated = before.store.getState().project.files['policies.yaml'];

    // A reload: a new store on the same device, the same policies.
    const second = rater();
    const after = await ready(second.engine, preferences);
    after.store.getState().setFileText('policies.yaml', rated);
    after.analyse();
    after.store.getState().setRoleModel('judge', { engine: after.id, model: 'm' });
    expect(after.store.getState().relateCache.size).toBe(6);
    expect(after.store.getState().planRelations()).toMatchObject({
      ok: true,
      pairs: 0,
      estimate: { calls: 0 },
    });
    await after.store.getState().rateRelations();
    expect(second.seen).toHaveLength(0);
    expect(after.store.getState().project.files['policies.yaml']).toBe(rated);
  });

  it('ignores a broken kept value and rates as if nothing was kept', async () => {
    for (const raw of ['{not json', '{"v":1,"pairs":[["x",99,null]]}', '[1,2,3]']) {
      const preferences = createMemoryStore({ 'policylab.relateCache': raw });
      const { store, id } = await ready(rater().engine, preferences);
      store.getState().setRoleModel('judge', { engine: id, model: 'm' });
      expect(store.getState().planRelations()).toMatchObject({ ok: true, pairs: 6 });
      await store.getState().rateRelations();
      expect(preferences.getItem('policylab.relateCache')).toMatch(/^\{"v":1,"pairs":\[\["/);
    }
  });
});
