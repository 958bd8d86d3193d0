import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  Tool,
  ToolChoice,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { ChatMessage, ChatRequest } from '../../core/index.ts';

/** The Messages API insists on a limit; this is enough for an agent's turn. */
const DEFAULT_MAX_TOKENS = 1024;

/** The forced tool that stands for a JSON answer, and whether its schema was wrapped. */
export interface SchemaTool {
  readonly name: string;
  /** A schema that is not an object is asked for as `{ value: ... }` and unwrapped. */
  readonly wrapped: boolean;
}

/**
 * Our request as a streamed Messages API call: system turns become the system prompt, tools
 * get `input_schema`, tool choice maps to auto/any/none/tool, and a requested JSON schema
 * becomes one more tool that the model is made to call (`schemaTool` names it).
 */
export function toParams(request: ChatRequest): {
  params: MessageCreateParamsStreaming;
  schemaTool: SchemaTool | undefined;
} {
  const system = request.messages
    .flatMap((m) => (m.role === 'system' ? [m.content] : []))
    .join('\n\n');
  const choice = request.toolChoice;
  const named = typeof choice === 'object' ? choice.name : undefined;
  const offered = choice === 'none' && request.responseSchema ? [] : (request.tools ?? []);
  const tools: Tool[] = offered.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { type: 'object', ...tool.parameters },
  }));
  let toolChoice: ToolChoice | undefined =
    choice === undefined || tools.length === 0 ? undefined : toToolChoice(choice);
  let schemaTool: SchemaTool | undefined;
  if (request.responseSchema) {
    const { schema } = request.responseSchema;
    let name = request.responseSchema.name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 60) || 'answer';
    if (tools.some((tool) => tool.name === name)) name = `${name}_json`;
    const wrapped = schema.type !== 'object';
    tools.push({
      name,
      description: 'Give your answer as this JSON.',
      input_schema: wrapped
        ? { type: 'object', properties: { value: schema }, required: ['value'] }
        : { type: 'object', ...schema },
    });
    schemaTool = { name, wrapped };
    toolChoice = named
      ? { type: 'tool', name: named }
      : tools.length === 1
        ? { type: 'tool', name }
        : { type: 'any' };
  }
  return {
    params: {
      model: request.model,
      max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
      messages: toWire(request.messages),
      stream: true,
      ...(system !== '' && { system }),
      ...(tools.length > 0 && { tools }),
      ...(toolChoice && { tool_choice: toolChoice }),
    },
    schemaTool,
  };
}

function toToolChoice(choice: NonNullable<ChatRequest['toolChoice']>): ToolChoice {
  if (typeof choice === 'object') return { type: 'tool', name: choice.name };
  return { type: choice === 'required' ? 'any' : choice };
}

/**
 * Our messages as Anthropic's: tool calls become tool_use blocks, tool results user
 * tool_result blocks, and turns of the same role are merged (the API wants them alternating).
 */
function toWire(messages: readonly ChatMessage[]): MessageParam[] {
  const wire: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
  const add = (role: 'user' | 'assistant', blocks: ContentBlockParam[]) => {
    if (blocks.length === 0) return;
    const last = wire.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else wire.push({ role, content: blocks });
  };
  for (const message of messages) {
    const text: ContentBlockParam[] =
      message.role !== 'tool' && message.content !== ''
        ? [{ type: 'text', text: message.content }]
        : [];
    if (message.role === 'user') add('user', text);
    if (message.role === 'tool') {
      add('user', [
        { type: 'tool_result', tool_use_id: message.toolCallId, content: message.content },
      ]);
    }
    if (message.role === 'assistant') {
      add('assistant', [
        ...text,
        ...(message.toolCalls ?? []).map((call) => ({
          type: 'tool_use' as const,
          id: call.id,
          name: call.name,
          input: parseObject(call.arguments),
        })),
      ]);
    }
  }
  return wire;
}

/** Tool input must be an object; bad arguments (being repaired) are sent as an empty one. */
function parseObject(json: string): Record<string, unknown> {
  try {
    const value = JSON.parse(json) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
