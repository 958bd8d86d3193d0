import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SMALL_GGUF, TINY_GGUF, writeTinyGguf } from './gguf.ts';

interface Header {
  magic: string;
  version: number;
  metadata: Map<string, unknown>;
  tensors: { name: string; shape: number[]; type: number; offset: number }[];
  dataStart: number;
}

/** Reads a GGUF header back: what llama.cpp reads before it touches the weights. */
function readHeader(bytes: Uint8Array): Header {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const u32 = () => ((at += 4), view.getUint32(at - 4, true));
  const u64 = () => ((at += 8), Number(view.getBigUint64(at - 8, true)));
  const str = () => {
    const n = u64();
    at += n;
    return Buffer.from(bytes.subarray(at - n, at)).toString('utf8');
  };
  const value = (type: number): unknown => {
    switch (type) {
      case 4:
        return u32();
      case 5:
        return ((at += 4), view.getInt32(at - 4, true));
      case 6:
        return ((at += 4), view.getFloat32(at - 4, true));
      case 7:
        return bytes[at++] === 1;
      case 8:
        return str();
      case 9: {
        const elem = u32();
        return Array.from({ length: u64() }, () => value(elem));
      }
      default:
        throw new Error(`unexpected type ${type}`);
    }
  };
  const magic = Buffer.from(bytes.subarray(0, 4)).toString('latin1');
  at = 4;
  const version = u32();
  const tensorCount = u64();
  const metaCount = u64();
  const metadata = new Map<string, unknown>();
  for (let i = 0; i < metaCount; i++) {
    const key = str();
    metadata.set(key, value(u32()));
  }
  const tensors = Array.from({ length: tensorCount }, () => {
    const name = str();
    const shape = Array.from({ length: u32() }, u64);
    return { name, shape, type: u32(), offset: u64() };
  });
  return { magic, version, metadata, tensors, dataStart: Math.ceil(at / 32) * 32 };
}

describe('writeTinyGguf', () => {
  it('writes a GGUF v3 llama model that a reader can walk, with data where the header says', () => {
    const bytes = writeTinyGguf(TINY_GGUF);
    const header = readHeader(bytes);
    expect([header.magic, header.version]).toEqual(['GGUF', 3]);
    expect(header.tensors).toHaveLength(3 + 9 * TINY_GGUF.layers);
    expect(header.metadata.get('general.architecture')).toBe('llama');
    expect(header.metadata.get('tokenizer.ggml.add_space_prefix')).toBe(false);
    const tokens = header.metadata.get('tokenizer.ggml.tokens') as string[];
    expect(tokens[header.metadata.get('tokenizer.ggml.eos_token_id') as number]).toBe('<|im_end|>');
    expect(tokens).toContain('<tool_call>');
    expect(tokens).toContain('<0xFF>');
    expect(header.metadata.get('tokenizer.chat_template')).toContain('<tool_call>');
    const last = header.tensors.at(-1);
    expect(last?.name).toBe('output.weight');
    const lastBytes = (last?.shape ?? []).reduce((a, b) => a * b, 4);
    expect(header.dataStart + (last?.offset ?? 0) + lastBytes).toBe(bytes.length);
    const params = header.tensors.reduce((n, t) => n + t.shape.reduce((a, b) => a * b, 1), 0);
    expect(params).toBeGreaterThan(80_000);
    expect(params).toBeLessThan(150_000);
  });

  it('gives the same bytes for the same seed, and different weights for another seed', () => {
    const hash = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
    expect(hash(writeTinyGguf(TINY_GGUF))).toBe(hash(writeTinyGguf(TINY_GGUF)));
    expect(hash(writeTinyGguf({ ...TINY_GGUF, seed: 2 }))).not.toBe(hash(writeTinyGguf(TINY_GGUF)));
  });

  it('stores matrices as F16 when asked, and the small preset has about 25M parameters', () => {
    const header = readHeader(writeTinyGguf({ ...TINY_GGUF, f16: true }));
    const types = new Map(header.tensors.map((t) => [t.name, t.type]));
    expect(types.get('blk.0.attn_q.weight')).toBe(1);
    expect(types.get('blk.0.attn_norm.weight')).toBe(0);
    const { embd, layers, ff, heads, kvHeads } = SMALL_GGUF;
    const kv = (embd / heads) * kvHeads;
    const perLayer = 2 * embd * embd + 2 * embd * kv + 3 * embd * ff;
    expect(layers * perLayer).toBeGreaterThan(24_000_000);
  });

  it('refuses shapes llama.cpp cannot run', () => {
    expect(() => writeTinyGguf({ ...TINY_GGUF, heads: 3 })).toThrow(/heads/);
  });
});
