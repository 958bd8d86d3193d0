import type { SimScenario } from './events.ts';
import type { Transcript } from './transcript.ts';
import { ordinal } from './transcript.ts';

/*
 * The simulated user is a model too, and it errs: it leaves while the agent is still waiting on
 * it, or it states facts its brief never gave it (tau2-bench found up to 30% of failed
 * trajectories were the user simulator's doing). Such a dialogue says little about the agent, so
 * it is flagged "simulator suspect" and kept out of the pass rate until a person reviews it.
 */

/** Codes and ids a customer could only know from its brief: letters and digits together, or an e-mail. */
const IDENTIFIER =
  /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}|\b(?=[\p{L}_-]*\p{N})(?=[\p{N}_-]*\p{L})[\p{L}\p{N}_-]{2,}\b/gu;

/** A question that closes a conversation rather than one the agent needs answered to go on. */
const CLOSING = /anything else|can i help|have a (?:nice|good|great)/i;

/** Words too common to say what a question asks for. */
const COMMON = new Set(
  'what which when where your yours could would please provide give tell share have that this with from about there their them they also just need like know help able sure thanks thank before after into'.split(
    ' ',
  ),
);

/** The last question of a message: the sentence that ends with its last "?". */
function lastQuestion(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed.endsWith('?')) return undefined;
  const sentences = trimmed.split(/(?<=[.!?])\s+/);
  return sentences.at(-1);
}

/** The item of the brief that holds what the question asks for (a word of it, four letters up). */
function heldByBrief(question: string, knows: readonly string[]): string | undefined {
  const words = (text: string) =>
    new Set(
      (text.toLowerCase().match(/\p{L}{4,}/gu) ?? [])
        .filter((w) => !COMMON.has(w))
        .map((w) => w.replace(/(?:es|s)$/u, '')),
    );
  const asked = words(question);
  return knows.find((item) => [...words(item)].some((w) => asked.has(w)));
}

/**
 * Why the simulated user probably erred in this dialogue, in words; empty when nothing points to
 * it. Two signs are read: in a dialogue that failed, the user ended the conversation right after
 * the agent's last reply ended on a question (not a goodbye) asking for something the user's brief
 * holds (it left before the agent could act on its goal), whatever else that reply said; and the user said an identifier (a booking code, an id, an e-mail) that neither its
 * brief nor anything the agent or a tool said before contains (it made a fact up).
 */
export function simulatorSuspicion(
  scenario: SimScenario,
  transcript: Transcript,
  failed: boolean,
): string[] {
  const reasons: string[] = [];
  const { messages } = transcript;
  if (failed && transcript.ending?.reason === 'user-done') {
    // Read from the dialogue's shape: the agent's last reply ends on a question (its last
    // sentence, whatever came before it) that is not a goodbye, asking for something the user's
    // brief holds, and the user left in its next message.
    const lastAgent = messages.findLast((m) => m.speaker === 'agent');
    const question =
      lastAgent && lastAgent.calls.length === 0 ? lastQuestion(lastAgent.text) : undefined;
    const held =
      question !== undefined && !CLOSING.test(question)
        ? heldByBrief(question, scenario.knows)
        : undefined;
    const after = messages.filter((m) => m.speaker === 'user' && m.turn > (lastAgent?.turn ?? -1));
    if (lastAgent && held !== undefined && after.length <= 1)
      reasons.push(
        `The simulated user left right after the agent asked it for something its brief holds ("${clip(held)}"), in its ${ordinal(lastAgent.nth)} reply: "${clip(lastAgent.text)}", before the agent could act on its goal.`,
      );
  }
  const brief = [scenario.persona, scenario.goal, ...scenario.knows].join('\n').toLowerCase();
  let heard = brief;
  const invented = new Set<string>();
  for (const message of messages) {
    if (message.speaker === 'user') {
      for (const found of message.text.match(IDENTIFIER) ?? []) {
        if (!heard.includes(found.toLowerCase())) invented.add(found);
      }
    } else {
      heard += `\n${message.text.toLowerCase()}`;
      for (const call of message.calls) heard += `\n${(call.result?.text ?? '').toLowerCase()}`;
    }
  }
  if (invented.size > 0)
    reasons.push(
      `The simulated user said ${[...invented].map((s) => `"${s}"`).join(', ')}, which neither its brief nor the agent had given it.`,
    );
  return reasons;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}
