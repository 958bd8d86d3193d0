import type { LoadModelParams } from '@wllama/wllama/esm/index.js';
import type { ChatEngine, ChatOptions, ChatRequest, ChatResponse } from '../../../core/index.ts';
import { ModelError, catalogueModel } from '../../../core/index.ts';
import { StreamedAnswer, toWllamaParams } from './chatMapping.ts';
import { detectGpu } from './gpu.ts';
import { chatError, isCrash, loadError, messageOf, notLoaded } from './localErrors.ts';
import { ModelCache, modelName } from './modelCache.ts';
import type {
  GpuSupport,
  LoadedModel,
  LocalModelHost,
  LocalModelSource,
  ModelCacheLike,
  StorageEstimate,
  WllamaLike,
} from './types.ts';
import { createWllama, openModelCache } from './wllama.ts';

/** How to build the host; everything but `wasmUrl` has a browser default. */
export interface LocalModelHostOptions {
  /** Our own copy of wllama's wasm (`import url from '@wllama/wllama/esm/wasm/wllama.wasm?url'`). */
  readonly wasmUrl: string;
  readonly createWllama?: (wasmUrl: string) => WllamaLike | Promise<WllamaLike>;
  readonly cache?: () => ModelCacheLike | Promise<ModelCacheLike>;
  readonly detectGpu?: () => Promise<GpuSupport>;
  /** CPU threads; by default up to half the cores (all of 2), and 1 unless cross-origin isolated. */
  readonly threads?: number;
  readonly storageEstimate?: StorageEstimate;
  /** How long a stopped call may take to wind down before the engine is presumed stuck. */
  readonly settleMs?: number;
}

const DEFAULT_CONTEXT = 4096;
const ALL_LAYERS = 999;

interface Current {
  readonly model: LoadedModel;
  readonly blobs: Blob[];
  readonly params: LoadModelParams;
  /** Cache keys of the files it was loaded from, when it came from the cache. */
  readonly keys: readonly string[];
}

function defaultThreads(): number {
  if (!globalThis.crossOriginIsolated) return 1;
  const cores = navigator.hardwareConcurrency || 1;
  return cores <= 2 ? cores : Math.min(8, Math.max(2, Math.floor(cores / 2)));
}

const aborted = () => new ModelError('aborted', 'The call was stopped.');

async function assertGguf(blob: Blob | undefined, name: string): Promise<void> {
  const head = new Uint8Array(await (blob ?? new Blob()).slice(0, 4).arrayBuffer());
  if (String.fromCharCode(...head) !== 'GGUF') {
    throw new ModelError('bad-request', `${name} is not a GGUF model file.`);
  }
}

/**
 * The in-browser model engine over wllama (llama.cpp in a worker): WebGPU when the GPU can run
 * it, the CPU otherwise. Calls run one at a time; a worker crash recreates the engine, reloads
 * the model and retries the call once. wllama's code loads on first use, so it stays out of the
 * page's first download, and nothing is fetched from a CDN.
 */
export function createLocalModelHost(options: LocalModelHostOptions): LocalModelHost {
  const create = options.createWllama ?? createWllama;
  let cacheReady: Promise<ModelCacheLike> | undefined;
  const cache = new ModelCache(
    () =>
      (cacheReady ??= Promise.resolve()
        .then(options.cache ?? openModelCache)
        .catch((error: unknown) => {
          cacheReady = undefined;
          throw new ModelError(
            'bad-request',
            `This browser offers no storage for models (${messageOf(error)}). Pick a model file instead.`,
          );
        })),
    options.storageEstimate ?? (() => navigator.storage.estimate()),
  );
  const settleMs = options.settleMs ?? 3000;
  let gpuCheck: Promise<GpuSupport> | undefined;
  let wllama: WllamaLike | undefined;
  let current: Current | undefined;
  let stuck = false;
  let queue: Promise<unknown> = Promise.resolve();
  const active = new Set<AbortController>();

  const gpu = () => (gpuCheck ??= (options.detectGpu ?? detectGpu)());

  /** Runs work after everything queued before it, one at a time. */
  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  }

  async function start(blobs: Blob[], params: LoadModelParams): Promise<WllamaLike> {
    const instance = await create(options.wasmUrl);
    try {
      await instance.loadModel(blobs, params);
      return instance;
    } catch (error) {
      await instance.exit().catch(() => undefined);
      throw error;
    }
  }

  async function dispose(): Promise<void> {
    const instance = wllama;
    wllama = undefined;
    await instance?.exit().catch(() => undefined);
  }

  /** A fresh instance with the same model; on the CPU if the GPU no longer takes it. */
  async function restart(): Promise<WllamaLike> {
    if (!current) throw notLoaded();
    await dispose();
    try {
      wllama = await start(current.blobs, current.params);
    } catch (error) {
      if (current.params.n_gpu_layers === 0) throw error;
      const params = { ...current.params, n_gpu_layers: 0 };
      wllama = await start(current.blobs, params);
      const note = `The GPU failed (${messageOf(error)}); running on the CPU`;
      current = { ...current, params, model: { ...current.model, device: 'cpu', note } };
    }
    stuck = false;
    return wllama;
  }

  async function attempt(
    request: ChatRequest,
    options: ChatOptions,
    signal: AbortSignal,
  ): Promise<ChatResponse> {
    signal.throwIfAborted();
    if (!current) throw notLoaded();
    const instance = stuck || !wllama ? await restart() : wllama;
    const answer = new StreamedAnswer(current.model.name, options.onDelta);
    const stream = await instance.createChatCompletion(toWllamaParams(request, signal));
    for await (const chunk of stream) {
      signal.throwIfAborted();
      answer.add(chunk);
    }
    signal.throwIfAborted();
    return answer.response();
  }

  async function withRecovery(
    request: ChatRequest,
    options: ChatOptions,
    signal: AbortSignal,
  ): Promise<ChatResponse> {
    try {
      return await attempt(request, options, signal);
    } catch (error) {
      if (signal.aborted || !isCrash(error) || !current) throw error;
      console.warn('The local model crashed; restarting it and trying again.', error);
      await restart();
      return attempt(request, options, signal);
    }
  }

  /**
   * Settles with `work`, or soon after `signal` aborts: a call that does not wind down within
   * `settleMs` marks the engine stuck (the next call restarts it) and frees the queue.
   */
  function settleOnAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => {
        timer = setTimeout(() => {
          stuck = true;
          reject(aborted());
        }, settleMs);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      work.then(resolve, reject).finally(() => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      });
    });
  }

  const engine: ChatEngine = {
    async chat(request, chatOptions = {}) {
      const outer = chatOptions.signal;
      if (outer?.aborted) throw aborted();
      const controller = new AbortController();
      const stop = () => {
        controller.abort();
      };
      outer?.addEventListener('abort', stop, { once: true });
      active.add(controller);
      const contextSize = current?.model.contextSize ?? DEFAULT_CONTEXT;
      try {
        const queued = exclusive(() =>
          settleOnAbort(withRecovery(request, chatOptions, controller.signal), controller.signal),
        );
        // The caller hears of an abort at once, even while the call waits its turn.
        return await new Promise<ChatResponse>((resolve, reject) => {
          queued.then(resolve, reject);
          controller.signal.addEventListener(
            'abort',
            () => {
              reject(aborted());
            },
            { once: true },
          );
        });
      } catch (error) {
        throw chatError(error, contextSize);
      } finally {
        active.delete(controller);
        outer?.removeEventListener('abort', stop);
      }
    },
  };

  /** Stops every running call, then runs `work` in the queue. */
  function takeOver<T>(work: () => Promise<T>): Promise<T> {
    for (const controller of active) controller.abort();
    return exclusive(work);
  }

  async function open(source: LocalModelSource) {
    if ('file' in source) {
      const file = { blobs: [source.file], name: modelName(source.name), keys: [] };
      return { ...file, fileName: source.name, url: undefined };
    }
    const blobs = await cache.open(source.url);
    return {
      blobs,
      name: modelName(source.url),
      fileName: source.url.split('/').pop() ?? source.url,
      keys: await cache.keysOf(source.url),
      url: source.url,
    };
  }

  const unload = () =>
    takeOver(async () => {
      current = undefined;
      await dispose();
    });

  return {
    gpu,
    listCache: () => cache.list(),
    download: (url, downloadOptions) => cache.download(url, downloadOptions),
    async deleteCached(key) {
      if (current?.keys.includes(key)) await unload();
      await cache.delete(key);
    },
    load: (source, loadOptions = {}) =>
      takeOver(async () => {
        current = undefined;
        await dispose();
        const { blobs, name, fileName, keys, url } = await open(source);
        await assertGguf(blobs[0], fileName);
        const support = await gpu();
        const contextSize =
          loadOptions.contextSize ??
          (url === undefined ? undefined : catalogueModel(url)?.contextSize) ??
          DEFAULT_CONTEXT;
        const threads = options.threads ?? defaultThreads();
        const base: LoadModelParams = { n_ctx: contextSize, n_threads: threads };
        let params: LoadModelParams = {
          ...base,
          n_gpu_layers: support.kind === 'webgpu' ? ALL_LAYERS : 0,
        };
        let note = support.kind === 'cpu' ? capitalise(support.reason) : undefined;
        try {
          wllama = await start(blobs, params);
        } catch (error) {
          if (support.kind !== 'webgpu') throw loadError(error, name);
          params = { ...base, n_gpu_layers: 0 };
          note = `WebGPU could not run this model (${messageOf(error)}); running on the CPU`;
          try {
            wllama = await start(blobs, params);
          } catch (cpuError) {
            throw loadError(cpuError, name);
          }
        }
        const model: LoadedModel = {
          name,
          sizeBytes: blobs.reduce((n, b) => n + b.size, 0),
          device: params.n_gpu_layers === 0 ? 'cpu' : 'webgpu',
          ...(note !== undefined && { note }),
          threads: wllama.isMultithread?.() === false ? 1 : (wllama.getNumThreads?.() ?? threads),
          contextSize,
        };
        current = { model, blobs, params, keys };
        stuck = false;
        return model;
      }),
    unload,
    loaded: () => current?.model,
    engine,
  };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
