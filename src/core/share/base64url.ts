/*
 * base64url (RFC 4648 §5) without padding, by hand: core has no btoa/atob, and a link's alphabet
 * must survive being pasted into chat apps, mail and URL bars untouched.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Each character code's six bits, or -1 for a character outside the alphabet. */
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i;

/** Writes bytes as base64url, without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  const out: string[] = [];
  let chunk = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] ?? 0;
    const b = bytes[i + 1] ?? 0;
    const c = bytes[i + 2] ?? 0;
    const left = bytes.length - i;
    chunk += ALPHABET.charAt(a >> 2) + ALPHABET.charAt(((a & 3) << 4) | (b >> 4));
    if (left > 1) chunk += ALPHABET.charAt(((b & 15) << 2) | (c >> 6));
    if (left > 2) chunk += ALPHABET.charAt(c & 63);
    // Many short strings joined once, rather than one string grown a character at a time.
    if (chunk.length >= 8192) {
      out.push(chunk);
      chunk = '';
    }
  }
  out.push(chunk);
  return out.join('');
}

/** Why a text is not base64url: a character outside the alphabet (and where), or a length no encoding has. */
export type Base64Problem =
  | { readonly kind: 'character'; readonly character: string; readonly index: number }
  | { readonly kind: 'length' };

/**
 * Reads base64url without padding (a trailing `=` or two is tolerated).
 * @returns the bytes, or what makes the text unreadable.
 */
export function fromBase64Url(text: string): Uint8Array | Base64Problem {
  const body = text.replace(/={1,2}$/, '');
  const stray = /[^A-Za-z0-9_-]/u.exec(body);
  if (stray) return { kind: 'character', character: stray[0], index: stray.index };
  if (body.length % 4 === 1) return { kind: 'length' };
  const bytes = new Uint8Array(Math.floor((body.length * 3) / 4));
  let at = 0;
  for (let i = 0; i < body.length; i += 4) {
    let bits = 0;
    const count = Math.min(4, body.length - i);
    for (let j = 0; j < 4; j++) {
      // Every character is in the alphabet (checked above); past the end counts as zero bits.
      bits = (bits << 6) | (j < count ? (VALUE[body.charCodeAt(i + j)] ?? 0) : 0);
    }
    bytes[at++] = bits >> 16;
    if (count > 2) bytes[at++] = (bits >> 8) & 255;
    if (count > 3) bytes[at++] = bits & 255;
  }
  return bytes;
}
