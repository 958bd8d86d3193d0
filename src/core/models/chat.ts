/**
 * The one chat interface every model engine implements (local in the browser, or a remote
 * endpoint), shaped like OpenAI chat completions so adapters stay thin. The simulation engine
 * only ever sees this.
 */

/** What stops work that is no longer wanted; the platform's AbortSignal fits it. */
export interface Cancellation {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** A tool call the model asked for; `arguments` is the raw JSON text the model wrote. */
export interface ChatToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** One message of a conversation. */
export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string;
      readonly toolCalls?: readonly ChatToolCall[];
    }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly content: string };

/** A tool the model may call, with JSON-Schema parameters. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

/** Whether the model may, must, or must not call a tool (or must call one named tool). */
export type ToolChoice = 'auto' | 'required' | 'none' | { readonly name: string };

/** A request for one model turn. */
export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly ToolSpec[];
  readonly toolChoice?: ToolChoice;
  /** Ask for a JSON answer that follows this schema. */
  readonly responseSchema?: {
    readonly name: string;
    readonly schema: Readonly<Record<string, unknown>>;
  };
  readonly temperature?: number;
  readonly maxTokens?: number;
  readonly seed?: number;
}

/**
 * Tokens a call used. An engine passes on what the provider reported (NaN for a count it left
 * out); `checkedChat` keeps only counts that can be true (see usageCheck.ts).
 */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Set when the counts are estimated from characters: why (what the provider reported). */
  readonly estimated?: string;
}

/** Why the model stopped. */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

/** A finished model turn. */
export interface ChatResponse {
  readonly message: Extract<ChatMessage, { role: 'assistant' }>;
  readonly finishReason: FinishReason;
  readonly usage: Usage;
  /** The model that answered, as the engine names it. */
  readonly model: string;
}

/** A piece of a streamed answer: text, or a part of a tool call being written. */
export type ChatDelta =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'tool_call';
      readonly index: number;
      readonly id?: string;
      readonly name?: string;
      readonly arguments?: string;
    };

/** How to run one call. */
export interface ChatOptions {
  readonly signal?: Cancellation;
  /** Called with each piece as it streams in; engines that cannot stream call it once. */
  readonly onDelta?: (delta: ChatDelta) => void;
}

/** A model engine: local (in a worker) or remote (an endpoint). */
export interface ChatEngine {
  /** Runs one model turn. Rejects with a `ModelError` (see errors.ts), never anything else. */
  chat(request: ChatRequest, options?: ChatOptions): Promise<ChatResponse>;
}

/** The four jobs models do in PolicyLab; each may use a different model. */
export type ModelRole = 'generator' | 'user' | 'agent' | 'judge';

export const MODEL_ROLES: readonly ModelRole[] = ['generator', 'user', 'agent', 'judge'];
