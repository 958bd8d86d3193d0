import type { ModelRole } from '../models/chat.ts';
import { ModelError } from '../models/errors.ts';
import type { CallContext, Player } from '../sim/modelCall.ts';
import { loggedChat } from '../sim/modelCall.ts';
import type { AssistSpent } from './assistCost.ts';
import { meteredContext } from './assistCost.ts';
import type { PromptTemplate } from '../sim/prompts.ts';
import type { RelateCache, RelatePolicy, RelationRating, RelateBatch } from './relate.ts';
import {
  RELATE_ANSWER_SCHEMA,
  RELATE_ASKS,
  distinctPolicies,
  planRelate,
  relatePairKey,
  relatePrompt,
} from './relate.ts';

/** What rating needs: the model, the call context (retries, prices, clock, Stop, usage log). */
export interface RelateDeps {
  readonly player: Player;
  readonly context: CallContext;
  /** The project's own prompt, when it has one (`prompts: relate:`). */
  readonly template?: PromptTemplate;
  /** Whose usage the calls count as (default the judge's). */
  readonly role?: ModelRole;
  readonly maxPerCall?: number;
  /** After each call: how many of the plan's calls are done. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** What a rating run did. */
export interface RelateOutcome {
  /** The old ratings and every new one (a stopped or failed run keeps what it rated). */
  readonly cache: RelateCache;
  readonly planned: number;
  /** Whether Stop ended it before the plan was done. */
  readonly stopped: boolean;
  /** What went wrong, in words: failed calls, answers naming unknown or missing policies. */
  readonly problems: readonly string[];
  /** What it spent, failed calls included. */
  readonly spent: AssistSpent;
}

/**
 * Rates the pairs of policies the cache has no rating for, one call per {@link planRelate} batch,
 * each through `loggedChat` (so every call, failed ones too, is logged with its usage). Stop
 * (the context's signal) ends it between calls or cancels the call under way; what was rated is
 * kept. A failed call is named in `problems` and its pairs stay unrated for the next run; a
 * rating of a policy that was not asked for is ignored.
 */
export async function rateRelations(
  policies: readonly RelatePolicy[],
  cache: RelateCache,
  deps: RelateDeps,
): Promise<RelateOutcome> {
  const list = distinctPolicies(policies);
  const byId = new Map(list.map((p) => [p.id, p]));
  const plan = planRelate(list, cache, deps.maxPerCall);
  const out = new Map(cache);
  const problems: string[] = [];
  const { context, spent } = meteredContext<CallContext>(deps.context);
  let stopped = false;
  for (const [done, batch] of plan.entries()) {
    if (deps.context.signal?.aborted) {
      stopped = true;
      break;
    }
    try {
      const response = await loggedChat(
        deps.role ?? 'judge',
        deps.player,
        {
          messages: [
            { role: 'system', content: relatePrompt(batch, byId, deps.template) },
            { role: 'user', content: RELATE_ASKS },
          ],
          responseSchema: { name: 'relation_ratings', schema: RELATE_ANSWER_SCHEMA },
          temperature: 0,
        },
        context,
      );
      problems.push(...keep(response.json, batch, byId, out));
    } catch (error) {
      if (error instanceof ModelError && error.kind === 'aborted') {
        stopped = true;
        break;
      }
      const message = error instanceof Error ? error.message : String(error);
      problems.push(
        `Rating "${batch.policy}" against ${batch.others.length} others failed: ${message}`,
      );
    }
    deps.onProgress?.(done + 1, plan.length);
  }
  return { cache: out, planned: plan.length, stopped, problems, spent: spent() };
}

/** Puts one answer's ratings into the cache; returns what was wrong with it, in words. */
function keep(
  json: unknown,
  batch: RelateBatch,
  byId: ReadonlyMap<string, RelatePolicy>,
  cache: Map<string, RelationRating>,
): string[] {
  const problems: string[] = [];
  const asked = new Set(batch.others);
  const self = byId.get(batch.policy);
  const ratings = (json as { ratings?: unknown } | undefined)?.ratings;
  const rated = new Set<string>();
  for (const item of Array.isArray(ratings) ? (ratings as unknown[]) : []) {
    const { other, weight, reason } = item as { other: string; weight: number; reason: string };
    const policy = byId.get(other);
    if (!asked.has(other) || !policy || !self || rated.has(other)) {
      if (!asked.has(other))
        problems.push(
          `The rating of "${batch.policy}" named "${other}", which it was not asked about.`,
        );
      continue;
    }
    rated.add(other);
    cache.set(relatePairKey(self, policy), {
      weight: Math.round(Math.min(10, Math.max(0, weight))),
      reason: reason.trim(),
    });
  }
  const missing = batch.others.filter((id) => !rated.has(id));
  if (missing.length > 0) {
    problems.push(
      `The rating of "${batch.policy}" left out ${missing.map((id) => `"${id}"`).join(', ')}; they stay unrated.`,
    );
  }
  return problems;
}
