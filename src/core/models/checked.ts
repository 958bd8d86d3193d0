import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv } from 'ajv';
import type { ChatEngine, ChatMessage, ChatOptions, ChatRequest, ChatResponse } from './chat.ts';
import { ModelError, addTokens } from './errors.ts';
import { repairNote } from './repair.ts';
import type { RetryPolicy, RetryRuntime } from './retry.ts';
import { withRetries } from './retry.ts';
import { countedUsage } from './usageCheck.ts';

/** How to run a checked call: retries for the provider, one repair for the model. */
export interface CheckedChatOptions extends ChatOptions {
  readonly runtime: RetryRuntime;
  readonly policy?: RetryPolicy;
  /** Told before each retry wait, e.g. to show "rate-limited, retrying in 4 s". */
  readonly onRetry?: (error: ModelError, attempt: number, delayMs: number) => void;
}

/** A model turn that passed its checks. */
export interface CheckedResponse extends ChatResponse {
  /** The parsed JSON answer, when the request asked for a schema. */
  readonly json?: unknown;
  /** Whether the first answer was bad and a repair turn fixed it. */
  readonly repaired: boolean;
}

/** What was wrong with an answer, worded for the model (the repair prompt) and for a person. */
interface Problem {
  readonly kind: 'malformed-output' | 'schema-violation';
  readonly message: string;
}

/**
 * Runs one model turn the way a simulation needs it: provider failures are retried with
 * backoff; an answer with malformed tool-call JSON, an unknown tool, or JSON that breaks the
 * requested schema gets exactly one repair turn (the model is told what was wrong), and if the
 * repair is bad too the call fails with a `malformed-output` or `schema-violation` ModelError,
 * which a run counts as the model's fault, never the provider's. Usage covers both turns, and a
 * failure carries what its turns spent (`ModelError.usage`), so failed calls are paid for too.
 * Each turn's counts are held to `countedUsage`: counts that cannot be true are estimated.
 */
export async function checkedChat(
  engine: ChatEngine,
  request: ChatRequest,
  options: CheckedChatOptions,
): Promise<CheckedResponse> {
  const call = async (req: ChatRequest): Promise<ChatResponse> => {
    try {
      const answer = await withRetries(
        (signal) =>
          engine.chat(req, { signal, ...(options.onDelta && { onDelta: options.onDelta }) }),
        options.runtime,
        {
          ...(options.policy && { policy: options.policy }),
          ...(options.signal && { signal: options.signal }),
          ...(options.onRetry && { onRetry: options.onRetry }),
        },
      );
      return { ...answer, usage: countedUsage(answer.usage, req, answer.message) };
    } catch (error) {
      // What a failed turn spent, when an engine says, is held to the same checks.
      if (error instanceof ModelError && error.usage)
        throw new ModelError(error.kind, error.message, {
          ...(error.status !== undefined && { status: error.status }),
          ...(error.retryAfterMs !== undefined && { retryAfterMs: error.retryAfterMs }),
          usage: countedUsage(error.usage, req),
        });
      throw error;
    }
  };
  const first = await call(request);
  const firstCheck = checkResponse(request, first);
  if (firstCheck.ok) return { ...first, ...jsonOf(firstCheck.json), repaired: false };

  let second: ChatResponse;
  try {
    second = await call({
      ...request,
      messages: [...request.messages, ...repairMessages(first, firstCheck.problem)],
    });
  } catch (error) {
    // The bad first answer was paid for, whatever became of its repair.
    throw error instanceof ModelError ? error.spent(first.usage) : error;
  }
  const usage = addTokens(first.usage, second.usage);
  const secondCheck = checkResponse(request, second);
  if (!secondCheck.ok) {
    throw new ModelError(
      secondCheck.problem.kind,
      `The model answered badly twice. ${secondCheck.problem.message}`,
      { usage },
    );
  }
  return { ...second, usage, ...jsonOf(secondCheck.json), repaired: true };
}

function jsonOf(json: unknown): { json?: unknown } {
  return json === undefined ? {} : { json };
}

/** The turns that tell the model what was wrong: tool errors for tool calls, else a user note. */
function repairMessages(bad: ChatResponse, problem: Problem): ChatMessage[] {
  const note = repairNote(problem.message);
  const calls = bad.message.toolCalls ?? [];
  if (calls.length === 0) return [bad.message, { role: 'user', content: note }];
  return [
    bad.message,
    ...calls.map((call) => ({ role: 'tool' as const, toolCallId: call.id, content: note })),
  ];
}

/**
 * Checks an answer against what was asked: every tool call names an offered tool and carries
 * a JSON object that fits the tool's parameters; a required tool call is there; a requested
 * JSON answer parses and fits its schema. Pure; exported for tests and for replay tools.
 */
export function checkResponse(
  request: ChatRequest,
  response: ChatResponse,
): { ok: true; json?: unknown } | { ok: false; problem: Problem } {
  const calls = response.message.toolCalls ?? [];
  for (const call of calls) {
    const tool = request.tools?.find((t) => t.name === call.name);
    if (request.tools && !tool) {
      const offered = request.tools.map((t) => t.name).join(', ');
      return bad(
        'malformed-output',
        `It called a tool "${call.name}" that does not exist (tools: ${offered}).`,
      );
    }
    const parsed = parseJson(call.arguments === '' ? '{}' : call.arguments);
    if (!parsed.ok || !isObject(parsed.value)) {
      return bad(
        'malformed-output',
        `The arguments of its call to "${call.name}" are not a JSON object: ${clip(call.arguments)}`,
      );
    }
    const errors = tool ? schemaErrors(tool.parameters, parsed.value) : [];
    if (errors.length > 0) {
      return bad(
        'schema-violation',
        `The arguments of its call to "${call.name}" ${errors.join('; ')}.`,
      );
    }
  }
  const required = request.toolChoice === 'required' || typeof request.toolChoice === 'object';
  if (required && calls.length === 0) {
    return bad('malformed-output', 'It was asked to call a tool and answered with text instead.');
  }
  if (!request.responseSchema || calls.length > 0) return { ok: true };
  const parsed = parseJson(stripFence(response.message.content));
  if (!parsed.ok) {
    return bad('malformed-output', `Its answer is not JSON: ${clip(response.message.content)}`);
  }
  const errors = schemaErrors(request.responseSchema.schema, parsed.value);
  if (errors.length > 0) {
    return bad('schema-violation', `Its JSON answer ${errors.join('; ')}.`);
  }
  return { ok: true, json: parsed.value };
}

function bad(kind: Problem['kind'], message: string): { ok: false; problem: Problem } {
  return { ok: false, problem: { kind, message } };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Models often wrap JSON in a Markdown fence even when asked not to; that is not a fault. */
function stripFence(text: string): string {
  const match = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/.exec(text);
  return match?.[1] ?? text;
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

let ajv: Ajv | undefined;
const compiled = new WeakMap<object, ValidateFunction | null>();

/** Why `value` breaks `schema`, in words; none when it fits or the schema itself is unusable. */
function schemaErrors(schema: object, value: unknown): string[] {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    // Unknown formats (date, email, ...) are not the model's fault and must not reach the console.
    ajv ??= new Ajv({ allErrors: true, strict: false, logger: false });
    try {
      validate = ajv.compile(schema);
    } catch {
      // A broken schema is reported by the project's lint; it cannot hold the model to account.
      validate = null;
    }
    compiled.set(schema, validate);
  }
  if (validate === null || validate(value)) return [];
  return (validate.errors ?? []).slice(0, 3).map(describe);
}

function describe(error: ErrorObject): string {
  const at = error.instancePath === '' ? '' : ` at ${error.instancePath}`;
  if (error.keyword === 'required') {
    return `miss the required field "${String(error.params.missingProperty)}"`;
  }
  if (error.keyword === 'additionalProperties') {
    return `have an unknown field "${String(error.params.additionalProperty)}"`;
  }
  return `break the schema${at}: ${error.message ?? error.keyword}`;
}
