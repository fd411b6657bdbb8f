// Small conversions shared by the Yellowstone converters: Yellowstone's generated codecs carry u64 as
// decimal strings and some keys as base-58 strings; the event model has bigint and raw bytes.
import bs58 from 'bs58';
import { asBuffer } from '../bytes.js';

export const u64 = (s: string | undefined): bigint => (s === undefined || s === '' ? 0n : BigInt(s));
export const u64Str = (v: bigint | number): string => v.toString();

/** Raw bytes as a Buffer view (no copy), so event fields compare and print like the other sources'. */
export const buf = asBuffer;

/** base-58 text to bytes; the empty string (Agave's "not recorded") stays empty. */
export const fromB58 = (s: string): Buffer => (s === '' ? Buffer.alloc(0) : Buffer.from(bs58.decode(s)));
export const toB58 = (b: Uint8Array): string => (b.length === 0 ? '' : bs58.encode(b));
