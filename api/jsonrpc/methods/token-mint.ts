// Agave's get_mint_owner_and_additional_data (rpc/src/parsed_token_accounts.rs), shared by the methods that
// take a mint: its token program and decimals at a slot, or Agave's -32602 for each way it fails. The
// wrapped-SOL mint is known without reading it, as in Agave.
import { isTokenProgram, NATIVE_MINT, NATIVE_MINT_DECIMALS, TOKEN_PROGRAM } from '../../../schemas/programs.js';
import { readAccounts } from '../account-state.js';
import { invalidParam } from '../../solana-json/errors.js';
import { unpackMint } from '../../solana-json/token.js';
import type { MethodContext } from '../method.js';

export interface MintInfo {
  program: string;
  decimals: number;
}

export async function tokenMintAt(ctx: MethodContext, mint: string, slot: bigint): Promise<MintInfo> {
  if (mint === NATIVE_MINT) return { program: TOKEN_PROGRAM, decimals: NATIVE_MINT_DECIMALS };
  const row = (await readAccounts(ctx.ch, ctx.db, [mint], slot)).get(mint);
  if (row === undefined) throw invalidParam('Invalid param: could not find mint');
  const state = unpackMint(Buffer.from(row.data, 'base64'));
  if (state === undefined) throw invalidParam('Invalid param: Token mint could not be unpacked');
  if (!isTokenProgram(row.owner)) throw invalidParam('Invalid param: not a Token mint');
  return { program: row.owner, decimals: state.decimals };
}
