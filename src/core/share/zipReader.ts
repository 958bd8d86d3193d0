import { strFromU8 } from 'fflate';
import { crc32, inflateBounded } from './inflate.ts';

/*
 * Reading a zip's table of contents (its central directory) and one entry at a time, by hand:
 * fflate's unzipSync inflates every entry it keeps into a buffer of the size the zip declares and
 * runs a lying entry's deflate to its end. Here the entries are listed first, so the caller can
 * refuse by count and declared size before inflating anything, and each entry is inflated only up
 * to its declared size and checked against its CRC.
 */

/** One file of a zip as its central directory lists it. */
export interface ZipEntry {
  readonly name: string;
  /** 0 stored, 8 deflate; anything else is not read. */
  readonly method: number;
  readonly encrypted: boolean;
  readonly crc: number;
  readonly compressedSize: number;
  /** The unpacked size the zip declares. */
  readonly size: number;
  /** Where the entry's local header starts. */
  readonly offset: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/** Lists a zip's entries, refusing more than `maxEntries` before reading any of them. */
export function zipEntries(bytes: Uint8Array, maxEntries: number): ZipEntry[] | { error: string } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  // The end record is 22 bytes and may be followed by a comment of up to 65,535.
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65_535); i--) {
    if (
      view.getUint32(i, true) === END_OF_DIRECTORY &&
      i + 22 + view.getUint16(i + 20, true) <= bytes.length
    ) {
      end = i;
      break;
    }
  }
  if (end < 0) return { error: 'This is not a zip file, or its end is missing.' };
  const count = view.getUint16(end + 10, true);
  const directorySize = view.getUint32(end + 12, true);
  const directoryOffset = view.getUint32(end + 16, true);
  if (count === 0xffff || directoryOffset === 0xffffffff || directorySize === 0xffffffff)
    return {
      error:
        'This zip is in the ZIP64 format for very large archives, which PolicyLab does not read (a project never needs it).',
    };
  if (count > maxEntries)
    return {
      error: `This zip holds ${count.toLocaleString('en')} entries; PolicyLab opens zips of up to ${maxEntries.toLocaleString('en')} (a project is six files).`,
    };
  const entries: ZipEntry[] = [];
  let at = directoryOffset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > end || view.getUint32(at, true) !== DIRECTORY_ENTRY)
      return { error: DAMAGED_DIRECTORY };
    const nameLength = view.getUint16(at + 28, true);
    const next =
      at + 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (next > end) return { error: DAMAGED_DIRECTORY };
    entries.push({
      name: strFromU8(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: view.getUint16(at + 10, true),
      encrypted: (view.getUint16(at + 8, true) & 1) === 1,
      crc: view.getUint32(at + 16, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      offset: view.getUint32(at + 42, true),
    });
    at = next;
  }
  return entries;
}

const DAMAGED_DIRECTORY = 'This zip is damaged: its table of contents does not fit in the file.';

/**
 * Reads one entry's bytes: never more than it declares, and only when they match its CRC.
 * @returns the bytes, or a sentence naming the entry and what is wrong with it.
 */
export function zipEntryBytes(bytes: Uint8Array, entry: ZipEntry): Uint8Array | { error: string } {
  const name = JSON.stringify(entry.name);
  if (entry.encrypted)
    return { error: `${name} in this zip is encrypted; PolicyLab cannot read it.` };
  if (entry.method !== 0 && entry.method !== 8)
    return {
      error: `${name} in this zip is compressed in a way PolicyLab does not read (method ${entry.method}); zip it again with ordinary (deflate) compression.`,
    };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.offset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL_HEADER)
    return { error: `This zip is damaged: ${name} is not where its table of contents says.` };
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  if (start + entry.compressedSize > bytes.length)
    return { error: `This zip is cut short: ${name} ends early.` };
  const packed = bytes.subarray(start, start + entry.compressedSize);
  let data: Uint8Array;
  if (entry.method === 0) data = packed;
  else if (entry.size === 0 && packed.length === 0) data = packed;
  else {
    const inflated = inflateBounded(packed, entry.size);
    if (!inflated.ok)
      return {
        error:
          inflated.problem === 'too-big'
            ? `This zip is damaged: ${name} unpacks to more than the ${entry.size.toLocaleString('en')} bytes it declares.`
            : `This zip is damaged: ${name} does not unpack.`,
      };
    data = inflated.bytes;
  }
  if (data.length !== entry.size || crc32(data) !== entry.crc)
    return { error: `This zip is damaged: ${name} does not hold what its checksum says.` };
  return data;
}
