import type { ModelRole, Usage } from './chat.ts';

/** What a model costs, in US dollars per million tokens. */
export interface ModelPrice {
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
}

/** Prices by model name; the user edits this table. A local model costs nothing. */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** Tokens and dollars spent, in total and per role. */
export interface UsageLedger {
  readonly calls: number;
  /** Of those calls, how many failed (their tokens are counted all the same). */
  readonly failed: number;
  /** Of those calls, how many have tokens estimated from characters (see usageCheck.ts). */
  readonly estimated: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Dollars; null once a call used a model with no price (so the total is unknown). */
  readonly cost: number | null;
  /** Models that were used without a price, for the "add a price" hint. */
  readonly unpriced: readonly string[];
  readonly byRole: Readonly<Partial<Record<ModelRole, Omit<UsageLedger, 'byRole'>>>>;
}

export const EMPTY_LEDGER: UsageLedger = {
  calls: 0,
  failed: 0,
  estimated: 0,
  inputTokens: 0,
  outputTokens: 0,
  cost: 0,
  unpriced: [],
  byRole: {},
};

/** Dollars for one call, or null when the table has no price for the model. */
export function callCost(model: string, usage: Usage, prices: PriceTable): number | null {
  const price = Object.hasOwn(prices, model) ? prices[model] : undefined;
  if (!price) return null;
  return (
    (usage.inputTokens * price.inputPerMillion + usage.outputTokens * price.outputPerMillion) /
    1_000_000
  );
}

/** The ledger after one more call by `role` on `model`. */
export function addUsage(
  ledger: UsageLedger,
  role: ModelRole,
  model: string,
  usage: Usage,
  prices: PriceTable,
): UsageLedger {
  const cost = callCost(model, usage, prices);
  const add = (entry: Omit<UsageLedger, 'byRole'>): Omit<UsageLedger, 'byRole'> => ({
    calls: entry.calls + 1,
    failed: entry.failed,
    estimated: entry.estimated + (usage.estimated === undefined ? 0 : 1),
    inputTokens: entry.inputTokens + usage.inputTokens,
    outputTokens: entry.outputTokens + usage.outputTokens,
    cost: entry.cost === null || cost === null ? null : entry.cost + cost,
    unpriced:
      cost === null && !entry.unpriced.includes(model)
        ? [...entry.unpriced, model]
        : entry.unpriced,
  });
  const { byRole, ...total } = ledger;
  return {
    ...add(total),
    byRole: { ...byRole, [role]: add(byRole[role] ?? EMPTY_LEDGER) },
  };
}

/** A ledger in words, as the run's header and the CLI's summary say it. */
export interface SpendingWords {
  /** "12 model calls (1 failed, counted all the same) · ≈3456 tokens · ≈$0.0123". */
  readonly summary: string;
  /** Why some figures are marked ≈, when calls' token counts were estimated; else undefined. */
  readonly estimated: string | undefined;
}

/**
 * What a ledger spent, in words: calls, tokens and dollars, figures resting on estimated token
 * counts marked "≈", and a cost that cannot be known (a model without a price) said so by name.
 */
export function spendingWords(ledger: Omit<UsageLedger, 'byRole'>): SpendingWords {
  const about = ledger.estimated > 0 ? '≈' : '';
  const calls = `${ledger.calls} model call${ledger.calls === 1 ? '' : 's'}${ledger.failed > 0 ? ` (${ledger.failed} failed, counted all the same)` : ''}`;
  const tokens = `${about}${ledger.inputTokens + ledger.outputTokens} tokens`;
  const cost =
    ledger.cost === null
      ? `cost unknown (no price for ${ledger.unpriced.map((m) => `“${m}”`).join(', ') || 'a model'})`
      : `${about}$${ledger.cost.toFixed(4)}`;
  return {
    summary: `${calls} · ${tokens} · ${cost}`,
    estimated:
      ledger.estimated > 0
        ? `the provider's token counts of ${ledger.estimated} call${ledger.estimated === 1 ? '' : 's'} could not be true or were missing: estimated from characters`
        : undefined,
  };
}
