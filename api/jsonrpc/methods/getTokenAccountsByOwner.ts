// getTokenAccountsByOwner: the token accounts a wallet owns, of one mint or one token program, at the
// commitment (or as of the `slot` asked for: ../as-of.ts), in a context, sorted by pubkey bytes. Candidates come from the token_accounts_by_owner
// index; the newest write at or below the context slot decides (still the program's, still the wallet's,
// still that mint, open). jsonParsed leaves out accounts it cannot parse, as Agave does.
import { isTokenAccountData, isTokenProgram, NATIVE_MINT, TOKEN_PROGRAM } from '../../../schemas/programs.js';
import {
  encodeAccount,
  encodingReady,
  mintsToRead,
  parseAccountConfig,
  parseEncoding,
  type AccountEncoding,
  type AccountConfig,
  type AccountRow,
} from '../../solana-json/accounts.js';
import { readAccounts, readMintDecimals } from '../account-state.js';
import { describeValue } from '../../../platform/describe-value.js';
import { invalidParam, invalidParams } from '../../solana-json/errors.js';
import { newestWritesSql, parseAsOf, readSlot, type AsOf } from '../as-of.js';
import { defineMethod, withContext, type MethodContext } from '../method.js';
import { parseConfig, parsePubkey, positional, type ParamsConfig } from '../../solana-json/params.js';
import { queryRows } from '../../views/query.js';
import { unpackMint } from '../../solana-json/token.js';

export type TokenAccountsFilter = { kind: 'mint'; mint: string } | { kind: 'programId'; program: string };

export interface GetTokenAccountsByOwnerParams extends AccountConfig, AsOf {
  owner: string;
  filter: TokenAccountsFilter;
}

/** Agave's RpcTokenAccountsFilter: an object with exactly one of `mint` or `programId`. */
export function parseTokenAccountsFilter(v: unknown): TokenAccountsFilter {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalidParams('filter: expected an object with mint or programId');
  const keys = Object.keys(v);
  if (keys.length !== 1 || (keys[0] !== 'mint' && keys[0] !== 'programId')) {
    throw invalidParams(`filter: expected exactly one of mint or programId, got ${keys.length === 0 ? 'none' : describeValue(keys)}`);
  }
  const value = (v as ParamsConfig)[keys[0]];
  return keys[0] === 'mint'
    ? { kind: 'mint', mint: parsePubkey(value, 'filter.mint') }
    : { kind: 'programId', program: parsePubkey(value, 'filter.programId') };
}

/**
 * The params getTokenAccountsByOwner and getTokenAccountsByOwnerV2 share (V2 adds its paging members). Only the
 * encodings differ: Agave's default `binary` (base-58, refused past 128 bytes, so for every token account) for V1;
 * the provider method's list has no `binary`, and its default is base64.
 */
export function parseTokenAccountsByOwnerParams(
  params: unknown,
  encodings: { default: AccountEncoding; allowed?: readonly AccountEncoding[] } = { default: 'binary' },
): { parsed: GetTokenAccountsByOwnerParams; config: ParamsConfig } {
  const p = positional(params, 2, 3);
  const owner = parsePubkey(p[0], 'owner');
  const filter = parseTokenAccountsFilter(p[1]);
  const config = parseConfig(p[2], 'config');
  const encoding = parseEncoding(config, encodings.default, encodings.allowed);
  return { parsed: { owner, filter, ...parseAccountConfig(config, encoding), ...parseAsOf(config) }, config };
}

export const parseGetTokenAccountsByOwner = (params: unknown): GetTokenAccountsByOwnerParams =>
  parseTokenAccountsByOwnerParams(params).parsed;

// The newest write of each candidate at or below the read slot, kept when it still belongs to the
// program and holds the wallet at bytes 32..64 (and the mint at 0..32 when one is asked for). Paged
// (getTokenAccountsByOwnerV2): only pubkeys after the cursor, written at or after changedSinceSlot, `limit` of them.
export function tokenAccountsSql(paged: boolean): string {
  return `
SELECT pubkey, owner, lamports, executable, rent_epoch, space, data
FROM (${newestWritesSql(`(
      SELECT pubkey FROM {db:Identifier}.token_accounts_by_owner
      WHERE owner = {wallet:String} AND program = {program:String} AND ({mint:String} = '' OR mint = {mint:String}))`)}
)
WHERE owner = {program:String} AND lamports > 0
  AND substring(base64Decode(data), 33, 32) = base58Decode({wallet:String})
  AND ({mint:String} = '' OR substring(base64Decode(data), 1, 32) = base58Decode({mint:String}))${
    paged ? '\n  AND base58Decode(pubkey) > unhex({after:String}) AND write_slot >= {since:UInt64}' : ''
  }
ORDER BY base58Decode(pubkey)${paged ? '\nLIMIT {limit:UInt32}' : ''}`;
}
const TOKEN_ACCOUNTS_SQL = tokenAccountsSql(false);

export const UNAVAILABLE = 'Account information unavailable';

/** Agave's get_token_program_id_and_mint: the program to search and the mint, or its -32602. */
export async function programAndMint(
  ctx: MethodContext,
  filter: TokenAccountsFilter,
  slot: bigint,
): Promise<{ program: string; mint: string }> {
  if (filter.kind === 'programId') {
    if (!isTokenProgram(filter.program)) throw invalidParam('Invalid param: unrecognized Token program id');
    return { program: filter.program, mint: '' };
  }
  if (filter.mint === NATIVE_MINT) return { program: TOKEN_PROGRAM, mint: filter.mint };
  const mint = (await readAccounts(ctx.ch, ctx.db, [filter.mint], slot)).get(filter.mint);
  if (mint === undefined) throw invalidParam('Invalid param: could not find mint');
  if (unpackMint(Buffer.from(mint.data, 'base64')) === undefined) throw invalidParam('Invalid param: Token mint could not be unpacked');
  if (!isTokenProgram(mint.owner)) throw invalidParam('Invalid param: not a Token mint');
  return { program: mint.owner, mint: filter.mint };
}

/** Both versions' first steps: the slot the answer is at, the program and mint to search, the encoding loaded. */
export async function tokenAccountsScope(
  ctx: MethodContext,
  p: GetTokenAccountsByOwnerParams,
): Promise<{ slot: bigint; program: string; mint: string }> {
  const slot = readSlot(UNAVAILABLE, ctx.state, p);
  const { program, mint } = await programAndMint(ctx, p.filter, slot);
  await encodingReady(p.encoding);
  return { slot, program, mint };
}

/**
 * Agave's keyed token accounts of stored rows: token-account data only; jsonParsed leaves out what it cannot
 * parse. The rows' mints are read for jsonParsed's decimals.
 */
export async function shapeTokenAccounts(
  ctx: MethodContext,
  p: GetTokenAccountsByOwnerParams,
  rows: readonly AccountRow[],
  slot: bigint,
): Promise<unknown[]> {
  const tokenRows = rows.filter((r) => isTokenAccountData(Buffer.from(r.data, 'base64')));
  const decimals = await readMintDecimals(ctx.ch, ctx.db, mintsToRead(tokenRows, p.encoding), slot);
  const value: unknown[] = [];
  for (const r of tokenRows) {
    const account = encodeAccount(r, p.encoding, p.dataSlice, decimals) as { data: unknown };
    if (p.encoding === 'jsonParsed' && (Array.isArray(account.data) || typeof account.data !== 'object')) continue;
    value.push({ pubkey: r.pubkey, account });
  }
  return value;
}

export const getTokenAccountsByOwner = defineMethod<GetTokenAccountsByOwnerParams>({
  name: 'getTokenAccountsByOwner',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetTokenAccountsByOwner,
  run: async (ctx, p) => {
    const { slot, program, mint } = await tokenAccountsScope(ctx, p);
    const rows = await queryRows<AccountRow>(ctx.ch, TOKEN_ACCOUNTS_SQL, { db: ctx.db, wallet: p.owner, program, mint, slot });
    return withContext(slot, ctx.apiVersion, await shapeTokenAccounts(ctx, p, rows, slot));
  },
});
