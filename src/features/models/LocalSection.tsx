import { useEffect, useState } from 'react';
import {
  LOCAL_ENGINE,
  MODEL_CATALOGUE,
  checkBaseUrl,
  formatBytes,
  formatDuration,
} from '../../core/index.ts';
import type { GpuSupport } from '../../state/slices/localModelSlice.ts';
import { useAppStore } from '../../state/useAppStore.ts';
import { ConnectionResult } from './ConnectionResult.tsx';
import { TryChat } from './TryChat.tsx';

/** The model in this browser: what runs now, the catalogue, any URL or file, and the cache. */
export function LocalSection() {
  const local = useAppStore((s) => s.localModel);
  const refresh = useAppStore((s) => s.refreshLocalModels);
  const load = useAppStore((s) => s.loadLocalModel);
  const unload = useAppStore((s) => s.unloadLocalModel);
  const test = useAppStore((s) => s.connectionTests[LOCAL_ENGINE]);
  const testEngine = useAppStore((s) => s.testEngine);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  if (!local.available) {
    return <p className="models-intro">This page has no in-browser engine.</p>;
  }
  const busy = local.busy !== undefined || local.download !== undefined;
  const cachedUrls = new Set(local.cache.filter((c) => c.complete).map((c) => c.url));

  return (
    <>
      <p className="models-intro" data-testid="gpu-status">
        {local.gpu === undefined
          ? 'Checking for a GPU…'
          : local.gpu.kind === 'webgpu'
            ? 'Models run on this device’s GPU (WebGPU).'
            : `${local.gpu.reason.charAt(0).toUpperCase()}${local.gpu.reason.slice(1)}.`}
      </p>
      {local.error && (
        <p className="models-error" role="alert">
          {local.error}
        </p>
      )}
      {local.download && <DownloadBar />}
      {local.busy && !local.download && (
        <p className="models-faint" role="status">
          {local.busy}
        </p>
      )}
      {local.loaded && (
        <section className="local-loaded" aria-label="Loaded model">
          <div className="models-row">
            <div>
              <strong>{local.loaded.name}</strong>{' '}
              <span className="models-faint">
                {formatBytes(local.loaded.sizeBytes)} ·{' '}
                {local.loaded.device === 'webgpu' ? 'GPU' : 'CPU'}
                {local.loaded.device === 'cpu' &&
                  ` · ${local.loaded.threads} thread${local.loaded.threads === 1 ? '' : 's'}`}{' '}
                · context {local.loaded.contextSize}
              </span>
              {local.loaded.note && !sameReason(local.loaded.note, local.gpu) && (
                <div className="models-faint">{local.loaded.note}</div>
              )}
            </div>
            <div className="models-actions">
              <button
                type="button"
                className="button"
                disabled={test?.status === 'running'}
                onClick={() => void testEngine(LOCAL_ENGINE, local.loaded?.name ?? 'local')}
              >
                Test connection
              </button>
              <button type="button" className="button button-quiet" onClick={() => void unload()}>
                Unload
              </button>
            </div>
          </div>
          <ConnectionResult state={test} />
          <TryChat engine={LOCAL_ENGINE} model={local.loaded.name} />
        </section>
      )}

      <h3 className="dialog-section">Recommended models</h3>
      <ul className="catalogue" aria-label="Recommended models">
        {MODEL_CATALOGUE.map((model) => (
          <li key={model.id} className="catalogue-item">
            <div>
              <div>{model.label}</div>
              <div className="models-faint">
                {formatBytes(model.sizeBytes)} · {model.note}
              </div>
            </div>
            <button
              type="button"
              className="button button-quiet"
              disabled={busy}
              onClick={() => void load({ url: model.url, label: model.label })}
            >
              {cachedUrls.has(model.url) ? 'Load' : 'Download and load'}
            </button>
          </li>
        ))}
      </ul>

      <h3 className="dialog-section">Another model</h3>
      <OtherModel disabled={busy} />

      <h3 className="dialog-section">Stored in this browser</h3>
      <CacheList disabled={busy} />
    </>
  );
}

/** Whether a loaded model's note only repeats why the GPU is not used (said above already). */
function sameReason(note: string, gpu: GpuSupport | undefined): boolean {
  return gpu?.kind === 'cpu' && note.toLowerCase() === gpu.reason.toLowerCase();
}

function DownloadBar() {
  const download = useAppStore((s) => s.localModel.download);
  const cancel = useAppStore((s) => s.cancelDownload);
  if (!download) return null;
  const percent = Math.round(download.fraction * 100);
  return (
    <div className="download" aria-label={`Downloading ${download.label}`}>
      <div className="models-row">
        <span>Downloading {download.label}</span>
        <button type="button" className="button button-quiet" onClick={cancel}>
          Stop
        </button>
      </div>
      <progress max={100} value={percent} aria-label="Download progress" />
      <div className="models-faint" data-testid="download-figures">
        {formatBytes(download.loaded)}
        {download.total > 0 && ` of ${formatBytes(download.total)} (${percent}%)`}
        {download.bytesPerSecond > 0 && ` · ${formatBytes(download.bytesPerSecond)}/s`}
        {download.etaMs !== undefined && ` · ${formatDuration(download.etaMs)} left`}
      </div>
    </div>
  );
}

function OtherModel({ disabled }: { disabled: boolean }) {
  const load = useAppStore((s) => s.loadLocalModel);
  const [url, setUrl] = useState('');
  const valid = checkBaseUrl(url) === undefined;
  return (
    <div className="other-model">
      <form
        className="models-row"
        onSubmit={(event) => {
          event.preventDefault();
          if (!valid) return;
          const trimmed = url.trim();
          void load({ url: trimmed, label: trimmed.split('/').pop() ?? trimmed });
        }}
      >
        <input
          aria-label="GGUF model URL"
          placeholder="https://…/model-Q4_K_M.gguf"
          value={url}
          spellCheck={false}
          onChange={(event) => {
            setUrl(event.target.value);
          }}
        />
        <button type="submit" className="button button-quiet" disabled={disabled || !valid}>
          Load from URL
        </button>
      </form>
      <label className="button button-quiet file-button" aria-disabled={disabled}>
        Load a .gguf file…
        <input
          type="file"
          accept=".gguf"
          disabled={disabled}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void load({ file, name: file.name });
          }}
        />
      </label>
    </div>
  );
}

function CacheList({ disabled }: { disabled: boolean }) {
  const cache = useAppStore((s) => s.localModel.cache);
  const loadedFrom = useAppStore((s) => s.localModel.loaded?.source);
  const remove = useAppStore((s) => s.deleteCachedModel);
  const load = useAppStore((s) => s.loadLocalModel);
  if (cache.length === 0) return <p className="models-faint">No models stored yet.</p>;
  const total = cache.reduce((sum, c) => sum + c.sizeBytes, 0);
  return (
    <>
      <ul className="cache-list" aria-label="Stored models">
        {cache.map((entry) => {
          const name = entry.url.split('/').pop() ?? entry.key;
          return (
            <li key={entry.key} className="models-row">
              <span>
                {name}{' '}
                <span className="models-faint">
                  {formatBytes(entry.sizeBytes)}
                  {!entry.complete && ' · incomplete'}
                </span>
              </span>
              <span className="models-actions-inline">
                {entry.complete && entry.url !== loadedFrom && (
                  <button
                    type="button"
                    className="button button-quiet"
                    aria-label={`Load ${name}`}
                    disabled={disabled}
                    onClick={() => void load({ url: entry.url, label: name })}
                  >
                    Load
                  </button>
                )}
                <button
                  type="button"
                  className="button button-danger"
                  aria-label={`Delete ${name}`}
                  onClick={() => void remove(entry.key)}
                >
                  Delete
                </button>
              </span>
            </li>
          );
        })}
      </ul>
      <p className="models-faint">{formatBytes(total)} in all.</p>
    </>
  );
}
