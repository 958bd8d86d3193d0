import { describe, expect, it } from 'vitest';
import { DownloadMeter, formatBytes, formatDuration } from './progress.ts';

describe('DownloadMeter', () => {
  it('reports fraction, a windowed speed and the time left', () => {
    const meter = new DownloadMeter(4000);
    expect(meter.sample(0, 1000, 0)).toEqual({
      loaded: 0,
      total: 1000,
      fraction: 0,
      bytesPerSecond: 0,
      etaMs: undefined,
    });
    meter.sample(100, 1000, 1000);
    const p = meter.sample(200, 1000, 2000);
    expect(p.fraction).toBeCloseTo(0.2);
    expect(p.bytesPerSecond).toBeCloseTo(100);
    expect(p.etaMs).toBeCloseTo(8000);
  });

  it('forgets a fast start once it falls out of the window, so a stall shows', () => {
    const meter = new DownloadMeter(2000);
    meter.sample(0, 10_000, 0);
    meter.sample(5000, 10_000, 1000);
    for (let t = 2000; t <= 6000; t += 1000) meter.sample(5000, 10_000, t);
    const stalled = meter.sample(5000, 10_000, 7000);
    expect(stalled.bytesPerSecond).toBe(0);
    expect(stalled.etaMs).toBeUndefined();
  });

  it('gives no speed from too short a span, and no fraction or ETA for an unknown size', () => {
    const meter = new DownloadMeter();
    meter.sample(0, 0, 0);
    expect(meter.sample(1000, 0, 100).bytesPerSecond).toBe(0);
    const later = meter.sample(3000, 0, 1100);
    expect(later.bytesPerSecond).toBeCloseTo(2727.3, 0);
    expect([later.fraction, later.etaMs]).toEqual([0, undefined]);
  });

  it('starts afresh when a download restarts', () => {
    const meter = new DownloadMeter();
    meter.sample(0, 100, 0);
    meter.sample(90, 100, 1000);
    meter.sample(0, 100, 2000);
    expect(meter.sample(10, 100, 3000).bytesPerSecond).toBeCloseTo(10);
  });
});

describe('formatBytes and formatDuration', () => {
  it('write sizes and times the way a download page does', () => {
    expect([0, 512, 1400, 51_200_000, 1_120_000_000, 2.5e9].map(formatBytes)).toEqual([
      '0 B',
      '512 B',
      '1.4 KB',
      '51 MB',
      '1.1 GB',
      '2.5 GB',
    ]);
    expect(formatBytes(999_999)).toBe('1.0 MB');
    expect(formatBytes(Number.NaN)).toBe('?');
    expect([400, 5000, 200_000, 180_000, 3_900_000, 7_200_000].map(formatDuration)).toEqual([
      '1 s',
      '5 s',
      '3 min 20 s',
      '3 min',
      '1 h 5 min',
      '2 h',
    ]);
  });
});
