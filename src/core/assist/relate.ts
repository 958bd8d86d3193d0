import type { PromptTemplate } from '../sim/prompts.ts';
import { renderPrompt } from '../sim/prompts.ts';
import type { AssistPlanSize } from './assistCost.ts';
import { tokensOf } from './assistCost.ts';
import { RELATE_PROMPT } from './relatePrompt.ts';

/** What the relation rater reads of a policy; its content key covers all of it. */
export interface RelatePolicy {
  readonly id: string;
  readonly text: string;
  readonly category: string;
  readonly tools: readonly string[];
}

/** A model's rating of one pair: how likely they meet in one conversation (0-10), and why. */
export interface RelationRating {
  readonly weight: number;
  readonly reason: string;
}

/**
 * Ratings by pair of policy contents ({@link relatePairKey}): a pair is rated again only when one of
 * its policies changed (id, text, category or tools). Plain data, so a caller may keep it.
 */
export type RelateCache = ReadonlyMap<string, RelationRating>;

/** One call of a plan: one policy rated against many others. */
export interface RelateBatch {
  readonly policy: string;
  readonly others: readonly string[];
}

/** A rated pair of current policies, by id, in file order. */
export interface RatedRelation {
  readonly a: string;
  readonly b: string;
  readonly weight: number;
  readonly reason: string;
}

/** More than this many others in one call are split over several calls. */
export const RELATE_MAX_PER_CALL = 40;

/** The message that asks for the answer, after the template's system prompt. */
export const RELATE_ASKS = 'Give your ratings now, as one JSON object.';

/** The JSON answer one call asks for. */
export const RELATE_ANSWER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['ratings'],
  properties: {
    ratings: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['other', 'weight', 'reason'],
        properties: {
          other: { type: 'string' },
          weight: { type: 'number', minimum: 0, maximum: 10 },
          reason: { type: 'string' },
        },
      },
    },
  },
} as const;

/** 32-bit FNV-1a of a string from a seed, as 8 hex digits. */
function fnv(text: string, seed: number): string {
  let hash = seed;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** A key of a policy's content (id, text, category, tools): 64 bits of two FNV-1a hashes. */
export function relatePolicyKey(policy: RelatePolicy): string {
  const text = [policy.id, policy.text, policy.category, policy.tools.join('\u0001')].join('\0');
  return fnv(text, 0x811c9dc5) + fnv(text, 0x01234567);
}

/** The cache key of an unordered pair of policies: both content keys, in order. */
export function relatePairKey(a: RelatePolicy, b: RelatePolicy): string {
  const x = relatePolicyKey(a);
  const y = relatePolicyKey(b);
  return x < y ? `${x}|${y}` : `${y}|${x}`;
}

/** The policies with a repeated id left out (the first one counts, as in the graph). */
export function distinctPolicies(policies: readonly RelatePolicy[]): RelatePolicy[] {
  const seen = new Set<string>();
  return policies.filter((p) => !seen.has(p.id) && seen.add(p.id));
}

/**
 * The calls that rate every pair of policies the cache has no rating for: each call rates one
 * policy against many of its unrated partners, the policy with the most of them first (ties in
 * file order), and each policy makes its calls once. A policy with more than `maxPerCall`
 * partners left takes those only it can rate (partners that made their calls already, or that
 * have no other pair left) and fills the call up to `maxPerCall` with the first of the rest,
 * leaving the others to their own calls. So from scratch n policies need about n - 1 calls, none
 * longer than `maxPerCall`, and after editing one policy, one call (or a few, when it has more
 * partners than fit in one).
 */
export function planRelate(
  policies: readonly RelatePolicy[],
  cache: RelateCache,
  maxPerCall: number = RELATE_MAX_PER_CALL,
): RelateBatch[] {
  const list = distinctPolicies(policies);
  const n = list.length;
  const keys = list.map(relatePolicyKey);
  const pending = list.map(() => new Set<number>());
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const x = keys[i] ?? '';
      const y = keys[j] ?? '';
      if (cache.has(x < y ? `${x}|${y}` : `${y}|${x}`)) continue;
      pending[i]?.add(j);
      pending[j]?.add(i);
    }
  }
  const batches: RelateBatch[] = [];
  const size = Math.max(1, Math.floor(maxPerCall));
  const called = new Uint8Array(n);
  for (;;) {
    // The policy with the most partners left among those yet to call; once all have called,
    // any pair two of them left (rare) goes to whichever has the most.
    let best = -1;
    let open = false;
    for (let i = 0; i < n; i++) {
      const left = pending[i]?.size ?? 0;
      if (left === 0) continue;
      const fresh = called[i] === 0;
      const better = best < 0 || (fresh && !open) || left > (pending[best]?.size ?? 0);
      if (better && (fresh || !open)) {
        best = i;
        open = fresh;
      }
    }
    if (best < 0) return batches;
    const partners = [...(pending[best] ?? [])].sort((x, y) => x - y);
    const must = partners.filter((j) => called[j] === 1 || (pending[j]?.size ?? 0) === 1);
    const may = partners.filter((j) => called[j] === 0 && (pending[j]?.size ?? 0) > 1);
    const others = [...must, ...may.slice(0, Math.max(0, size - must.length))].sort(
      (x, y) => x - y,
    );
    called[best] = 1;
    for (const j of others) {
      pending[j]?.delete(best);
      pending[best]?.delete(j);
    }
    for (let k = 0; k < others.length; k += size) {
      batches.push({
        policy: list[best]?.id ?? '',
        others: others.slice(k, k + size).map((j) => list[j]?.id ?? ''),
      });
    }
  }
}

/** A policy as the prompt shows it: `id: text (category; tools a, b)`. */
function line(policy: RelatePolicy): string {
  const tools = policy.tools.length > 0 ? `; tools ${policy.tools.join(', ')}` : '';
  return `${policy.id}: ${policy.text.replace(/\s+/g, ' ').trim()} (${policy.category}${tools})`;
}

/** The system prompt of one call. */
export function relatePrompt(
  batch: RelateBatch,
  byId: ReadonlyMap<string, RelatePolicy>,
  template: PromptTemplate = RELATE_PROMPT,
): string {
  const show = (id: string) => {
    const policy = byId.get(id);
    return policy ? line(policy) : id;
  };
  return renderPrompt(template, {
    policy: show(batch.policy),
    others: batch.others.map(show).join('\n'),
  });
}

/** What one rating costs to write: `{"other": "...", "weight": 7, "reason": "..."}`. */
const TOKENS_PER_RATING = 30;

/**
 * The size of a plan before it runs: its calls, the tokens of each prompt (about 4 characters a
 * token) and of the answers (about 30 a rating); `estimateAssist` prices it.
 */
export function sizeRelate(
  plan: readonly RelateBatch[],
  policies: readonly RelatePolicy[],
  template?: PromptTemplate,
): AssistPlanSize {
  const byId = new Map(distinctPolicies(policies).map((p) => [p.id, p]));
  let inputTokens = 0;
  let outputTokens = 0;
  for (const batch of plan) {
    inputTokens += tokensOf(relatePrompt(batch, byId, template)) + tokensOf(RELATE_ASKS);
    outputTokens += 10 + TOKENS_PER_RATING * batch.others.length;
  }
  return { calls: plan.length, inputTokens, outputTokens };
}

/** The cache's ratings of the current policies' pairs, in file order. */
export function currentRatings(
  policies: readonly RelatePolicy[],
  cache: RelateCache,
): RatedRelation[] {
  const list = distinctPolicies(policies);
  const keys = list.map(relatePolicyKey);
  const out: RatedRelation[] = [];
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      const x = keys[i] ?? '';
      const y = keys[j] ?? '';
      const rating = cache.get(x < y ? `${x}|${y}` : `${y}|${x}`);
      if (rating) {
        out.push({ a: list[i]?.id ?? '', b: list[j]?.id ?? '', ...rating });
      }
    }
  }
  return out;
}
