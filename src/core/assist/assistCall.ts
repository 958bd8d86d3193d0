import type { ModelRole } from '../models/chat.ts';
import { callCost } from '../models/usage.ts';
import type { PriceTable } from '../models/usage.ts';
import type { CallContext, Player } from '../sim/modelCall.ts';
import { loggedChat } from '../sim/modelCall.ts';

// What every Assist action (extract, relate, guard, attack) shares: one checked, logged model
// call that asks for JSON, and the estimate shown before an action runs. A call's usage goes to
// `context.emit` as a `usage` event whether it succeeds or fails, as a run's calls do.

/** The calls and tokens an action plans, before it runs. */
export interface AssistPlanSize {
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** The estimate shown before an action runs: dollars, or null when the model has no price. */
export interface AssistEstimate extends AssistPlanSize {
  readonly model: string;
  readonly dollars: number | null;
  /** A model that runs in this browser costs nothing. */
  readonly free: boolean;
}

/** The estimate of a plan on `model`: a free model costs 0, an unpriced one is null. */
export function estimateAssist(
  size: AssistPlanSize,
  model: string,
  prices: PriceTable,
  free = false,
): AssistEstimate {
  const dollars = free
    ? 0
    : callCost(model, { inputTokens: size.inputTokens, outputTokens: size.outputTokens }, prices);
  return { ...size, model, dollars, free };
}

/**
 * Sends `text` as one user message and returns the model's JSON answer, checked against
 * `schema` (with one repair turn, as every checked call has). Throws the ModelError of a call
 * that failed; its usage is logged either way.
 */
export async function askJson(
  player: Player,
  context: CallContext,
  text: string,
  schema: { readonly name: string; readonly schema: Readonly<Record<string, unknown>> },
  role: ModelRole = 'generator',
): Promise<unknown> {
  const response = await loggedChat(
    role,
    player,
    { messages: [{ role: 'user', content: text }], responseSchema: schema },
    context,
  );
  return response.json;
}
