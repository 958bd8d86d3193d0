import { ModelError, formatBytes } from '../../../core/index.ts';
import type { StorageEstimate } from './types.ts';

/** The text of anything thrown. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null && 'message' in error) {
    return String(error.message);
  }
  return String(error);
}

function nameOf(error: unknown): string {
  return typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : '';
}

const CRASH =
  /invalid typed array length|memory access out of bounds|unreachable|worker|terminated|module is already initialized|out of memory|cannot enlarge memory|aborted\(|\(abort\)/i;
const DEVICE_LOST = /device (is |was )?lost|devicelost|gpu device/i;

/** Whether the engine's worker (or its GPU device) died, so a fresh instance may do better. */
export function isCrash(error: unknown): boolean {
  const name = nameOf(error);
  if (name === 'AbortError' || error instanceof ModelError) return false;
  return (
    name === 'RuntimeError' ||
    name === 'RangeError' ||
    error instanceof WebAssembly.RuntimeError ||
    CRASH.test(messageOf(error)) ||
    DEVICE_LOST.test(messageOf(error))
  );
}

/** Whether anything thrown means the call was stopped on purpose. */
export function isAbort(error: unknown): boolean {
  return (
    nameOf(error) === 'AbortError' || (error instanceof ModelError && error.kind === 'aborted')
  );
}

/** A ModelError for a failed chat call, worded for the person running the simulation. */
export function chatError(error: unknown, contextSize: number): ModelError {
  if (error instanceof ModelError) return error;
  if (isAbort(error)) return new ModelError('aborted', 'The call was stopped.');
  const said = messageOf(error);
  const type = (error as { type?: unknown } | null)?.type;
  if (type === 'kv_cache_full' || /context|kv cache|n_ctx|too long|exceeds/i.test(said)) {
    return new ModelError(
      'context-length',
      `The conversation is too long for the local model's context window (${contextSize} tokens). Load it with a larger context, or shorten the dialogue. (${said})`,
    );
  }
  if (DEVICE_LOST.test(said)) {
    return new ModelError(
      'server',
      `The GPU stopped responding (device lost) and reloading the model did not help: ${said}. Close other GPU-heavy tabs, or load a smaller model.`,
    );
  }
  if (isCrash(error)) {
    return new ModelError(
      'server',
      `The local model crashed twice in a row (${said}). Reload it, or try a smaller model or context.`,
    );
  }
  if (type === 'model_not_loaded') return notLoaded();
  if (/grammar|schema|json|tool/i.test(said)) {
    return new ModelError('bad-request', `The local model could not take this request: ${said}`);
  }
  return new ModelError('server', `The local model failed: ${said}`);
}

/** The error for a call with no model loaded. */
export function notLoaded(): ModelError {
  return new ModelError(
    'not-found',
    'No local model is loaded. Load one from the models dialog (In this browser).',
  );
}

function isQuota(error: unknown): boolean {
  return nameOf(error) === 'QuotaExceededError' || /quota/i.test(messageOf(error));
}

/**
 * A ModelError for a failed download: stopped, out of storage (with what it needs and what is
 * free), refused by the server, or cut by the network.
 */
export async function downloadError(
  error: unknown,
  url: string,
  neededBytes: number,
  estimate: StorageEstimate | undefined,
  aborted: boolean,
): Promise<ModelError> {
  if (error instanceof ModelError) return error;
  if (aborted || isAbort(error)) return new ModelError('aborted', 'The download was stopped.');
  const said = messageOf(error);
  if (isQuota(error)) {
    let free = '';
    try {
      const { quota, usage } = (await estimate?.()) ?? {};
      if (quota !== undefined && usage !== undefined) {
        free = `, ${formatBytes(Math.max(0, quota - usage))} free`;
      }
    } catch {
      // No estimate: the message just leaves the free space out.
    }
    const needed = neededBytes > 0 ? `${formatBytes(neededBytes)} needed` : 'more space needed';
    return new ModelError(
      'bad-request',
      `Not enough storage for this model (${needed}${free}). Delete models you no longer use, or pick a smaller one.`,
    );
  }
  const status = /HTTP (\d{3})/.exec(said)?.[1];
  if (status === '401' || status === '403') {
    return new ModelError(
      'auth',
      `The server refused the download (${status}); the model may be gated or private: ${url}`,
      { status: Number(status) },
    );
  }
  if (status === '404') {
    return new ModelError('not-found', `No model file at ${url} (404).`, { status: 404 });
  }
  if (status) {
    return new ModelError('server', `The download failed (HTTP ${status}): ${url}`, {
      status: Number(status),
    });
  }
  return new ModelError(
    'network',
    `The download failed (${said}). Check the connection, and that the server allows this page to fetch the file (CORS).`,
  );
}

/** A ModelError for a model that would not load. */
export function loadError(error: unknown, name: string): ModelError {
  if (error instanceof ModelError) return error;
  const said = messageOf(error);
  if (/memory|alloc/i.test(said)) {
    return new ModelError(
      'bad-request',
      `Not enough memory to load ${name} (${said}). Try a smaller model or a smaller context.`,
    );
  }
  return new ModelError('bad-request', `Could not load ${name}: ${said}`);
}
