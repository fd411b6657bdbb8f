// getTokenAccountsByDelegate: the token accounts that approved a delegate, of one mint or one token program,
// at the commitment, in a context, sorted by pubkey bytes (Agave sorts them). Candidates come from the
// token_accounts_by_delegate index (008_token_account_keys.sql); the newest write at or below the context
// slot decides (still the program's, open, an initialized token account, the delegate COption set to this
// delegate at bytes 72..108, that mint). Params, encodings and errors are getTokenAccountsByOwner's.
import { isTokenAccountData } from '../../../schemas/programs.js';
import {
  encodeAccount,
  encodingReady,
  mintsToRead,
  parseAccountConfig,
  type AccountConfig,
  type AccountRow,
} from '../../solana-json/accounts.js';
import { readMintDecimals } from '../account-state.js';
import { contextSlot, defineMethod, withContext } from '../method.js';
import { parseConfig, parsePubkey, positional } from '../../solana-json/params.js';
import { queryRows } from '../../views/query.js';
import { parseTokenAccountsFilter, programAndMint, type TokenAccountsFilter } from './getTokenAccountsByOwner.js';
import { newestWritesSql } from '../as-of.js';

export interface GetTokenAccountsByDelegateParams extends AccountConfig {
  delegate: string;
  filter: TokenAccountsFilter;
}

export function parseGetTokenAccountsByDelegate(params: unknown): GetTokenAccountsByDelegateParams {
  const p = positional(params, 2, 3);
  return {
    delegate: parsePubkey(p[0], 'delegate'),
    filter: parseTokenAccountsFilter(p[1]),
    ...parseAccountConfig(parseConfig(p[2], 'config'), 'binary'),
  };
}

// Agave's filters: memcmp 01000000 at 72 (delegate is Some) and the delegate at 76.
export const DELEGATE_ACCOUNTS_SQL = `
SELECT pubkey, owner, lamports, executable, rent_epoch, space, data
FROM (${newestWritesSql(`(
      SELECT pubkey FROM {db:Identifier}.token_accounts_by_delegate
      WHERE delegate = {delegate:String} AND program = {program:String} AND ({mint:String} = '' OR mint = {mint:String}))`)}
)
WHERE owner = {program:String} AND lamports > 0
  AND substring(base64Decode(data), 73, 4) = unhex('01000000')
  AND substring(base64Decode(data), 77, 32) = base58Decode({delegate:String})
  AND ({mint:String} = '' OR substring(base64Decode(data), 1, 32) = base58Decode({mint:String}))
ORDER BY base58Decode(pubkey)`;

const UNAVAILABLE = 'Account information unavailable';

export const getTokenAccountsByDelegate = defineMethod<GetTokenAccountsByDelegateParams>({
  name: 'getTokenAccountsByDelegate',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetTokenAccountsByDelegate,
  run: async (ctx, p) => {
    const slot = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment, p.minContextSlot);
    const { program, mint } = await programAndMint(ctx, p.filter, slot);
    await encodingReady(p.encoding);
    const rows = (
      await queryRows<AccountRow>(ctx.ch, DELEGATE_ACCOUNTS_SQL, { db: ctx.db, delegate: p.delegate, program, mint, slot })
    ).filter((r) => isTokenAccountData(Buffer.from(r.data, 'base64')));
    const decimals = await readMintDecimals(ctx.ch, ctx.db, mintsToRead(rows, p.encoding), slot);
    const value: unknown[] = [];
    for (const r of rows) {
      const account = encodeAccount(r, p.encoding, p.dataSlice, decimals) as { data: unknown };
      // jsonParsed leaves out what it cannot parse (a token account of an unknown mint), as Agave does.
      if (p.encoding === 'jsonParsed' && (Array.isArray(account.data) || typeof account.data !== 'object')) continue;
      value.push({ pubkey: r.pubkey, account });
    }
    return withContext(slot, ctx.apiVersion, value);
  },
});
