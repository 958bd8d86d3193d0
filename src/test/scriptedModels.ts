import type { ChatEngine, ChatRequest, ChatResponse, RetryRuntime, Usage } from '../core/index.ts';
import { ModelError, USER_STOP } from '../core/index.ts';

/** A tool call a scripted model makes: arguments as an object, or as raw (maybe broken) text. */
export interface ScriptedCall {
  readonly name: string;
  readonly args: object | string;
  readonly id?: string;
}

/**
 * A model's answer for scripted engines in tests and benchmarks: text, or tool calls (with ids
 * `t0`, `t1`, ... unless given). Usage defaults to 100 tokens in, 10 out.
 */
export function modelReply(
  content: string,
  toolCalls: readonly ScriptedCall[] = [],
  usage: Usage = { inputTokens: 100, outputTokens: 10 },
): ChatResponse {
  return {
    message:
      toolCalls.length === 0
        ? { role: 'assistant', content }
        : {
            role: 'assistant',
            content,
            toolCalls: toolCalls.map((call, i) => ({
              id: call.id ?? `t${i}`,
              name: call.name,
              arguments: typeof call.args === 'string' ? call.args : JSON.stringify(call.args),
            })),
          },
    finishReason: toolCalls.length === 0 ? 'stop' : 'tool_calls',
    usage,
    model: 'scripted',
  };
}

/** Retries with no waiting: every sleep ends at once. */
export const instantRuntime: RetryRuntime = {
  sleep: () => Promise.resolve(),
  random: () => 0,
  controller: () => new AbortController(),
};

/**
 * A runtime where short sleeps (backoff) end at once and long ones (time limits, per-attempt
 * timeouts) wait until cancelled, or until the test calls `expire(ms)` for sleeps of that length.
 */
export function waitingRuntime(longMs = 1000) {
  const waiting: { ms: number; end: () => void }[] = [];
  const runtime: RetryRuntime = {
    sleep: (ms, signal) =>
      ms < longMs
        ? Promise.resolve()
        : new Promise((resolve, reject) => {
            waiting.push({ ms, end: resolve });
            signal?.addEventListener('abort', () => {
              reject(new Error('aborted'));
            });
          }),
    random: () => 0,
    controller: () => new AbortController(),
  };
  return {
    runtime,
    expire: (ms: number) => {
      for (const sleeper of waiting.filter((w) => w.ms === ms)) sleeper.end();
    },
  };
}

/** What a queued engine does for one call: answer, fail, answer from the request, or hang. */
export type ScriptedAnswer =
  ChatResponse | ModelError | ((request: ChatRequest) => ChatResponse) | 'hang';

/**
 * An engine that answers calls from a queue and keeps every request. `'hang'` waits until the
 * call is cancelled (then fails as `aborted`). Once the queue is spent, `whenEmpty` answers, or
 * the call fails so a test that asks too much says so.
 */
export function queuedEngine(answers: ScriptedAnswer[], whenEmpty?: () => ChatResponse) {
  const requests: ChatRequest[] = [];
  const engine: ChatEngine = {
    chat(request, options) {
      requests.push(request);
      const next = answers.shift() ?? whenEmpty?.();
      if (next === undefined) return Promise.reject(new Error('The script ran out of answers.'));
      if (next === 'hang') {
        return new Promise((_, reject) => {
          options?.signal?.addEventListener('abort', () => {
            reject(new ModelError('aborted', 'The call was stopped.'));
          });
        });
      }
      if (next instanceof ModelError) return Promise.reject(next);
      const answer = typeof next === 'function' ? next(request) : next;
      // Like an engine that cannot stream: the whole answer as one piece.
      if (answer.message.content !== '')
        options?.onDelta?.({ kind: 'text', text: answer.message.content });
      answer.message.toolCalls?.forEach((call, index) => {
        options?.onDelta?.({ kind: 'tool_call', index, ...call });
      });
      return Promise.resolve(answer);
    },
  };
  return { engine, requests };
}

/**
 * One engine for both seats of a short, polite dialogue: as the agent (asked with tools) it says
 * one thing; as the simulated user it asks once, then says goodbye.
 */
export const politeEngine: ChatEngine = {
  chat: (request) =>
    Promise.resolve(
      modelReply(
        request.tools
          ? 'I can help with that.'
          : request.messages.some((m) => m.role === 'assistant')
            ? `Thanks, bye. ${USER_STOP}`
            : 'Hello, I need a refund.',
      ),
    ),
};
