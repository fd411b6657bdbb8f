// What a projection gives back: the rows an event adds, or why the event cannot be projected
// (the runner dead-letters it with that reason and goes on).
import { base58, base58Key } from '../../schemas/base58.js';
import type { Rows } from './rows.js';

export type Projection = { ok: true; rows: Partial<Rows> } | { ok: false; reason: string };

export const rejected = (reason: string): Projection => ({ ok: false, reason });

/** Base58 of a key that must be exactly `size` bytes; undefined when it is not. */
export function base58Of(bytes: Buffer | undefined, size: number): string | undefined {
  if (!bytes || bytes.length !== size) return undefined;
  // 32-byte keys repeat across events; 64-byte signatures are unique, caching them would only cost.
  return size === 32 ? base58Key(bytes) : base58(bytes);
}

export const u64 = (v: bigint): string => v.toString();
export const optionalI64 = (v: bigint | undefined): string | null => (v === undefined ? null : v.toString());
