import type {
  Cancellation,
  ChatDelta,
  ChatEngine,
  ChatRequest,
  ModelRole,
  Usage,
} from '../models/chat.ts';
import type { CheckedResponse } from '../models/checked.ts';
import { checkedChat } from '../models/checked.ts';
import { ModelError } from '../models/errors.ts';
import type { RetryPolicy, RetryRuntime } from '../models/retry.ts';
import type { PriceTable } from '../models/usage.ts';
import type { BudgetGuard } from './budget.ts';
import type { CallFailure, SimEvent } from './events.ts';
import { usageEvent } from './events.ts';

/** A model playing one part: the engine and the model name it is asked for. */
export interface Player {
  readonly engine: ChatEngine;
  readonly model: string;
}

/** What every model call of a run needs: retries, time, prices, cancel and where usage goes. */
export interface CallContext {
  readonly runtime: RetryRuntime;
  readonly retry?: RetryPolicy;
  readonly signal?: Cancellation;
  readonly prices: PriceTable;
  /** Milliseconds since the run started (usage events carry it). */
  readonly clock: () => number;
  readonly emit?: (event: SimEvent) => void;
  /** The run's budget: each call is let through by it, its output capped by what is left. */
  readonly budget?: BudgetGuard;
}

const NOTHING_SPENT: Usage = { inputTokens: 0, outputTokens: 0 };

/** Failed calls whose answer broke because the budget capped its length. */
const CUT_BY_BUDGET = new WeakSet<object>();

/**
 * Whether a failed call's answer broke because the run's budget capped its output (it filled all
 * it was left): the budget's doing, not the model's fault.
 */
export function cutByBudget(error: unknown): boolean {
  return typeof error === 'object' && error !== null && CUT_BY_BUDGET.has(error);
}

/**
 * One checked model call for `role` (retries for the provider, one repair turn for the model)
 * that appends its `usage` event whether it succeeds or fails: a failed call is logged with the
 * tokens its turns spent (none known for a provider that never answered) and how it failed, so
 * its cost counts against the budget like any other. With `context.budget`, the call's output
 * tokens are capped by what is left of it, and what the call may spend is held until it is
 * logged. The only way the simulation calls a model.
 */
export async function loggedChat(
  role: ModelRole,
  player: Player,
  request: Omit<ChatRequest, 'model'>,
  context: CallContext,
  call: {
    readonly dialogue?: string;
    /** Overrides the context's cancellation (a dialogue's own stop). */
    readonly signal?: Cancellation;
    readonly onDelta?: (delta: ChatDelta) => void;
  } = {},
): Promise<CheckedResponse> {
  const start = context.clock();
  const signal = call.signal ?? context.signal;
  const log = (usage: Usage, failed?: CallFailure) => {
    context.emit?.(
      usageEvent(
        {
          role,
          model: player.model,
          usage,
          start,
          end: context.clock(),
          ...(call.dialogue !== undefined && { dialogue: call.dialogue }),
          ...(failed && { failed }),
        },
        context.prices,
      ),
    );
  };
  // The budget's cap, when it is lower than the call's own.
  const grant = context.budget?.admit(player.model, request);
  const maxTokens = grant?.maxTokens ?? request.maxTokens;
  try {
    const response = await checkedChat(
      player.engine,
      { ...request, model: player.model, ...(maxTokens !== undefined && { maxTokens }) },
      {
        runtime: context.runtime,
        ...(context.retry && { policy: context.retry }),
        ...(signal && { signal }),
        ...(call.onDelta && { onDelta: call.onDelta }),
      },
    );
    log(response.usage);
    return response;
  } catch (error) {
    if (error instanceof ModelError) log(error.usage ?? NOTHING_SPENT, error.kind);
    else log(NOTHING_SPENT, 'unexpected');
    // A broken answer that filled the output the budget left it was cut short by the budget.
    if (
      error instanceof ModelError &&
      error.modelFault &&
      grant?.maxTokens !== undefined &&
      grant.maxTokens !== request.maxTokens &&
      (error.usage?.outputTokens ?? 0) >= grant.maxTokens
    )
      CUT_BY_BUDGET.add(error);
    throw error;
  } finally {
    grant?.release();
  }
}
