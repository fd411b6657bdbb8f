// What a projection gives back: the rows an event adds, or why the event cannot be projected
// (the runner dead-letters it with that reason and goes on).
import bs58 from 'bs58';
import type { Rows } from './rows.js';

export type Projection = { ok: true; rows: Partial<Rows> } | { ok: false; reason: string };

export const rejected = (reason: string): Projection => ({ ok: false, reason });

/** Base58 of a key that must be exactly `size` bytes; undefined when it is not. */
export function base58Of(bytes: Uint8Array | undefined, size: number): string | undefined {
  if (!bytes || bytes.length !== size) return undefined;
  return bs58.encode(bytes);
}

export const u64 = (v: bigint): string => v.toString();
export const optionalI64 = (v: bigint | undefined): string | null => (v === undefined ? null : v.toString());
