// Account state from the head cache (api/head/head-cache.ts `newestWrite`): what account-state.ts reads from the
// views, for an account written in the held slots, at a commitment's head. The row is built from the record's
// bytes as the projector builds its `account_writes` row (projector/projections/accounts.ts), so the methods shape
// both with the same functions and answer the same bytes (head-cache.int.test.ts). Pure.
import bs58 from 'bs58';
import { NATIVE_MINT, NATIVE_MINT_DECIMALS } from '../../schemas/programs.js';
import { AccountEvent } from '../../schemas/gen/events.js';
import { encodeAccount, mintsToRead, type AccountConfig, type AccountRow } from '../solana-json/accounts.js';
import { mintDecimals } from '../solana-json/token.js';
import { zstdLoaded } from '../solana-json/zstd.js';
import type { ReadSlotParams } from './as-of.js';
import { HEAD_MISS, rawKeyOf, type HeadContext, type HeadMiss } from './head.js';
import { contextSlot } from './method.js';

/** The row the views hold for a write (its pubkey and owner are 32 bytes: the cache keeps no other). */
export function accountRowOf(bytes: Buffer): AccountRow {
  const e = AccountEvent.decode(bytes);
  return {
    pubkey: bs58.encode(e.pubkey),
    owner: bs58.encode(e.owner),
    lamports: e.lamports.toString(),
    executable: e.executable,
    rent_epoch: e.rentEpoch.toString(),
    space: e.data.length,
    data: Buffer.from(e.data).toString('base64'),
  };
}

/**
 * The slot an account read answers at from the cache (as-of.ts `readSlot` without `slot`): a read as of a past
 * slot is the views' (the cache keeps no history of an account, only what the commitments read).
 */
export function headReadSlot(unavailableMessage: string, h: HeadContext, p: ReadSlotParams): bigint | HeadMiss {
  if (p.asOfSlot !== undefined) return HEAD_MISS;
  return contextSlot({ unavailableMessage }, h.state, p.commitment, p.minContextSlot);
}

/**
 * The newest write of each of `pubkeys` at `slot` as account-state.ts `readAccounts` answers them (closed ones, 0
 * lamports, left out), or HEAD_MISS when the cache cannot prove any one of them.
 */
export function headAccounts(h: HeadContext, pubkeys: readonly string[], slot: bigint): Map<string, AccountRow> | HeadMiss {
  const out = new Map<string, AccountRow>();
  for (const pubkey of new Set(pubkeys)) {
    const w = h.cache.newestWrite(rawKeyOf(pubkey), slot);
    if (w === undefined) return HEAD_MISS;
    const row = accountRowOf(w.bytes);
    if (row.lamports !== '0') out.set(pubkey, row);
  }
  return out;
}

/** account-state.ts `readMintDecimals` from the cache, or HEAD_MISS when a mint's state is not proven there. */
export function headMintDecimals(h: HeadContext, mints: Iterable<string>, slot: bigint): Map<string, number> | HeadMiss {
  const out = new Map<string, number>();
  const unique = new Set(mints);
  if (unique.delete(NATIVE_MINT)) out.set(NATIVE_MINT, NATIVE_MINT_DECIMALS);
  const rows = headAccounts(h, [...unique], slot);
  if (rows === HEAD_MISS) return HEAD_MISS;
  for (const [mint, row] of rows) {
    const d = mintDecimals(Buffer.from(row.data, 'base64'));
    if (d !== undefined) out.set(mint, d);
  }
  return out;
}

/**
 * Each of `pubkeys` at `slot` as Agave's UiAccount in the asked encoding (null when it does not exist), as
 * getAccountInfo and getMultipleAccounts answer on the views, or HEAD_MISS. base64+zstd waits for its
 * WebAssembly, which the views' path loads on its first use (asynchronously; the cache answers synchronously).
 */
export function headUiAccounts(h: HeadContext, pubkeys: readonly string[], p: AccountConfig, slot: bigint): unknown[] | HeadMiss {
  if (p.encoding === 'base64+zstd' && !zstdLoaded()) return HEAD_MISS;
  const rows = headAccounts(h, pubkeys, slot);
  if (rows === HEAD_MISS) return HEAD_MISS;
  const decimals = headMintDecimals(h, mintsToRead(rows.values(), p.encoding), slot);
  if (decimals === HEAD_MISS) return HEAD_MISS;
  return pubkeys.map((k) => {
    const r = rows.get(k);
    return r === undefined ? null : encodeAccount(r, p.encoding, p.dataSlice, decimals);
  });
}
