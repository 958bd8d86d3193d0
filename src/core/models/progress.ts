/** Where a download stands, as a progress bar shows it. */
export interface DownloadProgress {
  readonly loaded: number;
  /** 0 while the size is unknown. */
  readonly total: number;
  /** 0 to 1; 0 while the size is unknown. */
  readonly fraction: number;
  /** Averaged over the last few seconds; 0 until there is enough to tell. */
  readonly bytesPerSecond: number;
  /** Time left at the current speed; undefined while size or speed is unknown. */
  readonly etaMs: number | undefined;
}

interface Sample {
  readonly loaded: number;
  readonly at: number;
}

/**
 * A download meter: feed it (loaded, total, time) samples as they come, get the figures for the
 * progress bar. The speed is measured over a sliding window, so a stall shows quickly and one
 * burst does not promise a fast finish. Time is passed in (core reads no clock).
 */
export class DownloadMeter {
  private samples: Sample[] = [];
  private readonly windowMs: number;
  private readonly minSpanMs: number;

  /**
   * @param windowMs how far back the speed looks.
   * @param minSpanMs the shortest span worth a speed figure.
   */
  constructor(windowMs = 4000, minSpanMs = 300) {
    this.windowMs = windowMs;
    this.minSpanMs = minSpanMs;
  }

  /** Records a sample taken at `atMs` and returns the figures as of then. */
  sample(loaded: number, total: number, atMs: number): DownloadProgress {
    const last = this.samples.at(-1);
    // A restarted download (fewer bytes than before) or a clock going back starts afresh.
    if (last && (loaded < last.loaded || atMs < last.at)) this.samples = [];
    this.samples.push({ loaded, at: atMs });
    // Keep one sample at or before the window's start, so the window is always fully covered.
    while (this.samples.length > 2 && (this.samples[1]?.at ?? atMs) <= atMs - this.windowMs) {
      this.samples.shift();
    }
    const first = this.samples[0] ?? { loaded, at: atMs };
    const span = atMs - first.at;
    const bytesPerSecond = span >= this.minSpanMs ? ((loaded - first.loaded) * 1000) / span : 0;
    const known = total > 0;
    return {
      loaded,
      total,
      fraction: known ? Math.min(1, Math.max(0, loaded / total)) : 0,
      bytesPerSecond,
      etaMs:
        known && bytesPerSecond > 0
          ? Math.max(0, ((total - loaded) * 1000) / bytesPerSecond)
          : undefined,
    };
  }
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** A byte count the way download pages write it: "512 B", "1.4 MB", "51 MB", "2.5 GB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '?';
  let value = bytes;
  let unit = 0;
  while (value >= 999.5 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const text = unit === 0 || value >= 9.95 ? String(Math.round(value)) : value.toFixed(1);
  return `${text} ${UNITS[unit] ?? 'B'}`;
}

/** A duration for "… left": "5 s", "3 min 20 s", "1 h 5 min"; seconds round up. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) {
    const rest = seconds % 60;
    return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
  }
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}
