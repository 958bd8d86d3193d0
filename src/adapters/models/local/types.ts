import type {
  CacheEntry,
  ChatCompletionChunk,
  ChatCompletionParams,
  DownloadOptions,
  LoadModelParams,
} from '@wllama/wllama/esm/index.js';
import type { ChatEngine } from '../../../core/index.ts';

/** Whether models can run on the GPU here, and if not, why they run on the CPU. */
export type GpuSupport =
  { readonly kind: 'webgpu' } | { readonly kind: 'cpu'; readonly reason: string };

/** A model file kept in the browser's storage (OPFS). */
export interface CachedModel {
  /** The cache's name for the file; pass it to `deleteCached`. */
  readonly key: string;
  /** Where it was downloaded from ('' when a download stopped before it was recorded). */
  readonly url: string;
  readonly sizeBytes: number;
  /** False when a download stopped half-way. */
  readonly complete: boolean;
}

/** Bytes received so far, and the whole size (0 while unknown). */
export interface DownloadTick {
  readonly loaded: number;
  readonly total: number;
}

/** A model to load: a URL (downloaded first with `download`) or a file the user picked. */
export type LocalModelSource =
  { readonly url: string } | { readonly file: Blob; readonly name: string };

/** The model the engine has loaded, and how it runs. */
export interface LoadedModel {
  readonly name: string;
  readonly sizeBytes: number;
  readonly device: 'webgpu' | 'cpu';
  /** Why it runs where it runs, when that is worth saying ("this GPU lacks shader-f16; …"). */
  readonly note?: string;
  /** CPU threads the engine uses (1 unless the page is cross-origin isolated). */
  readonly threads: number;
  readonly contextSize: number;
}

/**
 * The in-browser model engine: GPU detection, the model cache, loading, and the ChatEngine that
 * answers with the loaded model. Every method rejects with a `ModelError` carrying a message a
 * person can act on.
 */
export interface LocalModelHost {
  gpu(): Promise<GpuSupport>;
  listCache(): Promise<CachedModel[]>;
  /** Downloads into the cache; a stopped or failed download leaves nothing behind. */
  download(
    url: string,
    options?: { onProgress?: (tick: DownloadTick) => void; signal?: AbortSignal },
  ): Promise<void>;
  /** Deletes a cached file (unloading it first if it is the loaded model). */
  deleteCached(key: string): Promise<void>;
  /** Loads a model (a URL must be downloaded first), replacing any loaded one. */
  load(source: LocalModelSource, options?: { contextSize?: number }): Promise<LoadedModel>;
  unload(): Promise<void>;
  loaded(): LoadedModel | undefined;
  /** Answers with the loaded model; rejects with ModelError 'not-found' when none is loaded. */
  readonly engine: ChatEngine;
}

/** The part of wllama's `Wllama` this adapter uses; tests pass a fake. */
export interface WllamaLike {
  loadModel(blobs: Blob[], params?: LoadModelParams): Promise<void>;
  createChatCompletion(
    params: ChatCompletionParams & { stream: true },
  ): Promise<AsyncIterable<ChatCompletionChunk>>;
  exit(): Promise<void>;
  isMultithread?(): boolean;
  getNumThreads?(): number;
}

/** The part of wllama's `CacheManager` this adapter uses; tests pass a fake. */
export interface ModelCacheLike {
  getNameFromURL(url: string): Promise<string>;
  download(url: string, options?: DownloadOptions): Promise<void>;
  open(nameOrURL: string): Promise<Blob | null>;
  list(): Promise<CacheEntry[]>;
  delete(nameOrURL: string): Promise<void>;
}

/** What the browser says about its storage (`navigator.storage.estimate()`). */
export type StorageEstimate = () => Promise<{ quota?: number; usage?: number }>;
