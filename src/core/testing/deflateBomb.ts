/**
 * A deflate bomb for tests: raw deflate (RFC 1951) of `1 + 258 × repeats` zero bytes, written by
 * hand in one fixed-Huffman block (a literal 0, then "copy 258 bytes from 1 back" over and over),
 * so a test gets gigabytes of output in megabytes of input without compressing anything itself.
 */
export function deflateBomb(repeats: number): Uint8Array {
  const out = new Uint8Array(Math.ceil((3 + 8 + repeats * 13 + 7) / 8) + 1);
  let bit = 0;
  const put = (value: number, count: number) => {
    for (let i = 0; i < count; i++, bit++) {
      if ((value >> i) & 1) out[bit >> 3] = (out[bit >> 3] ?? 0) | (1 << (bit & 7));
    }
  };
  // Huffman codes go most significant bit first.
  const code = (value: number, count: number) => {
    for (let i = count - 1; i >= 0; i--) put((value >> i) & 1, 1);
  };
  put(1, 1); // last block
  put(1, 2); // fixed Huffman codes
  code(0x30, 8); // literal 0
  for (let i = 0; i < repeats; i++) {
    code(0xc5, 8); // length symbol 285: 258 bytes
    code(0, 5); // distance symbol 0: one byte back
  }
  code(0, 7); // end of block
  return out.subarray(0, Math.ceil(bit / 8));
}
