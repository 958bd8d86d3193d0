import type { Cancellation } from '../../core/index.ts';
import { ModelError, checkBaseUrl, classifyHttpError } from '../../core/index.ts';

type Constructor = abstract new (...args: never[]) => unknown;

/** The error classes of one provider SDK; both official SDKs export these four. */
export interface SdkErrorClasses {
  readonly APIError: Constructor;
  readonly APIUserAbortError: Constructor;
  readonly APIConnectionError: Constructor;
  readonly APIConnectionTimeoutError: Constructor;
}

/** Where a failure happened and what to keep out of its message. */
export interface FailureContext {
  readonly baseUrl: string;
  readonly model?: string;
  /** Removed from every message, whatever the provider echoed. */
  readonly apiKey?: string | undefined;
  /** The caller's cancellation: once it fired, any failure is an abort. */
  readonly signal?: Cancellation | undefined;
  /** Before the answer started (connection, HTTP status) or while it streamed. */
  readonly during: 'request' | 'stream';
}

/** The shape both SDKs give their API errors. */
interface SdkApiError {
  readonly status?: number;
  readonly headers?: { get(name: string): string | null };
  readonly error?: unknown;
  readonly message: string;
  readonly cause?: unknown;
}

/** Error types in streamed error events, by the HTTP status they stand for. */
const STREAM_ERROR_STATUS: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  rate_limit_exceeded: 429,
  api_error: 500,
  server_error: 500,
  overloaded_error: 529,
};

/**
 * Turns anything an SDK call threw into a ModelError a person can act on: HTTP errors through
 * core's `classifyHttpError` (Retry-After honoured), connection failures as network or, in a
 * browser talking to another origin, CORS, a stream that broke off as a server failure (so it
 * is retried), and a stopped call as aborted. The API key never survives into the message.
 */
export function toModelError(
  error: unknown,
  sdk: SdkErrorClasses,
  context: FailureContext,
): ModelError {
  return redact(classify(error, sdk, context), context.apiKey);
}

function classify(error: unknown, sdk: SdkErrorClasses, context: FailureContext): ModelError {
  if (error instanceof ModelError) return error;
  if (
    context.signal?.aborted === true ||
    error instanceof sdk.APIUserAbortError ||
    (error instanceof Error && error.name === 'AbortError')
  ) {
    return new ModelError('aborted', 'The call was stopped.');
  }
  if (error instanceof sdk.APIConnectionTimeoutError) {
    return new ModelError('timeout', `${context.baseUrl} did not answer in time.`);
  }
  if (error instanceof sdk.APIConnectionError) {
    return connectionError(error as SdkApiError, context.baseUrl);
  }
  if (error instanceof sdk.APIError) {
    const failure = error as SdkApiError;
    const status = failure.status ?? streamErrorStatus(failure.error);
    const retryAfterMs = failure.headers?.get('retry-after-ms');
    const retryAfter =
      retryAfterMs && /^\d+$/.test(retryAfterMs)
        ? String(Number(retryAfterMs) / 1000)
        : (failure.headers?.get('retry-after') ?? null);
    const body = failure.error === undefined ? failure.message : JSON.stringify(failure.error);
    return classifyHttpError(status, body, {
      retryAfter,
      nowMs: Date.now(),
      ...(context.model !== undefined && { model: context.model }),
    });
  }
  const said = error instanceof Error ? error.message : String(error);
  if (context.during === 'stream') {
    return new ModelError(
      'server',
      `The stream was cut off before the answer was complete (${said}).`,
    );
  }
  return new ModelError('network', `The request to ${context.baseUrl} failed: ${said}`);
}

/** A streamed error event carries no status; its error type says which one it stands for. */
function streamErrorStatus(body: unknown): number {
  const value = body as { type?: unknown; error?: { type?: unknown } } | undefined;
  const type = typeof value?.error?.type === 'string' ? value.error.type : value?.type;
  return (typeof type === 'string' ? STREAM_ERROR_STATUS[type] : undefined) ?? 500;
}

/** Whether this code runs in a page or a worker, where the browser enforces CORS. */
function inBrowser(): boolean {
  return 'document' in globalThis || 'WorkerGlobalScope' in globalThis;
}

function pageOrigin(): string | undefined {
  const location = (globalThis as { location?: { origin?: unknown } }).location;
  return typeof location?.origin === 'string' ? location.origin : undefined;
}

function connectionError(error: SdkApiError, baseUrl: string): ModelError {
  const cause = error.cause instanceof Error ? error.cause.message : '';
  let server = baseUrl;
  try {
    server = new URL(baseUrl).origin;
  } catch {
    // The URL was checked when the engine was made; keep it as given.
  }
  const page = pageOrigin();
  // A browser hides why a cross-origin fetch failed; a CORS refusal is by far the likeliest.
  if (inBrowser() && page !== undefined && page !== server && error.cause instanceof TypeError) {
    return new ModelError(
      'cors',
      `The server at ${server} refused cross-origin requests from this page (${page}), or could not be reached. ` +
        `To allow this page: for Ollama, set OLLAMA_ORIGINS to the page's origin ` +
        `(e.g. OLLAMA_ORIGINS=${page} ollama serve); for LM Studio, turn on "Enable CORS" in the ` +
        `server settings (or run lms server start --cors); for other servers, allow the origin ` +
        `${page} in their CORS settings, or put a proxy in front that does.`,
    );
  }
  const detail = cause === '' ? '' : ` (${cause})`;
  return new ModelError(
    'network',
    `Could not reach ${server}${detail}. Check the base URL and that the server is running.`,
  );
}

function redact(error: ModelError, apiKey: string | undefined): ModelError {
  if (apiKey === undefined || apiKey.length < 4 || !error.message.includes(apiKey)) return error;
  return new ModelError(error.kind, error.message.replaceAll(apiKey, '[redacted]'), {
    ...(error.status !== undefined && { status: error.status }),
    ...(error.retryAfterMs !== undefined && { retryAfterMs: error.retryAfterMs }),
    ...(error.usage && { usage: error.usage }),
  });
}

/**
 * An AbortSignal for the SDK that fires when `signal` does, so stopping a call really cancels
 * its HTTP request. `dispose` detaches it once the call is over.
 */
export function abortSignalFor(signal: Cancellation | undefined): {
  readonly signal: AbortSignal;
  dispose(): void;
} {
  const controller = new AbortController();
  if (!signal) return { signal: controller.signal, dispose: () => undefined };
  const abort = () => {
    controller.abort(signal.reason);
  };
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      signal.removeEventListener('abort', abort);
    },
  };
}

/** Throws a `bad-request` ModelError, in the same words the settings form uses, for a bad base URL. */
export function requireBaseUrl(baseUrl: string): void {
  const problem = checkBaseUrl(baseUrl);
  if (problem !== undefined) throw new ModelError('bad-request', `"${baseUrl}": ${problem}`);
}

/** Far beyond any per-attempt timeout: core's `withRetries` decides when a call has taken too long. */
export const SDK_TIMEOUT_MS = 24 * 60 * 60 * 1000;
