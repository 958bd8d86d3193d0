import type { ContentReply } from './http.ts';

/** What the default assistant needs to know about a conversation, whatever the protocol. */
export interface Conversation {
  readonly tools: readonly { readonly name: string; readonly parameters: unknown }[];
  readonly toolChoice: 'auto' | 'required' | 'none' | { readonly name: string };
  readonly last: { readonly role: 'user' | 'tool' | 'other'; readonly text: string };
  /** The JSON schema the answer must follow, if any. */
  readonly schema?: unknown;
}

/**
 * The scripted assistant used when the script has nothing to say: it calls a tool when one is
 * forced, required, or offered right after a user turn (arguments made from the tool's schema);
 * it answers a tool result with text that uses it; otherwise it answers JSON or plain text.
 */
export function defaultReply(conversation: Conversation): ContentReply {
  const { tools, toolChoice, last } = conversation;
  const named = typeof toolChoice === 'object' ? toolChoice.name : undefined;
  const forced = tools.find((tool) => tool.name === named);
  const callable = toolChoice !== 'none' ? tools[0] : undefined;
  const tool = forced ?? (toolChoice === 'required' || last.role === 'user' ? callable : undefined);
  if (tool)
    return { toolCalls: [{ name: tool.name, arguments: exampleArguments(tool.parameters) }] };
  if (conversation.schema !== undefined) {
    return { text: JSON.stringify(exampleValue(conversation.schema, '')) };
  }
  if (last.role === 'tool') return { text: `The tool answered: ${last.text}` };
  return { text: last.text === '' ? 'Hello from the test server.' : `You said: ${last.text}` };
}

function exampleArguments(schema: unknown): Record<string, unknown> {
  const value = exampleValue(schema, '');
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

const EXAMPLE_STRINGS: Readonly<Record<string, string>> = {
  city: 'Paris',
  name: 'Alex',
  email: 'alex@example.com',
  date: '2025-01-01',
  id: '1',
};

/** A value that fits a JSON schema, using the property name for plausible strings. */
function exampleValue(schema: unknown, key: string): unknown {
  if (typeof schema !== 'object' || schema === null) return 'example';
  const s = schema as {
    type?: unknown;
    const?: unknown;
    enum?: unknown[];
    properties?: Record<string, unknown>;
    required?: string[];
    items?: unknown;
    minimum?: number;
    format?: string;
  };
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const type = Array.isArray(s.type) ? (s.type as unknown[]).find((t) => t !== 'null') : s.type;
  if (type === 'object' || (type === undefined && s.properties)) {
    const properties = s.properties ?? {};
    const keys = s.required ?? Object.keys(properties);
    return Object.fromEntries(keys.map((name) => [name, exampleValue(properties[name], name)]));
  }
  if (type === 'array') return [exampleValue(s.items, key)];
  if (type === 'integer' || type === 'number') return s.minimum ?? 1;
  if (type === 'boolean') return true;
  if (type === 'null') return null;
  return EXAMPLE_STRINGS[s.format ?? ''] ?? EXAMPLE_STRINGS[key.toLowerCase()] ?? 'example';
}
