// getTokenAccountsByOwner: the token accounts a wallet owns, of one mint or one token program, at the
// commitment, in a context, sorted by pubkey bytes. Candidates come from the token_accounts_by_owner
// index; the newest write at or below the context slot decides (still the program's, still the wallet's,
// still that mint, open). jsonParsed leaves out accounts it cannot parse, as Agave does.
import { isTokenAccountData, isTokenProgram, NATIVE_MINT, TOKEN_PROGRAM } from '../../../schemas/programs.js';
import {
  encodeAccount,
  encodingReady,
  mintsToRead,
  parseAccountConfig,
  type AccountConfig,
  type AccountRow,
} from '../../solana-json/accounts.js';
import { readAccounts, readMintDecimals } from '../account-state.js';
import { describeValue } from '../../../platform/describe-value.js';
import { invalidParam, invalidParams } from '../../solana-json/errors.js';
import { contextSlot, defineMethod, withContext, type MethodContext } from '../method.js';
import { parseConfig, parsePubkey, positional, type ParamsConfig } from '../../solana-json/params.js';
import { queryRows } from '../../views/query.js';
import { unpackMint } from '../../solana-json/token.js';

export type TokenAccountsFilter = { kind: 'mint'; mint: string } | { kind: 'programId'; program: string };

export interface GetTokenAccountsByOwnerParams extends AccountConfig {
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

export function parseGetTokenAccountsByOwner(params: unknown): GetTokenAccountsByOwnerParams {
  const p = positional(params, 2, 3);
  return {
    owner: parsePubkey(p[0], 'owner'),
    filter: parseTokenAccountsFilter(p[1]),
    ...parseAccountConfig(parseConfig(p[2], 'config'), 'binary'),
  };
}

// The newest write of each candidate at or below the context slot, kept when it still belongs to the
// program and holds the wallet at bytes 32..64 (and the mint at 0..32 when one is asked for).
const TOKEN_ACCOUNTS_SQL = `
SELECT pubkey, owner, lamports, executable, rent_epoch, space, data
FROM (
  SELECT pubkey, owner, lamports, executable, rent_epoch, space, data
  FROM {db:Identifier}.account_writes
  WHERE pubkey IN (
      SELECT pubkey FROM {db:Identifier}.token_accounts_by_owner
      WHERE owner = {wallet:String} AND program = {program:String} AND ({mint:String} = '' OR mint = {mint:String}))
    AND slot <= {slot:UInt64}
  ORDER BY pubkey, slot DESC, write_version DESC
  LIMIT 1 BY pubkey
)
WHERE owner = {program:String} AND lamports > 0
  AND substring(base64Decode(data), 33, 32) = base58Decode({wallet:String})
  AND ({mint:String} = '' OR substring(base64Decode(data), 1, 32) = base58Decode({mint:String}))
ORDER BY base58Decode(pubkey)`;

const UNAVAILABLE = 'Account information unavailable';

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

export const getTokenAccountsByOwner = defineMethod<GetTokenAccountsByOwnerParams>({
  name: 'getTokenAccountsByOwner',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetTokenAccountsByOwner,
  run: async (ctx, p) => {
    const slot = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment, p.minContextSlot);
    const { program, mint } = await programAndMint(ctx, p.filter, slot);
    await encodingReady(p.encoding);
    const rows = (await queryRows<AccountRow>(ctx.ch, TOKEN_ACCOUNTS_SQL, { db: ctx.db, wallet: p.owner, program, mint, slot })).filter(
      (r) => isTokenAccountData(Buffer.from(r.data, 'base64')),
    );
    const decimals = await readMintDecimals(ctx.ch, ctx.db, mintsToRead(rows, p.encoding), slot);
    const value: unknown[] = [];
    for (const r of rows) {
      const account = encodeAccount(r, p.encoding, p.dataSlice, decimals) as { data: unknown };
      if (p.encoding === 'jsonParsed' && (Array.isArray(account.data) || typeof account.data !== 'object')) continue;
      value.push({ pubkey: r.pubkey, account });
    }
    return withContext(slot, ctx.apiVersion, value);
  },
});
