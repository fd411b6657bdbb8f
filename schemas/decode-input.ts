// Strict decoders for client-supplied filter strings. Each returns the bytes or a reason; none throws.
import bs58 from 'bs58';

export type Decoded = { ok: true; bytes: Uint8Array } | { ok: false; reason: string };

/** Base58 that must decode to exactly `size` bytes (32 for pubkeys, 64 for signatures). */
export function decodeBase58Exact(text: string, size: number): Decoded {
  // A 32-byte key is at most 44 chars and a 64-byte signature at most 88; longer input cannot be valid and
  // would only cost decode time, so it is rejected before decoding.
  const maxChars = Math.ceil((size * 8) / Math.log2(58)) + 1;
  if (text.length === 0) return { ok: false, reason: 'empty string' };
  if (text.length > maxChars) return { ok: false, reason: `longer than ${maxChars} characters` };
  const bytes = bs58.decodeUnsafe(text);
  if (bytes === undefined) return { ok: false, reason: 'not base58' };
  if (bytes.length !== size) return { ok: false, reason: `decodes to ${bytes.length} bytes, expected ${size}` };
  return { ok: true, bytes };
}

/** Base58 of any length (memcmp data). */
export function decodeBase58(text: string): Decoded {
  const bytes = bs58.decodeUnsafe(text);
  if (bytes === undefined) return { ok: false, reason: 'not base58' };
  return { ok: true, bytes };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Standard-alphabet base64. Padding may be omitted, but the text must be canonical: Node's decoder silently
 * skips bad characters and stray bits, which would turn a typo into a filter that quietly matches other data.
 */
export function decodeBase64(text: string): Decoded {
  if (!BASE64.test(text)) return { ok: false, reason: 'not base64 (standard alphabet A-Z a-z 0-9 + /)' };
  const unpadded = text.replace(/=+$/, '');
  if (text.length !== unpadded.length && text.length % 4 !== 0) return { ok: false, reason: 'bad base64 padding' };
  if (unpadded.length % 4 === 1) return { ok: false, reason: 'bad base64 length' };
  const bytes = Buffer.from(unpadded, 'base64');
  if (bytes.toString('base64').replace(/=+$/, '') !== unpadded) {
    return { ok: false, reason: 'non-canonical base64 (trailing bits set)' };
  }
  return { ok: true, bytes };
}
