import type { PromptTemplate } from '../sim/prompts.ts';

/**
 * Relation rating (assist/relate.ts): one policy against many others per call, each pair rated
 * 0-10 for how likely one conversation puts both to the test.
 */
export const RELATE_PROMPT: PromptTemplate = {
  id: 'relate',
  version: 1,
  text: `You rate how likely pairs of a support agent's policies come up in the same conversation with a customer.

The policy to compare:
{{policy}}

The other policies, one a line as "id: text (category; tools)":
{{others}}

For each other policy, rate from 0 to 10 how likely one conversation puts both policies to the test: 0 when they never meet, 5 when they often meet, 10 when one can hardly come up without the other. Policies about the same task, the same tools or the same data meet more often; everyday words they happen to share do not make them meet.

Answer with one JSON object: {"ratings": [{"other": "<id>", "weight": <0-10>, "reason": "<a few words>"}]}, one entry for every other policy, with the ids exactly as written.`,
};
