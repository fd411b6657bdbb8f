// Account state at a commitment, shared by getAccountInfo, getMultipleAccounts, getBalance,
// getTokenAccountBalance and getTokenAccountsByOwner. The state of a pubkey is its newest write at or below
// the read slot (the context slot, or the `slot` asked for: as-of.ts; account_writes is ordered by pubkey, so
// this is a key-range read); a write with 0 lamports means the account does not exist, as Agave's bank says. The encodings are Agave's (../solana-json/accounts.ts).
import { NATIVE_MINT, NATIVE_MINT_DECIMALS } from '../../schemas/programs.js';
import type { AccountRow } from '../solana-json/accounts.js';
import { mintDecimals } from '../solana-json/token.js';
import { queryRows, u64, type QueryClient } from '../views/query.js';
import { newestWritesSql } from './as-of.js';

export const ACCOUNT_STATE_SQL = newestWritesSql('{pubkeys:Array(String)}');

/** The existing accounts among `pubkeys` at `slot` (closed ones are left out). */
export async function readAccounts(
  ch: QueryClient,
  db: string,
  pubkeys: readonly string[],
  slot: bigint,
): Promise<Map<string, AccountRow>> {
  const out = new Map<string, AccountRow>();
  if (pubkeys.length === 0) return out;
  const rows = await queryRows<AccountRow>(ch, ACCOUNT_STATE_SQL, { db, pubkeys: [...new Set(pubkeys)], slot });
  for (const r of rows) if (u64(r.lamports) > 0n) out.set(r.pubkey, r);
  return out;
}

/**
 * Decimals of each mint at `slot` that exists and unpacks as a mint (Agave's additional data for parsing
 * token accounts); the wrapped-SOL mint is known without reading it, as in Agave.
 */
export async function readMintDecimals(ch: QueryClient, db: string, mints: Iterable<string>, slot: bigint): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const unique = new Set(mints);
  if (unique.delete(NATIVE_MINT)) out.set(NATIVE_MINT, NATIVE_MINT_DECIMALS);
  for (const [mint, row] of await readAccounts(ch, db, [...unique], slot)) {
    const d = mintDecimals(Buffer.from(row.data, 'base64'));
    if (d !== undefined) out.set(mint, d);
  }
  return out;
}
