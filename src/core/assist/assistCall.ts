import type { ModelRole } from '../models/chat.ts';
import type { CallContext, Player } from '../sim/modelCall.ts';
import { loggedChat } from '../sim/modelCall.ts';

// One checked, logged model call that asks for JSON, as Assist actions make them.

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
