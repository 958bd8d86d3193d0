import { ModelError } from '../../../core/index.ts';
import { downloadError } from './localErrors.ts';
import type { CachedModel, DownloadTick, ModelCacheLike, StorageEstimate } from './types.ts';

const SHARDS = /-(\d{5})-of-(\d{5})\.gguf(\?.*)?$/;

/** The URLs of every part of a model: one, or all `-0000i-of-0000n.gguf` shards of a split one. */
export function shardUrls(url: string): string[] {
  const match = SHARDS.exec(url);
  if (!match) return [url];
  const count = Number(match[2]);
  const base = url.slice(0, match.index);
  return Array.from(
    { length: count },
    (_, i) =>
      `${base}-${String(i + 1).padStart(5, '0')}-of-${match[2] ?? ''}.gguf${match[3] ?? ''}`,
  );
}

/** A model's name from its URL or file name: the file name without `.gguf` or a query. */
export function modelName(urlOrFile: string): string {
  const last = urlOrFile.split('?')[0]?.split('/').pop() ?? urlOrFile;
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // A malformed escape: keep the raw name.
  }
  return name.replace(/(-00001-of-\d{5})?\.gguf$/i, '') || urlOrFile;
}

/**
 * The model cache (OPFS through wllama's CacheManager) in this adapter's terms: listing,
 * downloading with progress (a failed or stopped download is deleted, never left half-written),
 * opening and deleting.
 */
export class ModelCache {
  private readonly cache: () => Promise<ModelCacheLike>;
  private readonly estimate: StorageEstimate | undefined;

  constructor(cache: () => Promise<ModelCacheLike>, estimate: StorageEstimate | undefined) {
    this.cache = cache;
    this.estimate = estimate;
  }

  /** Every file in the cache; a file whose download did not finish has `complete: false`. */
  async list(): Promise<CachedModel[]> {
    const entries = await (await this.cache()).list();
    return entries.map((e) => ({
      key: e.name,
      url: e.metadata.originalURL,
      sizeBytes: e.size,
      complete: e.metadata.originalURL !== '' && e.size > 0 && e.metadata.originalSize === e.size,
    }));
  }

  /**
   * Downloads every part of a model. The total of a split model is estimated from the first
   * part until the last one starts.
   */
  async download(
    url: string,
    options: { onProgress?: (tick: DownloadTick) => void; signal?: AbortSignal } = {},
  ): Promise<void> {
    const cache = await this.cache();
    const parts = shardUrls(url);
    let done = 0;
    let needed = 0;
    for (const [i, part] of parts.entries()) {
      let partTotal = 0;
      try {
        if (options.signal?.aborted) throw new ModelError('aborted', 'The download was stopped.');
        await cache.download(part, {
          ...(options.signal && { signal: options.signal }),
          progressCallback: ({ loaded, total }) => {
            partTotal = total;
            needed = done + total * (parts.length - i);
            options.onProgress?.({ loaded: done + loaded, total: needed });
          },
        });
      } catch (error) {
        await Promise.all(parts.map((p) => cache.delete(p).catch(() => undefined)));
        throw await downloadError(error, url, needed, this.estimate, !!options.signal?.aborted);
      }
      if (partTotal === 0) partTotal = (await this.sizeOf(cache, part)) ?? 0;
      done += partTotal;
    }
    options.onProgress?.({ loaded: done, total: done });
  }

  private async sizeOf(cache: ModelCacheLike, url: string): Promise<number | undefined> {
    const key = await cache.getNameFromURL(url);
    return (await cache.list()).find((e) => e.name === key)?.size;
  }

  /** The cached parts of a model, or a 'not-found' ModelError when any is missing. */
  async open(url: string): Promise<Blob[]> {
    const cache = await this.cache();
    const blobs: Blob[] = [];
    for (const part of shardUrls(url)) {
      const blob = await cache.open(part);
      if (!blob) {
        throw new ModelError(
          'not-found',
          `${modelName(url)} is not in this browser's storage yet: download it first.`,
        );
      }
      blobs.push(blob);
    }
    return blobs;
  }

  /** The cache keys of a model's parts. */
  async keysOf(url: string): Promise<string[]> {
    const cache = await this.cache();
    return Promise.all(shardUrls(url).map((u) => cache.getNameFromURL(u)));
  }

  /** Deletes one cached file by key. */
  async delete(key: string): Promise<void> {
    await (await this.cache()).delete(key);
  }
}
