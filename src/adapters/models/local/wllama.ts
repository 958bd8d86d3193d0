import type { ModelCacheLike, WllamaLike } from './types.ts';

/** wllama's own logging, minus its chatter: warnings and errors only. */
const LOGGER = {
  debug: () => undefined,
  log: () => undefined,
  warn: (...args: unknown[]) => {
    console.warn(...args);
  },
  error: (...args: unknown[]) => {
    console.error(...args);
  },
};

/** A storage backend that holds nothing: the engine instance never touches the cache itself. */
const NO_STORAGE = {
  isSupported: () => true,
  read: () => Promise.resolve(null),
  write: () => Promise.resolve(),
  getSize: () => Promise.resolve(-1),
  list: () => Promise.resolve([]),
  delete: () => Promise.resolve(),
};

/**
 * A fresh wllama instance that loads its wasm from our own build. The compat build (for
 * browsers without JSPI or Memory64) would come from jsDelivr, so it is switched off: nothing is
 * fetched from a CDN. wllama's code is imported here, on first use.
 */
export async function createWllama(wasmUrl: string): Promise<WllamaLike> {
  const { CacheManager, Wllama } = await import('@wllama/wllama/esm/index.js');
  const instance = new Wllama(
    { default: wasmUrl },
    {
      suppressNativeLog: true,
      logger: LOGGER,
      // Models reach the instance as Blobs we opened; its own cache would be a second copy.
      cacheManager: new CacheManager([NO_STORAGE]),
    },
  );
  instance.setCompat(null);
  return instance;
}

/** wllama's model cache in the origin's private file system (OPFS). */
export async function openModelCache(): Promise<ModelCacheLike> {
  const { CacheManager } = await import('@wllama/wllama/esm/index.js');
  return new CacheManager();
}
