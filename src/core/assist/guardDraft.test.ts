import { describe, expect, it } from 'vitest';
import { instantRuntime, modelReply, queuedEngine } from '../../test/scriptedModels.ts';
import type { ScriptedAnswer } from '../../test/scriptedModels.ts';
import { parseProject } from '../format/parseProject.ts';
import { ModelError } from '../models/errors.ts';
import type { SimEvent } from '../sim/events.ts';
import { estimateAssist } from './assistCost.ts';
import { draftGuard, guardDraftPrompt, sizeGuardDraft } from './guardDraft.ts';
import { lendingDesk } from './testdata/lendingDesk.ts';

const model = parseProject(lendingDesk()).model;
const NOW = '2026-06-15T12:00:00Z';

/** A draft answer as a model would write it, with changes. */
function answer(changes: Record<string, unknown> = {}) {
  return modelReply(
    JSON.stringify({
      id: 'max-21-days',
      tool: 'lend_book',
      decision: 'forbid',
      when: 'args.days > 21',
      fallback: 'message',
      message: 'Loans are at most 21 days.',
      examples: [
        { args: { member_id: 'm1', days: 14 }, expect: 'allow', why: 'two weeks' },
        { args: { member_id: 'm1', days: 21 }, expect: 'allow', why: 'the limit itself' },
        { args: { member_id: 'm1', days: 22 }, expect: 'forbid', why: 'one day over' },
        { args: { member_id: 'm1', days: 60 }, expect: 'forbid', why: 'far over' },
      ],
      ...changes,
    }),
  );
}

function draftWith(
  answers: ScriptedAnswer[],
  policy = 'loan-length',
  signal?: AbortSignal,
  project = model,
) {
  const { engine, requests } = queuedEngine(answers);
  const events: SimEvent[] = [];
  const result = draftGuard(project, policy, {
    drafter: { engine, model: 'drafter' },
    runtime: instantRuntime,
    prices: { drafter: { inputPerMillion: 1_000_000, outputPerMillion: 2_000_000 } },
    clock: () => 0,
    now: NOW,
    emit: (e) => events.push(e),
    ...(signal && { signal }),
  });
  return { result, requests, events };
}

describe('draftGuard', () => {
  it('offers a draft that compiles and decides its own examples as the model said', async () => {
    const { result, requests, events } = draftWith([answer()]);
    const done = await result;
    expect(done.ok).toBe(true);
    if (!done.ok) return;
    expect(done.draft).toMatchObject({
      policy: 'loan-length',
      tool: 'lend_book',
      when: 'args.days > 21',
    });
    expect(done.examples.map((e) => [e.args.days, e.allowed])).toEqual([
      [14, true],
      [21, true],
      [22, false],
      [60, false],
    ]);
    // PolicyLab's own calls: the schema's bounds, the condition's number and its neighbours,
    // every format and both renewals, each decided by the draft.
    const own = done.generated.map((e) => [JSON.stringify(e.args), e.allowed]);
    expect(own).toContainEqual([JSON.stringify({ member_id: 'm1', days: 1 }), true]);
    expect(own).toContainEqual([JSON.stringify({ member_id: 'm1', days: 60 }), false]);
    expect(own).toContainEqual([JSON.stringify({ member_id: 'm1', days: 20 }), true]);
    expect(own).toContainEqual([JSON.stringify({ member_id: 'm1', days: 22 }), false]);
    expect(own).toContainEqual([
      JSON.stringify({ member_id: 'm1', days: 14, format: 'audio' }),
      true,
    ]);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.messages[0]?.content).toContain('Loans must be at most 21 days long.');
    expect(events.map((e) => e.type)).toEqual(['usage']);
    expect(done.spent).toEqual({
      calls: 1,
      failed: 0,
      inputTokens: 100,
      outputTokens: 10,
      cost: 120,
    });
    expect(done.repaired).toBe(false);
  });

  it('sends a draft with problems back once, naming them, and offers the repaired one', async () => {
    const bad = answer({ when: 'args.dayz > 21 && db.loanz.size() > 0' });
    const { result, requests } = draftWith([bad, answer()]);
    const done = await result;
    expect(done.ok && done.repaired).toBe(true);
    const fix = requests[1]?.messages.at(-1)?.content ?? '';
    expect(fix).toContain('args.dayz, which lend_book does not have');
    expect(fix).toContain('no table "loanz"');
  });

  it.each([
    ['a condition that is not CEL', { when: 'args.days >> 21' }, 'not valid CEL'],
    ['a tool that does not exist', { tool: 'lend_bok' }, 'no agent tool "lend_bok"'],
    ['an argument used against its type', { when: 'args.days == "21"' }, 'declared integer'],
    [
      'an example it decides the other way',
      {
        examples: [
          { args: { member_id: 'm1', days: 30 }, expect: 'allow' },
          { args: { member_id: 'm1', days: 40 }, expect: 'forbid' },
        ],
      },
      'should be allowed, but the rule forbids it',
    ],
    [
      'an example that breaks the schema',
      {
        examples: [
          { args: { member_id: 'm1', days: 'ten' }, expect: 'allow' },
          { args: { member_id: 'm1', days: 40 }, expect: 'forbid' },
        ],
      },
      "Example 1's arguments do not fit lend_book",
    ],
    [
      'no example to forbid',
      { examples: [{ args: { member_id: 'm1', days: 3 }, expect: 'allow' }] },
      'must forbid',
    ],
  ])('never offers a draft with %s, and says why after one repair', async (_, change, why) => {
    const { result, requests, events } = draftWith([answer(change), answer(change)]);
    const done = await result;
    expect(done.ok).toBe(false);
    if (done.ok) return;
    expect(done.why.join('\n')).toContain(why);
    expect(requests).toHaveLength(2);
    expect(events.filter((e) => e.type === 'usage')).toHaveLength(2);
    expect(done.spent.calls).toBe(2);
  });

  it('reads the seed database: a rule on blocked members forbids m2 and allows m1', async () => {
    const blocked = answer({
      id: 'not-blocked',
      when: 'db.members.exists(m, m.id == args.member_id && m.blocked)',
      examples: [
        { args: { member_id: 'm1', days: 7 }, expect: 'allow' },
        { args: { member_id: 'm2', days: 7 }, expect: 'forbid' },
      ],
    });
    const done = await draftWith([blocked], 'no-lending-when-blocked').result;
    expect(done.ok).toBe(true);
    if (!done.ok) return;
    const byMember = done.generated
      .filter((e) => Object.keys(e.args).length === 2 && e.args.days === 7)
      .map((e) => [e.args.member_id, e.allowed]);
    expect(byMember).toContainEqual(['m2', false]);
  });

  it('tries an allow rule under the tool’s own default: deny', async () => {
    const allowing = answer({
      decision: 'allow',
      when: 'args.days <= 21',
      examples: [
        { args: { member_id: 'm1', days: 14 }, expect: 'allow' },
        { args: { member_id: 'm1', days: 30 }, expect: 'forbid' },
      ],
    });
    const strict = parseProject(lendingDesk('guards:\n  lend_book:\n    default: deny\n')).model;
    const done = await draftWith([allowing], 'loan-length', undefined, strict).result;
    expect(done.ok).toBe(true);
  });

  it('logs a failed call and reports the model’s failure without offering anything', async () => {
    const { result, events } = draftWith([new ModelError('auth', 'Wrong key.')]);
    const done = await result;
    expect(done).toMatchObject({ ok: false, stopped: false });
    expect(events).toEqual([expect.objectContaining({ type: 'usage', failed: 'auth' })]);
  });

  it('stops when cancelled, as stopped rather than failed', async () => {
    const controller = new AbortController();
    const { result, events } = draftWith(['hang'], 'loan-length', controller.signal);
    controller.abort();
    const done = await result;
    expect(done).toMatchObject({ ok: false, stopped: true });
    expect(events).toHaveLength(1);
  });

  it('asks nothing of the model for a policy that cannot be guarded', async () => {
    const { result, requests } = draftWith([], 'greet');
    expect(await result).toMatchObject({ ok: false, why: [expect.stringContaining('no tools')] });
    expect(requests).toHaveLength(0);
  });
});

describe('sizeGuardDraft', () => {
  it('counts one call, two with the repair, and prices the most it can cost', () => {
    const policy = model.policies[0];
    if (!policy) throw new Error('no policy');
    const prompt = guardDraftPrompt(model, policy);
    const estimate = estimateAssist(sizeGuardDraft(model, policy), 'drafter', {
      drafter: { inputPerMillion: 1, outputPerMillion: 1 },
    });
    expect(estimate).toMatchObject({ calls: 1, maxCalls: 2 });
    expect(estimate.inputTokens).toBeGreaterThan(2 * (prompt.length / 4));
    expect(estimate.cost).toBeCloseTo((estimate.inputTokens + estimate.outputTokens) / 1e6);
    expect(estimateAssist(sizeGuardDraft(model, policy), 'unpriced', {}).cost).toBeNull();
  });
});
