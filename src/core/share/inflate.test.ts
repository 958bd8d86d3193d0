import { deflateSync, strFromU8, strToU8 } from 'fflate';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deflateBomb } from '../testing/deflateBomb.ts';
import { crc32, formatBytes, inflateBounded } from './inflate.ts';

const MiB = 1024 * 1024;

describe('inflateBounded', () => {
  it('gives back what deflate packed, for any bytes and any cap they fit under', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 5000 }),
        fc.integer({ min: 0, max: 3 }),
        (bytes, level) => {
          const packed = deflateSync(bytes, { level: level as 0 | 1 | 2 | 3 });
          expect(inflateBounded(packed, bytes.length)).toEqual({ ok: true, bytes });
        },
      ),
    );
  });

  it('inflates a big text in many slices to the same bytes', () => {
    const text = Array.from({ length: 200_000 }, (_, i) => `line ${(i * 7919) % 1000}\n`).join('');
    const bytes = strToU8(text);
    const read = inflateBounded(deflateSync(bytes), bytes.length);
    // As text: toEqual on megabytes of Uint8Array takes seconds.
    expect(read.ok && strFromU8(read.bytes)).toBe(text);
  });

  it('stops a bomb near the cap instead of inflating it whole', () => {
    const small = inflateBounded(deflateBomb(1000), MiB);
    expect(small).toEqual({ ok: true, bytes: new Uint8Array(1 + 258 * 1000) });
    // 400,000 repeats: 650 KB that unpack to about 100 MiB.
    const bomb = deflateBomb(400_000);
    expect(bomb.length).toBeLessThan(700_000);
    const read = inflateBounded(bomb, MiB);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.problem).toBe('too-big');
    expect(read.inflated).toBeGreaterThan(MiB);
    expect(read.inflated).toBeLessThan(2.5 * MiB);
  });

  it('refuses one byte past the cap', () => {
    const bytes = new Uint8Array(1000).fill(7);
    expect(inflateBounded(deflateSync(bytes), 999)).toMatchObject({
      ok: false,
      problem: 'too-big',
    });
  });

  it('tells data cut short from data that is not deflate', () => {
    const packed = deflateSync(
      strToU8('The agent verifies the customer before any refund. '.repeat(50)),
    );
    expect(inflateBounded(packed.subarray(0, packed.length - 3), MiB)).toMatchObject({
      ok: false,
      problem: 'truncated',
    });
    expect(inflateBounded(new Uint8Array(0), MiB)).toMatchObject({
      ok: false,
      problem: 'truncated',
    });
    // Block type 3 does not exist.
    expect(inflateBounded(new Uint8Array([0xff, 0xff, 0xff]), MiB)).toMatchObject({
      ok: false,
      problem: 'corrupt',
    });
  });
});

describe('crc32 and formatBytes', () => {
  it('computes the standard CRC-32', () => {
    expect(crc32(strToU8('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });

  it('writes sizes a person reads', () => {
    expect(formatBytes(300)).toBe('300 bytes');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(16 * MiB)).toBe('16 MiB');
  });
});
