import { storeReaches } from '../test/bounded.ts';
import { describe, expect, it } from 'vitest';
import { storeWithEngine, withEndpointModels } from '../test/modelStore.ts';
import type { ScriptedAnswer } from '../test/scriptedModels.ts';
import { modelReply, queuedEngine } from '../test/scriptedModels.ts';

const draft = (changes: Record<string, unknown> = {}) =>
  modelReply(
    JSON.stringify({
      id: 'refund-window-guard',
      tool: 'refund_order',
      decision: 'forbid',
      when: 'db.orders.exists(o, o.id == args.order_id && o.days_since_delivery > 30)',
      fallback: 'message',
      message: 'Only orders delivered in the last 30 days can be refunded.',
      examples: [
        { args: { order_id: 'o1' }, expect: 'allow', why: 'delivered 5 days ago' },
        { args: { order_id: 'o2' }, expect: 'forbid', why: 'delivered 45 days ago' },
      ],
      ...changes,
    }),
  );

async function drafted(answers: ScriptedAnswer[]) {
  const { engine, requests } = queuedEngine(answers);
  const { store } = storeWithEngine(engine);
  const id = await withEndpointModels(store);
  store.getState().setRoleModel('generator', { engine: id, model: 'm' });
  await storeReaches(
    store,
    (state) => state.analysis?.model.policies.some((p) => p.id === 'refund-window') === true,
  );
  await store.getState().draftGuardRule('refund-window');
  return { store, requests };
}

describe('guard draft slice', () => {
  it('accepts a checked draft into rules.yaml as one undo step, comments kept', async () => {
    const { store } = await drafted([draft()]);
    const before = store.getState().project.files['rules.yaml'];
    expect(store.getState().guardDrafting?.result?.ok).toBe(true);
    expect(store.getState().acceptGuardDraft()).toBe(true);
    const after = store.getState().project.files['rules.yaml'];
    expect(after).toContain('- id: refund-window-guard');
    expect(after.startsWith(before.slice(0, before.indexOf('checks:')))).toBe(true);
    expect(store.getState().guardDrafting).toBeNull();
    expect(store.getState().undo()).toBe(true);
    expect(store.getState().project.files['rules.yaml']).toBe(before);
  });

  it('offers nothing to accept when the draft stays invalid', async () => {
    const bad = draft({ when: 'args.order > 3' });
    const { store, requests } = await drafted([bad, bad]);
    const before = store.getState().project.files['rules.yaml'];
    expect(requests).toHaveLength(2);
    // Both calls were paid for, so both are in the project's Assist log.
    expect(store.getState().assistLog.map((e) => e.action)).toEqual(['guard-draft', 'guard-draft']);
    expect(store.getState().guardDrafting?.result?.ok).toBe(false);
    expect(store.getState().acceptGuardDraft()).toBe(false);
    expect(store.getState().project.files['rules.yaml']).toBe(before);
  });

  it('tries the draft in the playground with its examples, before it is in rules.yaml', async () => {
    const { store } = await drafted([draft()]);
    store.getState().tryGuardDraft();
    const trial = store.getState().playgroundTrial;
    expect(store.getState().activeFile).toBe('rules.yaml');
    expect(trial?.rule.id).toBe('refund-window-guard');
    expect(trial?.calls.slice(0, 2).map((c) => c.args)).toEqual([
      { order_id: 'o1' },
      { order_id: 'o2' },
    ]);
    expect(store.getState().project.files['rules.yaml']).not.toContain('refund-window-guard');
  });
});
