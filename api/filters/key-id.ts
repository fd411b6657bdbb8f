// Keys (pubkeys, signatures) are compared as latin1 strings of their raw bytes: one char per byte, built
// once per event key, usable as a Map/Set key. Base58 would cost a big-number conversion per key per event.
import { asBuffer } from '../../schemas/bytes.js';

/** The lookup id of raw key bytes (pubkey, signature): a latin1 string with one char per byte. */
export function keyId(bytes: Uint8Array): string {
  const buf = asBuffer(bytes);
  return buf.toString('latin1');
}
