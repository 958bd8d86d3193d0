import type { Usage } from './chat.ts';

/**
 * What went wrong in a model call, classified so a run can tell the provider failing (an
 * error, never held against the agent) from the model answering badly, and knows what to retry.
 */
export type ModelErrorKind =
  /** 429: too many requests; retried after the wait the provider asks for. */
  | 'rate-limit'
  /** 5xx or a stream cut mid-way: the provider failed; retried. */
  | 'server'
  /** No answer in time; retried. */
  | 'timeout'
  /** The network failed before any answer; retried. */
  | 'network'
  /** The browser refused the response (CORS): a setting on the server, not retried. */
  | 'cors'
  /** 401/403: the key is missing, wrong or not allowed. */
  | 'auth'
  /** 404: no such model or endpoint. */
  | 'not-found'
  /** The conversation does not fit the model's context window. */
  | 'context-length'
  /** Any other 4xx: the request itself is wrong. */
  | 'bad-request'
  /** The user or a newer request stopped the call. */
  | 'aborted'
  /** The model wrote tool-call arguments or JSON that does not parse, even after one repair. */
  | 'malformed-output'
  /** The model's JSON parses but breaks the schema asked for, even after one repair. */
  | 'schema-violation'
  /** The provider kept sending past the size an answer may take; cut there, not retried. */
  | 'too-long';

/** Kinds worth another attempt with the same request. */
const RETRYABLE: ReadonlySet<ModelErrorKind> = new Set([
  'rate-limit',
  'server',
  'timeout',
  'network',
]);
/** Kinds where the model, not the provider or the setup, is at fault. */
const MODEL_FAULTS: ReadonlySet<ModelErrorKind> = new Set(['malformed-output', 'schema-violation']);

/** A failed model call, with its kind and what the provider said. */
export class ModelError extends Error {
  readonly kind: ModelErrorKind;
  /** HTTP status, when there was one. */
  readonly status: number | undefined;
  /** How long the provider asked us to wait before trying again, in milliseconds. */
  readonly retryAfterMs: number | undefined;
  /**
   * Tokens the call spent before it failed (a bad answer and its bad repair are paid for), so
   * a failed call's cost is logged and counts against the budget; undefined when none is known.
   */
  readonly usage: Usage | undefined;

  constructor(
    kind: ModelErrorKind,
    message: string,
    details: { status?: number; retryAfterMs?: number; usage?: Usage } = {},
  ) {
    super(message);
    this.name = 'ModelError';
    this.kind = kind;
    this.status = details.status;
    this.retryAfterMs = details.retryAfterMs;
    this.usage = details.usage;
  }

  /** The same failure, having spent `usage` more tokens before it happened. */
  spent(usage: Usage): ModelError {
    const total = addTokens(this.usage, usage);
    return new ModelError(this.kind, this.message, {
      ...(this.status !== undefined && { status: this.status }),
      ...(this.retryAfterMs !== undefined && { retryAfterMs: this.retryAfterMs }),
      usage: total,
    });
  }

  /** Whether trying the same request again may work. */
  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }

  /** Whether the model answered badly (a policy run counts it), as opposed to an outside failure. */
  get modelFault(): boolean {
    return MODEL_FAULTS.has(this.kind);
  }
}

/** Two token counts added up; `undefined` counts as none. */
export function addTokens(a: Usage | undefined, b: Usage): Usage {
  const estimated = a?.estimated ?? b.estimated;
  return {
    inputTokens: (a?.inputTokens ?? 0) + b.inputTokens,
    outputTokens: (a?.outputTokens ?? 0) + b.outputTokens,
    ...(estimated !== undefined && { estimated }),
  };
}

/**
 * Reads a Retry-After header: seconds, or an HTTP date (measured from `nowMs`). Returns
 * milliseconds, or undefined when absent or unreadable. Capped at ten minutes.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs: number,
): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  const cap = (ms: number) => Math.min(Math.max(0, ms), 600_000);
  if (/^\d+(\.\d+)?$/.test(text)) return cap(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : cap(date - nowMs);
}

const CONTEXT_WORDS =
  /context length|context window|maximum context|too many tokens|prompt is too long|max_tokens|context_length_exceeded/i;

/**
 * Classifies an HTTP error answer from a provider into a ModelError with a message a person can
 * act on. `body` is the provider's error text (JSON or not); `retryAfter` the header value.
 */
export function classifyHttpError(
  status: number,
  body: string,
  options: { retryAfter?: string | null; nowMs: number; model?: string },
): ModelError {
  const said = providerMessage(body);
  const detail = said ? ` The provider said: ${said}` : '';
  const retryAfterMs = parseRetryAfter(options.retryAfter, options.nowMs);
  const extra = retryAfterMs === undefined ? { status } : { status, retryAfterMs };
  if (status === 429) {
    return new ModelError(
      'rate-limit',
      `The provider is rate-limiting requests (429).${detail}`,
      extra,
    );
  }
  if (status === 401 || status === 403) {
    return new ModelError(
      'auth',
      `The provider refused the API key (${status}). Check the key and that it may use this model.${detail}`,
      extra,
    );
  }
  if (status === 404) {
    const model = options.model ? ` "${options.model}"` : '';
    return new ModelError(
      'not-found',
      `The provider does not know the model${model} or the endpoint (404). Check the model name and the base URL.${detail}`,
      extra,
    );
  }
  if ((status === 400 || status === 413 || status === 422) && CONTEXT_WORDS.test(body)) {
    return new ModelError(
      'context-length',
      `The conversation is too long for this model's context window.${detail}`,
      extra,
    );
  }
  if (status >= 500) {
    return new ModelError('server', `The provider failed (${status}).${detail}`, extra);
  }
  return new ModelError(
    'bad-request',
    `The provider rejected the request (${status}).${detail}`,
    extra,
  );
}

/** The human part of a provider's error body: `error.message`, `message`, or the text itself. */
function providerMessage(body: string): string {
  const text = body.trim();
  if (text === '') return '';
  try {
    const value = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const nested = typeof value.error === 'object' ? value.error.message : value.error;
    const message = typeof nested === 'string' ? nested : value.message;
    if (typeof message === 'string' && message.trim() !== '') return clip(message.trim());
  } catch {
    // Not JSON: the text itself is the message.
  }
  return clip(text);
}

function clip(text: string): string {
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}
