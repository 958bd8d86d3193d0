import { callCost } from '../models/usage.ts';
import type { PriceTable } from '../models/usage.ts';
import type { SimEvent } from '../sim/events.ts';
import type { CallContext } from '../sim/modelCall.ts';

// What every Assist action (extract, relate, guard, attack) counts: the estimate shown before an
// action runs, and the meter that sums what it spent. A call's usage goes to `context.emit` as a
// `usage` event whether it succeeds or fails, as a run's calls do; the page keeps those events in
// the project's Assist log. Nothing here calls a model, so the page may load it with its first
// screen; `assistCall.ts` holds the call.

/** Calls, tokens and dollars: what an action will cost before it runs, or spent after. */
export interface AssistCost {
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Dollars; null when the model has no price. */
  readonly cost: number | null;
}

/** The calls and tokens an action plans, before it runs. */
export interface AssistPlanSize {
  readonly calls: number;
  /** The most calls, when every repair turn is needed; `calls` when there are none. */
  readonly maxCalls?: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** The estimate shown before an action runs, on one model. */
export interface AssistEstimate extends AssistCost {
  readonly model: string;
  readonly maxCalls: number;
  /** A model that runs in this browser costs nothing. */
  readonly free: boolean;
}

/** What an action spent, failed calls included (and counted apart). */
export interface AssistSpent extends AssistCost {
  readonly failed: number;
}

/** Nothing spent yet. */
export const NOTHING_SPENT: AssistSpent = {
  calls: 0,
  failed: 0,
  inputTokens: 0,
  outputTokens: 0,
  cost: 0,
};

/** About four characters a token: good enough to say what a call will cost before it is made. */
export function tokensOf(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The estimate of a plan on `model`: a free model costs 0, an unpriced one is null. */
export function estimateAssist(
  size: AssistPlanSize,
  model: string,
  prices: PriceTable,
  free = false,
): AssistEstimate {
  const cost = free
    ? 0
    : callCost(model, { inputTokens: size.inputTokens, outputTokens: size.outputTokens }, prices);
  return {
    calls: size.calls,
    maxCalls: Math.max(size.calls, size.maxCalls ?? size.calls),
    inputTokens: size.inputTokens,
    outputTokens: size.outputTokens,
    model,
    cost,
    free,
  };
}

/** `spent` with one more call's usage added; an unpriced call makes the dollars unknown. */
export function withUsage(spent: AssistSpent, event: SimEvent): AssistSpent {
  if (event.type !== 'usage') return spent;
  return {
    calls: spent.calls + 1,
    failed: spent.failed + (event.failed === undefined ? 0 : 1),
    inputTokens: spent.inputTokens + event.inputTokens,
    outputTokens: spent.outputTokens + event.outputTokens,
    cost: spent.cost === null || event.cost === null ? null : spent.cost + event.cost,
  };
}

/**
 * A call context that sums the usage of the calls made through it (and still hands every event
 * to the context's own `emit`): `spent()` is what the action has cost so far.
 */
export function meteredContext<C extends CallContext>(
  context: C,
): { readonly context: C; readonly spent: () => AssistSpent } {
  let spent = NOTHING_SPENT;
  return {
    context: {
      ...context,
      emit: (event: SimEvent) => {
        spent = withUsage(spent, event);
        context.emit?.(event);
      },
    },
    spent: () => spent,
  };
}
