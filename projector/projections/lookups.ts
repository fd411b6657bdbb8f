// The narrow lookup tables of 002_lookups.sql, projected beside the main views of the same events:
// token accounts by their wallet (getTokenAccountsByOwner), by mint (getTokenLargestAccounts) and by
// delegate (getTokenAccountsByDelegate; 008_token_account_keys.sql), and blockhash to block (isBlockhashValid).
// Pure; rows only add candidates, readers check them against the state at their commitment.
import type { AccountEvent, SlotEvent } from '../../schemas/codec.js';
import { isTokenAccountData, isTokenProgram } from '../../schemas/programs.js';
import { base58Key } from '../../schemas/base58.js';
import type { BlockhashRow, TokenAccountByDelegateRow, TokenAccountByMintRow, TokenAccountByOwnerRow } from './rows.js';

/** The wallet index row of a token account write; none for other accounts (and closed ones). */
export function tokenOwnerRows(e: AccountEvent, pubkey: string, program: string): TokenAccountByOwnerRow[] {
  if (!isTokenProgram(program) || e.lamports === 0n || !isTokenAccountData(e.data)) return [];
  return [{ owner: base58Key(e.data.subarray(32, 64)), program, mint: base58Key(e.data.subarray(0, 32)), pubkey }];
}

/** The mint index row of a token account write (008_token_account_keys.sql); none for other accounts. */
export function tokenMintRows(e: AccountEvent, pubkey: string, program: string): TokenAccountByMintRow[] {
  if (!isTokenProgram(program) || e.lamports === 0n || !isTokenAccountData(e.data)) return [];
  return [{ mint: base58Key(e.data.subarray(0, 32)), program, pubkey }];
}

/** The delegate index row of a token account write whose delegate is set (COption tag 1 at 72, key at 76). */
export function tokenDelegateRows(e: AccountEvent, pubkey: string, program: string): TokenAccountByDelegateRow[] {
  if (!isTokenProgram(program) || e.lamports === 0n || !isTokenAccountData(e.data)) return [];
  if (e.data.readUInt32LE(72) !== 1) return [];
  return [{ delegate: base58Key(e.data.subarray(76, 108)), program, mint: base58Key(e.data.subarray(0, 32)), pubkey }];
}

/** The blockhash row of a slot record that carries block meta (the processed record of a block). */
export function blockhashRows(e: SlotEvent): BlockhashRow[] {
  const b = e.block;
  if (b === undefined || b.blockhash.length !== 32) return [];
  return [{ blockhash: base58Key(b.blockhash), slot: e.slot.toString(), block_height: b.blockHeight.toString() }];
}
