import type { ChatRequest } from '../models/chat.ts';
import type { PriceTable } from '../models/usage.ts';
import { requestTokens } from '../models/usageCheck.ts';
import type { SimEvent } from './events.ts';

/** What a run may spend; either, both or neither. */
export interface BudgetLimits {
  readonly tokens?: number;
  readonly dollars?: number;
}

/** A call let through: the output cap it must keep to, and the hold to let go once it is logged. */
export interface BudgetGrant {
  /** The request's own `maxTokens`, or less when less is left; undefined without a budget. */
  readonly maxTokens: number | undefined;
  /** Gives back what the call held; its `usage` event has been counted by then. */
  release(): void;
}

/**
 * A run's budget, checked before each call as well as after. `admit` caps a call's output tokens
 * from what is left, split between the `lanes` (dialogues at once) so that calls in flight
 * together can never spend more than is left, and holds what the call may spend until it is
 * logged. Once what is left cannot pay for the smallest call, the budget is spent for good.
 */
export interface BudgetGuard {
  admit(model: string, request: Pick<ChatRequest, 'messages' | 'tools' | 'maxTokens'>): BudgetGrant;
  /** Counts one logged event (only `usage` events spend). */
  record(event: SimEvent): void;
  /** Whether no more calls may start. */
  spent(): boolean;
}

/** The fewest output tokens a call is given, however little is left. */
export const MIN_CALL_OUTPUT = 32;

const OPEN_CAP = Number.POSITIVE_INFINITY;

/** Spending in one unit (tokens or dollars): a limit, what was spent, what calls in flight hold. */
interface Meter {
  readonly limit: number;
  /** What one input and one output token cost in this unit, for `model` (0 when it is not counted). */
  readonly rates: (model: string) => { readonly input: number; readonly output: number };
  /** What a logged call spent in this unit. */
  readonly cost: (event: Extract<SimEvent, { type: 'usage' }>) => number;
  /** The least a call can cost in this unit. */
  readonly smallest: number;
  spent: number;
  held: number;
}

/**
 * The budget guard of a run with `limits`, `lanes` dialogues at once and these `prices`. A model
 * without a price is not counted against a dollar budget (its cost is unknown): a token budget is
 * what limits it, which is why `planRun` asks for one. What an interrupted run had spent comes in
 * through `record` like any other event.
 */
export function createBudget(
  limits: BudgetLimits | undefined,
  prices: PriceTable,
  lanes: number,
): BudgetGuard {
  const meters: Meter[] = [];
  if (limits?.tokens !== undefined) {
    meters.push({
      limit: limits.tokens,
      rates: () => ({ input: 1, output: 1 }),
      cost: (e) => e.inputTokens + e.outputTokens,
      smallest: MIN_CALL_OUTPUT,
      spent: 0,
      held: 0,
    });
  }
  if (limits?.dollars !== undefined) {
    const dearest = Math.max(0, ...Object.values(prices).map((p) => p.outputPerMillion));
    meters.push({
      limit: limits.dollars,
      rates: (model) => {
        const price = Object.hasOwn(prices, model) ? prices[model] : undefined;
        return {
          input: (price?.inputPerMillion ?? 0) / 1_000_000,
          output: (price?.outputPerMillion ?? 0) / 1_000_000,
        };
      },
      cost: (e) => e.cost ?? 0,
      smallest: (MIN_CALL_OUTPUT * dearest) / 1_000_000,
      spent: 0,
      held: 0,
    });
  }
  const share = Math.max(1, lanes);
  let over = false;
  // The first call may always go (capped), so a run is never refused by a rate alone.
  const check = () => {
    over ||= meters.some((m) => {
      const left = m.limit - m.spent - m.held;
      return m.spent + m.held > 0 ? left < Math.max(m.smallest, 1e-12) : left <= 0;
    });
    return over;
  };

  return {
    admit(model, request) {
      const input = requestTokens(request);
      let cap = request.maxTokens ?? OPEN_CAP;
      for (const meter of meters) {
        const { input: inRate, output: outRate } = meter.rates(model);
        if (outRate <= 0) continue;
        const left = (meter.limit - meter.spent - meter.held) / share;
        const affordable = Math.floor((left - input * inRate) / outRate);
        cap = Math.min(cap, Math.max(MIN_CALL_OUTPUT, affordable));
      }
      const maxTokens = cap === OPEN_CAP ? undefined : cap;
      const holds = meters.map((meter) => {
        const { input: inRate, output: outRate } = meter.rates(model);
        return input * inRate + (maxTokens ?? 0) * outRate;
      });
      meters.forEach((meter, i) => (meter.held += holds[i] ?? 0));
      let released = false;
      return {
        maxTokens,
        release() {
          if (released) return;
          released = true;
          meters.forEach((meter, i) => (meter.held -= holds[i] ?? 0));
        },
      };
    },
    record(event) {
      if (event.type !== 'usage') return;
      for (const meter of meters) meter.spent += meter.cost(event);
    },
    spent: check,
  };
}
