import { Inflate } from 'fflate';

/*
 * Inflating untrusted data (a link, a zip entry, a gzipped log) without trusting it: the output is
 * counted as it comes and inflating stops once it passes a cap, so a small "deflate bomb" that
 * would unpack to gigabytes costs at most the cap (and about a megabyte more), never the whole.
 */

/** What inflating untrusted data gave: the bytes, or why it stopped. */
export type Inflated =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | {
      readonly ok: false;
      /** `too-big`: it unpacks past the cap; `truncated`: the data ends early; `corrupt`: it is not deflate. */
      readonly problem: 'too-big' | 'truncated' | 'corrupt';
      /** How many bytes it had unpacked when it stopped. */
      readonly inflated: number;
    };

/** Deflate's best ratio is about 1032 to 1: an input slice this small unpacks to at most ~1 MiB. */
const MIN_SLICE = 1024;
const MAX_RATIO = 1032;

/**
 * Inflates raw deflate data (RFC 1951), refusing it once its output passes `maxBytes`. It feeds
 * the data in slices sized so that no slice can unpack much past what the cap still allows.
 */
export function inflateBounded(data: Uint8Array, maxBytes: number): Inflated {
  if (data.length === 0) return { ok: false, problem: 'truncated', inflated: 0 };
  const chunks: Uint8Array[] = [];
  let size = 0;
  const inflater = new Inflate((chunk) => {
    size += chunk.length;
    if (size <= maxBytes) chunks.push(chunk);
  });
  try {
    for (let at = 0; at < data.length;) {
      const slice = Math.max(MIN_SLICE, Math.floor((maxBytes - size) / MAX_RATIO));
      const end = Math.min(data.length, at + slice);
      inflater.push(data.subarray(at, end), end === data.length);
      if (size > maxBytes) return { ok: false, problem: 'too-big', inflated: size };
      at = end;
    }
  } catch (error) {
    // fflate's code 0 is "unexpected EOF": the stream stops before its last block ends.
    const code = (error as { code?: unknown } | null)?.code;
    return { ok: false, problem: code === 0 ? 'truncated' : 'corrupt', inflated: size };
  }
  return { ok: true, bytes: concat(chunks, size) };
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** The CRC-32 that zip and gzip record of their contents, to tell damaged data from whole. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 255] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A byte count as a person reads it: "16 MiB", "1.5 KiB", "300 bytes". */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = unit === 0 ? String(value) : String(Math.round(value * 10) / 10);
  return `${shown} ${units[unit] ?? 'bytes'}`;
}
