// The GGUF v3 container: header, typed metadata, tensor infos, 32-byte aligned tensor data
// (F32 or F16, little-endian). Written by hand so tests need no dependency and no Node API.

/** A metadata value, by GGUF type. */
export type MetaValue =
  | { readonly kind: 'u32' | 'i32' | 'f32'; readonly value: number }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'str'; readonly value: string }
  | { readonly kind: 'strs'; readonly value: readonly string[] }
  | { readonly kind: 'f32s' | 'i32s'; readonly value: readonly number[] };

/** A tensor: its ggml shape (innermost first) and a function filling row `r` into `out`. */
export interface TensorSpec {
  readonly name: string;
  readonly shape: readonly number[];
  readonly half: boolean;
  readonly fill: (row: number, out: Float32Array) => void;
}

/** Alignment of the tensor data (GGUF's default). */
export const ALIGN = 32;

/** Lays out header, metadata, tensor infos and aligned tensor data into one GGUF v3 buffer. */
export function serialize(
  metadata: readonly [string, MetaValue][],
  tensors: readonly TensorSpec[],
): Uint8Array {
  const head = new ByteWriter();
  head.bytes([0x47, 0x47, 0x55, 0x46]); // "GGUF"
  head.u32(3);
  head.u64(tensors.length);
  head.u64(metadata.length);
  for (const [key, value] of metadata) {
    head.str(key);
    writeValue(head, value);
  }
  let offset = 0;
  const offsets: number[] = [];
  for (const t of tensors) {
    head.str(t.name);
    head.u32(t.shape.length);
    for (const d of t.shape) head.u64(d);
    head.u32(t.half ? 1 : 0);
    head.u64(offset);
    offsets.push(offset);
    offset += align(t.shape.reduce((a, b) => a * b, 1) * (t.half ? 2 : 4));
  }
  const dataStart = align(head.length);
  const out = new Uint8Array(dataStart + offset);
  out.set(head.finish());
  const view = new DataView(out.buffer);
  tensors.forEach((t, i) => {
    const width = t.shape[0] ?? 1;
    const rows = t.shape.slice(1).reduce((a, b) => a * b, 1);
    const row = new Float32Array(width);
    let at = dataStart + (offsets[i] ?? 0);
    for (let r = 0; r < rows; r++) {
      t.fill(r, row);
      for (const v of row) {
        if (t.half) view.setUint16(at, toHalf(v), true);
        else view.setFloat32(at, v, true);
        at += t.half ? 2 : 4;
      }
    }
  });
  return out;
}

function align(n: number): number {
  return Math.ceil(n / ALIGN) * ALIGN;
}

function writeValue(w: ByteWriter, v: MetaValue): void {
  const type = { u32: 4, i32: 5, f32: 6, bool: 7, str: 8 } as const;
  const array = (elem: number, count: number) => {
    w.u32(9);
    w.u32(elem);
    w.u64(count);
  };
  switch (v.kind) {
    case 'u32':
    case 'i32':
    case 'f32':
      w.u32(type[v.kind]);
      w.num(v.kind, v.value);
      return;
    case 'bool':
      w.u32(type.bool);
      w.bytes([v.value ? 1 : 0]);
      return;
    case 'str':
      w.u32(type.str);
      w.str(v.value);
      return;
    case 'strs':
      array(type.str, v.value.length);
      for (const s of v.value) w.str(s);
      return;
    case 'f32s':
    case 'i32s':
      array(v.kind === 'f32s' ? type.f32 : type.i32, v.value.length);
      for (const n of v.value) w.num(v.kind === 'f32s' ? 'f32' : 'i32', n);
      return;
  }
}

/** A growable little-endian writer for the (small) header part of the file. */
class ByteWriter {
  private buf = new Uint8Array(4096);
  private view = new DataView(this.buf.buffer);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf);
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  bytes(values: ArrayLike<number>): void {
    this.room(values.length);
    this.buf.set(values, this.length);
    this.length += values.length;
  }
  u32(n: number): void {
    this.num('u32', n);
  }
  u64(n: number): void {
    this.room(8);
    this.view.setBigUint64(this.length, BigInt(n), true);
    this.length += 8;
  }
  num(kind: 'u32' | 'i32' | 'f32', n: number): void {
    this.room(4);
    if (kind === 'u32') this.view.setUint32(this.length, n, true);
    else if (kind === 'i32') this.view.setInt32(this.length, n, true);
    else this.view.setFloat32(this.length, n, true);
    this.length += 4;
  }
  str(s: string): void {
    const encoded = utf8(s);
    this.u64(encoded.length);
    this.bytes(encoded);
  }
  finish(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

/** UTF-8 bytes of a string (core has no TextEncoder type). */
function utf8(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else {
      out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
  }
  return out;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE half-precision bits of a number (round half up; fine for random weights). */
function toHalf(value: number): number {
  f32[0] = value;
  const x = u32[0] ?? 0;
  const sign = (x >>> 16) & 0x8000;
  const exp = ((x >>> 23) & 0xff) - 112;
  const mant = x & 0x7fffff;
  if (exp >= 31) return sign | 0x7c00;
  if (exp <= 0) {
    if (exp < -10) return sign;
    const m = (mant | 0x800000) >> (1 - exp);
    return sign | ((m + 0x1000) >> 13);
  }
  return (sign | (exp << 10) | (mant >> 13)) + ((mant >> 12) & 1);
}
