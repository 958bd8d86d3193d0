import type { StateCreator } from 'zustand';
import type { DownloadProgress, KeyValueStore } from '../../core/index.ts';
import { DownloadMeter, ModelError, catalogueModel } from '../../core/index.ts';
import type {
  CachedModel,
  GpuSupport,
  LoadedModel,
  LocalModelHost,
} from '../../adapters/models/local/types.ts';
import type { AppState } from '../createAppStore.ts';

export type { CachedModel, GpuSupport, LoadedModel };

/** What the page's in-browser engine offers (wllama in its own worker). */
export type LocalModels = LocalModelHost;

/** The local engine as the models dialog shows it. */
export interface LocalModelState {
  /** Undefined until checked, or where the page has no local engine. */
  readonly gpu: GpuSupport | undefined;
  readonly cache: readonly CachedModel[];
  readonly download:
    (DownloadProgress & { readonly url: string; readonly label: string }) | undefined;
  readonly loaded: (LoadedModel & { readonly source: string }) | undefined;
  /** What the engine is busy with ("Loading Qwen2.5 1.5B…"), if anything. */
  readonly busy: string | undefined;
  readonly error: string | undefined;
  /** Whether this page has a local engine at all. */
  readonly available: boolean;
  /** The model last loaded from a URL, offered again after a reload. */
  readonly lastUsed: { readonly url: string; readonly label: string } | undefined;
}

export interface LocalModelSlice {
  localModel: LocalModelState;
  /** Checks the GPU and lists the cache. */
  refreshLocalModels: () => Promise<void>;
  /** Loads a model: from the cache, or downloaded first (with progress), or from a picked file. */
  loadLocalModel: (
    source: { url: string; label: string } | { file: Blob; name: string },
  ) => Promise<void>;
  cancelDownload: () => void;
  deleteCachedModel: (key: string) => Promise<void>;
  unloadLocalModel: () => Promise<void>;
}

const LAST_USED_KEY = 'policylab.models.lastLocal';

function readLastUsed(text: string | null): LocalModelState['lastUsed'] {
  if (text === null) return undefined;
  try {
    const value = JSON.parse(text) as { url?: unknown; label?: unknown };
    const { url, label } = value;
    return typeof url === 'string' && /^https?:\/\//.test(url) && typeof label === 'string'
      ? { url, label }
      : undefined;
  } catch {
    return undefined;
  }
}

function messageOf(error: unknown): string {
  if (error instanceof ModelError || error instanceof Error) return error.message;
  return String(error);
}

/** Builds the local-model slice over the page's engine (none in tests that do not pass one). */
export function createLocalModelSlice(
  local: LocalModels | undefined,
  clock: () => number,
  preferences: KeyValueStore,
): StateCreator<AppState, [], [], LocalModelSlice> {
  let downloading: AbortController | undefined;
  const remember = (lastUsed: LocalModelState['lastUsed']) => {
    if (lastUsed) preferences.setItem(LAST_USED_KEY, JSON.stringify(lastUsed));
    else preferences.removeItem(LAST_USED_KEY);
  };
  return (set, get) => {
    const update = (patch: Partial<LocalModelState>) => {
      set({ localModel: { ...get().localModel, ...patch } });
    };
    const refreshCache = async () => {
      if (!local) return;
      try {
        update({ cache: await local.listCache() });
      } catch (error) {
        update({ error: `Could not read the model cache: ${messageOf(error)}` });
      }
    };

    return {
      localModel: {
        gpu: undefined,
        cache: [],
        download: undefined,
        loaded: undefined,
        busy: undefined,
        error: undefined,
        available: local !== undefined,
        lastUsed: readLastUsed(preferences.getItem(LAST_USED_KEY)),
      },
      refreshLocalModels: async () => {
        if (!local) return;
        const [gpu] = await Promise.all([local.gpu(), refreshCache()]);
        update({ gpu });
      },
      loadLocalModel: async (source) => {
        if (!local || get().localModel.busy !== undefined) return;
        update({ error: undefined });
        try {
          if ('url' in source) {
            await refreshCache();
            const cached = get().localModel.cache.find((c) => c.url === source.url && c.complete);
            if (!cached) await download(source.url, source.label);
            update({ busy: `Loading ${source.label}…` });
            const contextSize = catalogueModel(source.url)?.contextSize;
            const info = await local.load(
              { url: source.url },
              contextSize === undefined ? {} : { contextSize },
            );
            const lastUsed = { url: source.url, label: source.label };
            update({ loaded: { ...info, source: source.url }, lastUsed });
            remember(lastUsed);
          } else {
            update({ busy: `Loading ${source.name}…` });
            const info = await local.load(source);
            update({ loaded: { ...info, source: source.name } });
          }
        } catch (error) {
          const stopped = error instanceof ModelError && error.kind === 'aborted';
          update({ error: stopped ? 'The download was stopped.' : messageOf(error) });
        } finally {
          update({ busy: undefined, download: undefined });
          await refreshCache();
        }
      },
      cancelDownload: () => {
        downloading?.abort();
      },
      deleteCachedModel: async (key) => {
        if (!local) return;
        const entry = get().localModel.cache.find((c) => c.key === key);
        try {
          if (entry && get().localModel.loaded?.source === entry.url) {
            await local.unload();
            update({ loaded: undefined });
          }
          await local.deleteCached(key);
          if (entry && get().localModel.lastUsed?.url === entry.url) {
            update({ lastUsed: undefined });
            remember(undefined);
          }
        } catch (error) {
          update({ error: `Could not delete the model: ${messageOf(error)}` });
        }
        await refreshCache();
      },
      unloadLocalModel: async () => {
        if (!local) return;
        await local.unload();
        update({ loaded: undefined });
      },
    };

    async function download(url: string, label: string) {
      if (!local) return;
      downloading = new AbortController();
      const meter = new DownloadMeter();
      update({ download: { url, label, ...meter.sample(0, 0, clock()) } });
      try {
        await local.download(url, {
          signal: downloading.signal,
          onProgress: ({ loaded, total }) => {
            update({ download: { url, label, ...meter.sample(loaded, total, clock()) } });
          },
        });
      } finally {
        downloading = undefined;
      }
    }
  };
}
