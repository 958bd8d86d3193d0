import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url } from './base64url.ts';

describe('base64url', () => {
  it('writes what Node writes, and reads it back, for any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const text = toBase64Url(bytes);
        expect(text).toBe(Buffer.from(bytes).toString('base64url'));
        expect(fromBase64Url(text)).toEqual(bytes);
      }),
    );
  });

  it('writes long inputs whole', () => {
    const bytes = Uint8Array.from({ length: 50_000 }, (_, i) => (i * 7919) & 255);
    expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
  });

  it('tolerates padding, and names a character outside the alphabet and where it is', () => {
    expect(fromBase64Url('aGk=')).toEqual(new Uint8Array([104, 105]));
    expect(fromBase64Url('aG+k')).toEqual({ kind: 'character', character: '+', index: 2 });
    expect(fromBase64Url('aGk😀')).toEqual({ kind: 'character', character: '😀', index: 3 });
  });

  it('refuses a length no encoding has (one character past a whole group)', () => {
    expect(fromBase64Url('aGkha')).toEqual({ kind: 'length' });
  });
});
