// The one strict decoder of base58 and base64 text that comes from outside: client filters (stream.Stream,
// geyser.Geyser), JSON-RPC and PubSub params, and the file source's lines. Each returns the bytes or a failure
// with its kind and a reason; none throws, so every caller names the input in its own error type (a filter's
// path, a -32602's `data`, a file's field). Strict where the libraries are lenient: Node's base64 decoder skips
// characters outside the alphabet and stray bits, which would turn a typo into a filter that quietly matches
// other data or a file row that stores other bytes; base58 outside Bitcoin's alphabet is refused, and so is a
// text too long to be of the expected size before any decoding is paid for.
import bs58 from 'bs58';

/** Why a text did not decode: `size` = valid, but not the expected number of bytes. */
export type DecodeFailureKind = 'empty' | 'too-long' | 'alphabet' | 'size' | 'padding' | 'length' | 'trailing-bits';

export interface DecodeFailure {
  ok: false;
  kind: DecodeFailureKind;
  /** Lower-case, without the input: e.g. `not base58`, `decodes to 31 bytes, expected 32`. */
  reason: string;
  /** `size`: the number of bytes the text decodes to. */
  decodedBytes?: number;
}

export type Decoded = { ok: true; bytes: Uint8Array } | DecodeFailure;

const fail = (kind: DecodeFailureKind, reason: string, decodedBytes?: number): DecodeFailure =>
  decodedBytes === undefined ? { ok: false, kind, reason } : { ok: false, kind, reason, decodedBytes };

/** The most base58 characters `size` bytes can take (each character holds log2(58) bits; leading zero bytes are one `1` each). */
export const maxBase58Chars = (size: number): number => Math.ceil((size * 8) / Math.log2(58)) + 1;

/** Base58 that must decode to exactly `size` bytes (32 for pubkeys and hashes, 64 for signatures). */
export function decodeBase58Exact(text: string, size: number): Decoded {
  // A 32-byte key is at most 44 chars and a 64-byte signature at most 88; longer input cannot be valid and
  // would only cost decode time, so it is rejected before decoding.
  const maxChars = maxBase58Chars(size);
  if (text.length === 0) return fail('empty', 'empty string');
  if (text.length > maxChars) return fail('too-long', `longer than ${maxChars} characters`);
  const bytes = bs58.decodeUnsafe(text);
  if (bytes === undefined) return fail('alphabet', 'not base58');
  if (bytes.length !== size) return fail('size', `decodes to ${bytes.length} bytes, expected ${size}`, bytes.length);
  return { ok: true, bytes };
}

/** Base58 of any length (memcmp data); the empty text is zero bytes. */
export function decodeBase58(text: string): Decoded {
  const bytes = bs58.decodeUnsafe(text);
  if (bytes === undefined) return fail('alphabet', 'not base58');
  return { ok: true, bytes };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Standard-alphabet base64, canonical: no character outside the alphabet, no stray bits in the last
 * character. Padding may be omitted unless `padded` (then the text is whole groups of four).
 */
export function decodeBase64(text: string, { padded = false }: { padded?: boolean } = {}): Decoded {
  if (!BASE64.test(text)) return fail('alphabet', 'not base64 (standard alphabet A-Z a-z 0-9 + /)');
  const unpadded = text.replace(/=+$/, '');
  if ((padded || text.length !== unpadded.length) && text.length % 4 !== 0) return fail('padding', 'bad base64 padding');
  if (unpadded.length % 4 === 1) return fail('length', 'bad base64 length');
  const bytes = Buffer.from(unpadded, 'base64');
  if (bytes.toString('base64').replace(/=+$/, '') !== unpadded) {
    return fail('trailing-bits', 'non-canonical base64 (trailing bits set)');
  }
  return { ok: true, bytes };
}
