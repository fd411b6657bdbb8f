// Small conversions shared by the Yellowstone converters: Yellowstone's generated codecs carry u64 as
// decimal strings and some keys as base-58 strings; the event model has bigint and raw bytes.
import bs58 from 'bs58';
import { base58, base58Key, keyFromBase58 } from '../base58.js';
import { asBuffer } from '../bytes.js';

export const u64 = (s: string | undefined): bigint => (s === undefined || s === '' ? 0n : BigInt(s));
export const u64Str = (v: bigint | number): string => v.toString();

/** Raw bytes as a Buffer view (no copy), so event fields compare and print like the other sources'. */
export const buf = asBuffer;

/** base-58 text to bytes; the empty string (Agave's "not recorded") stays empty. */
export const fromB58 = (s: string): Buffer => (s === '' ? Buffer.alloc(0) : Buffer.from(bs58.decode(s)));
/** The same for a key that repeats across transactions (a token balance's mint, owner, program): decoded once and
 * shared (schemas/base58.ts), as bs58's decode was most of a transaction's conversion (bench:convert). */
export const keyFromB58 = (s: string): Buffer => (s === '' ? Buffer.alloc(0) : keyFromBase58(s, bs58.decode));
export const toB58 = (b: Uint8Array): string => (b.length === 0 ? '' : base58(b));
/** A 32-byte key's base-58, remembered (schemas/base58.ts base58Key); other lengths as toB58. */
export const keyToB58 = (b: Uint8Array): string => (b.length === 32 ? base58Key(asBuffer(b)) : toB58(b));
