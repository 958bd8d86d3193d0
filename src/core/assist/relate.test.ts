import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { instantRuntime, modelReply } from '../../test/scriptedModels.ts';
import type { ChatEngine, ChatRequest } from '../models/chat.ts';
import { ModelError } from '../models/errors.ts';
import type { SimEvent } from '../sim/events.ts';
import type { CallContext } from '../sim/modelCall.ts';
import { estimateAssist } from './assistCost.ts';
import { RELATE_PROMPT } from './relatePrompt.ts';
import { AIRLINE_POLICIES, AIRLINE_RATINGS } from '../testing/airlineRelations.ts';
import type { RelateCache, RelatePolicy } from './relate.ts';
import { RELATE_ASKS, currentRatings, sizeRelate, planRelate, relatePairKey } from './relate.ts';
import { rateRelations } from './relateRun.ts';

const POLICIES: readonly RelatePolicy[] = AIRLINE_POLICIES;
const REFERENCE = new Map(
  AIRLINE_RATINGS.map(([a, b, w]) => [a < b ? `${a}|${b}` : `${b}|${a}`, w]),
);
const referenceOf = (a: string, b: string) => REFERENCE.get(a < b ? `${a}|${b}` : `${b}|${a}`) ?? 0;

/** The policy and the others a relate prompt names, read back from its lines. */
function asked(request: ChatRequest): { policy: string; others: string[] } {
  const system = request.messages[0]?.content ?? '';
  const [head = '', rest = ''] = system.split('The other policies');
  const ids = (text: string) => [...text.matchAll(/^([a-z0-9-]+): /gm)].map((m) => m[1] ?? '');
  return { policy: ids(head)[0] ?? '', others: ids(rest) };
}

/** A scripted rater: answers each call with the reference ratings, and counts its calls. */
function rater(answer?: (policy: string, others: string[]) => object) {
  const calls: { policy: string; others: string[] }[] = [];
  const engine: ChatEngine = {
    chat: (request) => {
      const call = asked(request);
      calls.push(call);
      const json = answer?.(call.policy, call.others) ?? {
        ratings: call.others.map((other) => ({
          other,
          weight: referenceOf(call.policy, other),
          reason: 'reference',
        })),
      };
      return Promise.resolve(modelReply(JSON.stringify(json)));
    },
  };
  return { engine, calls };
}

function context(events: SimEvent[] = [], signal?: AbortSignal): CallContext {
  return {
    runtime: instantRuntime,
    prices: { scripted: { inputPerMillion: 1, outputPerMillion: 2 } },
    clock: () => 0,
    emit: (event) => events.push(event),
    ...(signal && { signal }),
  };
}

const EMPTY: RelateCache = new Map();

/** The i-th policy of a list (the tests only ask for ones that exist). */
const at = (i: number, list: readonly RelatePolicy[] = POLICIES): RelatePolicy => {
  const policy = list[i];
  if (!policy) throw new RangeError(`No policy ${i}`);
  return policy;
};

describe('planRelate', () => {
  it('rates 35 policies from scratch in at most 35 calls, policy i against every j > i', () => {
    const plan = planRelate(POLICIES, EMPTY);
    expect(plan.length).toBeLessThanOrEqual(35);
    expect(plan[0]).toEqual({
      policy: POLICIES[0]?.id,
      others: POLICIES.slice(1).map((p) => p.id),
    });
    const pairs = plan.flatMap((b) => b.others.map((o) => [b.policy, o].sort().join('|')));
    expect(new Set(pairs).size).toBe((35 * 34) / 2);
    expect(pairs).toHaveLength((35 * 34) / 2);
  });

  it('covers every unrated pair once, in at most n calls, whatever the cache holds', () => {
    const arb = fc.record({
      n: fc.integer({ min: 0, max: 24 }),
      rated: fc.array(fc.tuple(fc.nat(23), fc.nat(23)), { maxLength: 120 }),
    });
    fc.assert(
      fc.property(arb, ({ n, rated }) => {
        const policies = POLICIES.slice(0, n);
        const cache = new Map(
          rated
            .filter(([i, j]) => i < n && j < n && i !== j)
            .map(([i, j]) => [relatePairKey(at(i), at(j)), { weight: 1, reason: '' }]),
        );
        const plan = planRelate(policies, cache);
        expect(plan.length).toBeLessThanOrEqual(Math.max(0, n - 1));
        const planned = plan.flatMap((b) => b.others.map((o) => [b.policy, o].sort().join('|')));
        expect(new Set(planned).size).toBe(planned.length);
        const byId = new Map(policies.map((p) => [p.id, p]));
        const unrated: string[] = [];
        for (let i = 0; i < n; i++)
          for (let j = i + 1; j < n; j++)
            if (!cache.has(relatePairKey(at(i), at(j))))
              unrated.push([at(i).id, at(j).id].sort().join('|'));
        expect(new Set(planned)).toEqual(new Set(unrated));
        expect(plan.every((b) => b.others.length > 0 && byId.has(b.policy))).toBe(true);
      }),
      { numRuns: 120 },
    );
  });

  it('keeps every call within maxPerCall, and n calls while n policies allow it', () => {
    const make = (n: number): RelatePolicy[] =>
      Array.from({ length: n }, (_, i) => ({
        id: `p${i}`,
        text: `t${i}`,
        category: 'c',
        tools: [],
      }));
    for (let n = 2; n <= 30; n++) {
      const policies = make(n);
      const plan = planRelate(policies, EMPTY, 5);
      expect(Math.max(...plan.map((b) => b.others.length))).toBeLessThanOrEqual(5);
      const pairs = plan.flatMap((b) => b.others.map((o) => [b.policy, o].sort().join('|')));
      expect(new Set(pairs).size).toBe((n * (n - 1)) / 2);
      expect(pairs).toHaveLength((n * (n - 1)) / 2);
      // n policies make n(n-1)/2 pairs: n calls of 5 hold them up to n = 11.
      if (n <= 11) expect(plan.length, `${n} policies`).toBeLessThanOrEqual(n);
      // One edited policy: its n - 1 pairs, in as few calls as fit them.
      const rated = new Map(
        plan.flatMap((b) =>
          b.others.map((o) => [
            relatePairKey(
              at(Number(b.policy.slice(1)), policies),
              at(Number(o.slice(1)), policies),
            ),
            { weight: 1, reason: '' },
          ]),
        ),
      );
      const edited = policies.map((p, i) => (i === n - 1 ? { ...p, text: 'edited' } : p));
      expect(planRelate(edited, rated, 5)).toHaveLength(Math.ceil((n - 1) / 5));
    }
    // The default fits 81 policies in 81 calls.
    expect(planRelate(make(81), EMPTY).length).toBeLessThanOrEqual(81);
  });

  it('counts a repeated id once', () => {
    const twice = [...POLICIES.slice(0, 3), { ...at(0), text: 'another text' }];
    expect(planRelate(twice, EMPTY).flatMap((b) => b.others)).toHaveLength(3);
  });
});

describe('rateRelations', () => {
  it('rates from scratch in at most n calls, then only what an edit touched, in one call', async () => {
    const first = rater();
    const events: SimEvent[] = [];
    const run = await rateRelations(POLICIES, EMPTY, {
      player: { engine: first.engine, model: 'scripted' },
      context: context(events),
    });
    expect(first.calls.length).toBeLessThanOrEqual(35);
    expect(run.problems).toEqual([]);
    expect(run.stopped).toBe(false);
    const ratings = currentRatings(POLICIES, run.cache);
    expect(ratings).toHaveLength((35 * 34) / 2);
    const rated = ratings.find((r) => r.a === 'bag-allowance-tier' && r.b === 'bag-extra-fee');
    expect(rated).toEqual({
      a: 'bag-allowance-tier',
      b: 'bag-extra-fee',
      weight: 9,
      reason: 'reference',
    });
    // Every call logged its usage, and the outcome adds them up.
    expect(events.filter((e) => e.type === 'usage')).toHaveLength(first.calls.length);
    expect(run.spent).toMatchObject({
      calls: first.calls.length,
      failed: 0,
      inputTokens: 100 * first.calls.length,
      outputTokens: 10 * first.calls.length,
    });
    expect(run.spent.cost).toBeCloseTo((120 * first.calls.length) / 1e6);

    // Nothing changed: nothing to rate.
    const idle = rater();
    await rateRelations(POLICIES, run.cache, {
      player: { engine: idle.engine, model: 'scripted' },
      context: context(),
    });
    expect(idle.calls).toEqual([]);

    // One policy edited: one call, that policy against all the others.
    const edited = POLICIES.map((p) =>
      p.id === 'bag-extra-fee' ? { ...p, text: 'Each extra checked bag costs sixty dollars.' } : p,
    );
    const second = rater();
    const again = await rateRelations(edited, run.cache, {
      player: { engine: second.engine, model: 'scripted' },
      context: context(),
    });
    expect(second.calls).toEqual([
      {
        policy: 'bag-extra-fee',
        others: POLICIES.filter((p) => p.id !== 'bag-extra-fee').map((p) => p.id),
      },
    ]);
    expect(currentRatings(edited, again.cache)).toHaveLength((35 * 34) / 2);
  });

  it('sends the template with the policies, and a project’s own template in its place', async () => {
    const seen: ChatRequest[] = [];
    const engine: ChatEngine = {
      chat: (request) => {
        seen.push(request);
        return Promise.resolve(modelReply('{"ratings": []}'));
      },
    };
    const template = {
      ...RELATE_PROMPT,
      text: 'OWN {{policy}} VS {{others}}',
      source: 'project' as const,
    };
    await rateRelations(POLICIES.slice(0, 2), EMPTY, {
      player: { engine, model: 'scripted' },
      context: context(),
      template,
    });
    expect(seen[0]?.messages).toEqual([
      {
        role: 'system',
        content:
          'OWN book-collect-user-id: Before booking, obtain the user id and look up the user profile. (booking; tools get_user_details) VS book-passenger-limit: A reservation holds at most five passengers, each with first name, last name and date of birth. (booking; tools book_reservation)',
      },
      { role: 'user', content: RELATE_ASKS },
    ]);
    expect(seen[0]?.responseSchema?.name).toBe('relation_ratings');
  });

  it('keeps good ratings of a bad answer, names what was wrong, and leaves the rest unrated', async () => {
    const { engine } = rater((policy, others) => ({
      ratings: [
        { other: others[0], weight: 9.6, reason: ' far ' },
        { other: 'ghost', weight: 3, reason: 'x' },
        { other: policy, weight: 3, reason: 'self' },
        { other: POLICIES[0]?.id, weight: 2, reason: 'not asked' },
      ],
    }));
    const three = POLICIES.slice(0, 3);
    const run = await rateRelations(three, EMPTY, {
      player: { engine, model: 'scripted' },
      context: context(),
    });
    expect(currentRatings(three, run.cache)).toEqual([
      { a: three[0]?.id, b: three[1]?.id, weight: 10, reason: 'far' },
      { a: three[1]?.id, b: three[2]?.id, weight: 10, reason: 'far' },
    ]);
    expect(run.problems).toContain(
      `The rating of "${three[0]?.id}" named "ghost", which it was not asked about.`,
    );
    expect(run.problems).toContain(
      `The rating of "${three[0]?.id}" left out "${three[2]?.id}"; they stay unrated.`,
    );
    expect(planRelate(three, run.cache)).toEqual([
      { policy: three[0]?.id, others: [three[2]?.id] },
    ]);
  });

  it('logs a failed call with its usage, names it, and goes on with the next', async () => {
    let n = 0;
    const engine: ChatEngine = {
      chat: (request) => {
        n++;
        if (n === 1) return Promise.reject(new ModelError('auth', 'The key was refused.'));
        const call = asked(request);
        return Promise.resolve(
          modelReply(
            JSON.stringify({
              ratings: call.others.map((other) => ({ other, weight: 4, reason: '' })),
            }),
          ),
        );
      },
    };
    const events: SimEvent[] = [];
    const three = POLICIES.slice(0, 3);
    const run = await rateRelations(three, EMPTY, {
      player: { engine, model: 'scripted' },
      context: context(events),
    });
    expect(run.problems).toEqual([
      `Rating "${three[0]?.id}" against 2 others failed: The key was refused.`,
    ]);
    expect(events.map((e) => (e.type === 'usage' ? e.failed : e.type))).toEqual([
      'auth',
      undefined,
    ]);
    expect(run.spent).toMatchObject({ calls: 2, failed: 1 });
    expect(currentRatings(three, run.cache).map((r) => `${r.a}|${r.b}`)).toEqual([
      `${three[1]?.id}|${three[2]?.id}`,
    ]);
  });

  it('stops between calls on Stop and keeps what it rated', async () => {
    const stop = new AbortController();
    const { engine, calls } = rater();
    const events: SimEvent[] = [];
    const run = await rateRelations(POLICIES.slice(0, 10), EMPTY, {
      player: { engine, model: 'scripted' },
      context: context(events, stop.signal),
      onProgress: (done) => {
        if (done === 3) stop.abort();
      },
    });
    expect(calls).toHaveLength(3);
    // No call is started after Stop, so none is logged as failed.
    expect(events).toHaveLength(3);
    expect(run.spent.failed).toBe(0);
    expect(run.stopped).toBe(true);
    expect(run.planned).toBe(9);
    expect(currentRatings(POLICIES.slice(0, 10), run.cache)).toHaveLength(9 + 8 + 7);
  });
});

describe('sizeRelate', () => {
  it('counts the calls and prices the tokens before anything runs', () => {
    const plan = planRelate(POLICIES, EMPTY);
    const prices = { m: { inputPerMillion: 3, outputPerMillion: 15 } };
    const estimate = estimateAssist(sizeRelate(plan, POLICIES), 'm', prices);
    expect(estimate.calls).toBe(plan.length);
    expect(estimate.outputTokens).toBe(10 * plan.length + 30 * 595);
    // Each prompt holds the template and its policies' lines: well over 595 lines' worth.
    expect(estimate.inputTokens).toBeGreaterThan(595 * 20);
    expect(estimate.cost).toBeCloseTo(
      (estimate.inputTokens * 3 + estimate.outputTokens * 15) / 1e6,
    );
    expect(estimateAssist(sizeRelate(plan, POLICIES), 'unpriced', prices).cost).toBeNull();
  });
});
