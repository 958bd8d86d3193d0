import type { RowChange } from './events.ts';
import { fencedBlock, inlineText, quoteBlock } from './markdownText.ts';
import type { Transcript, TranscriptCall } from './transcript.ts';

/* The conversation of a dialogue as Markdown, for dialogueExport.ts. */

/** The text with its first letter in capitals. */
export const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

const FALLBACK_WORDS = {
  message: 'the agent is told why',
  end: 'the dialogue ends',
  ask_user: 'the user is asked',
} as const;

function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return '"(cannot be shown)"';
  }
}

/**
 * The conversation part of a dialogue's Markdown export, as blocks: each message in a quote,
 * each tool call with its arguments, the guard's decision, its result and the rows it changed,
 * then any calls whose words never came. `turnName` names a raw turn as a reader counts it.
 */
export function conversationMarkdown(
  transcript: Transcript,
  turnName: (turn: number) => string,
): string[] {
  const { messages, calls } = transcript;
  const spoken = new Set(messages.filter((m) => m.speaker === 'agent').map((m) => m.turn));
  const blocks = ['## Conversation'];
  // Dual control: the scenario's setup calls ran before anyone spoke.
  const setup = calls.filter((c) => c.by === 'setup');
  if (setup.length > 0)
    blocks.push('### Set up before the conversation', ...setup.flatMap(callBlocks));
  if (messages.length === 0) blocks.push('No message was said.');
  for (const m of messages) {
    blocks.push(
      `### ${capital(turnName(m.turn))}`,
      m.text === '' ? '*(no words)*' : quoteBlock(m.text),
    );
    for (const call of m.calls) blocks.push(...callBlocks(call));
  }
  const saidBy = new Set(messages.flatMap((m) => m.calls));
  const unsaid = calls.filter(
    (c) => c.by !== 'setup' && !saidBy.has(c) && (c.by !== undefined || !spoken.has(c.turn)),
  );
  for (const call of unsaid) {
    blocks.push(`### ${capital(turnName(call.turn))} (its words never came)`, ...callBlocks(call));
  }
  return blocks;
}

function callBlocks(call: TranscriptCall): string[] {
  const { guard, result } = call;
  let decision = 'No guard decision was logged.';
  if (guard) {
    const rule =
      guard.rule === undefined
        ? ''
        : ` by rule ${inlineText(guard.rule)}${guard.policy === undefined ? '' : ` for policy ${inlineText(guard.policy)}`}`;
    const fallback =
      !guard.allowed && guard.fallback ? `; fallback: ${FALLBACK_WORDS[guard.fallback]}` : '';
    decision = `${guard.allowed ? 'Allowed' : 'Refused'}${rule}${fallback}. ${inlineText(guard.reason)}`;
  }
  const by =
    call.by === 'user' ? ' (the customer’s own tool)' : call.by === 'setup' ? ' (setup)' : '';
  const blocks = [
    `**Tool call${by}:** ${inlineText(call.tool)}, with arguments:`,
    fencedBlock(json(call.args), 'json'),
    // Guard rules hold only the agent's calls.
    ...(call.by === undefined ? [`**Guard:** ${decision}`] : []),
  ];
  if (result) {
    blocks.push(`**Result** (${result.ok ? 'ok' : 'an error'}):`, fencedBlock(result.text));
    if (result.changes.length > 0)
      blocks.push(['**Rows changed:**', ...result.changes.map(changeLine)].join('\n'));
  } else blocks.push('**Result:** none was logged.');
  return blocks;
}

function changeLine(change: RowChange): string {
  const at = `- ${inlineText(change.table)} ${inlineText(change.key)}`;
  const { before, after } = change;
  if (change.kind === 'insert') return `${at}: inserted ${inlineText(JSON.stringify(after))}`;
  if (change.kind === 'delete') return `${at}: deleted (was ${inlineText(JSON.stringify(before))})`;
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter(
    (f) => JSON.stringify(before?.[f]) !== JSON.stringify(after?.[f]),
  );
  const shown = (v: unknown) => (v === undefined ? '(none)' : JSON.stringify(v));
  const each = fields.map(
    (f) => `${inlineText(f)}: ${inlineText(shown(before?.[f]))} → ${inlineText(shown(after?.[f]))}`,
  );
  return `${at}, ${each.length === 0 ? 'unchanged' : each.join('; ')}`;
}
