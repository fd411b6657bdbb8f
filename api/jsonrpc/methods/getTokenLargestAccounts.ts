// getTokenLargestAccounts: the 20 token accounts of a mint holding the most, in a context. Candidates come
// from the token_accounts_by_mint index (008_token_account_keys.sql), each checked on its newest write at or
// below the context slot (still the program's, open, an initialized token account of that mint), then
// ordered as Agave's heap of (amount, address) orders them: amount descending, ties by address bytes
// descending. Agave takes a bare commitment config here (no minContextSlot).
import { contextSlot, defineMethod, withContext } from '../method.js';
import { parseCommitment, parseConfig, parsePubkey, positional, type Commitment } from '../../solana-json/params.js';
import { uiTokenAmount } from '../../solana-json/token.js';
import { queryRows, u64 } from '../../views/query.js';
import { tokenMintAt } from './token-mint.js';
import { newestWritesSql } from '../as-of.js';

export interface GetTokenLargestAccountsParams {
  mint: string;
  commitment: Commitment;
}

export function parseGetTokenLargestAccounts(params: unknown): GetTokenLargestAccountsParams {
  const p = positional(params, 1, 2);
  return { mint: parsePubkey(p[0], 'mint'), commitment: parseCommitment(parseConfig(p[1], 'config')) };
}

/** Agave's NUM_LARGEST_ACCOUNTS. */
export const NUM_LARGEST_ACCOUNTS = 20;

// The token-account test is schemas/programs.ts isTokenAccountData in SQL: 165 bytes, or longer with
// Token-2022's account type byte 2 (and not a multisig's 355), state byte not 0 (uninitialized).
export const LARGEST_SQL = `
SELECT pubkey, toString(reinterpretAsUInt64(substring(d, 65, 8))) AS amount
FROM (${newestWritesSql(
  '(SELECT pubkey FROM {db:Identifier}.token_accounts_by_mint WHERE mint = {mint:String} AND program = {program:String})',
  'pubkey, owner, lamports, base64Decode(data) AS d',
)}
)
WHERE owner = {program:String} AND lamports > 0
  AND substring(d, 1, 32) = base58Decode({mint:String})
  AND (length(d) = 165 OR (length(d) > 165 AND length(d) != 355 AND substring(d, 166, 1) = char(2)))
  AND substring(d, 109, 1) != char(0)
ORDER BY reinterpretAsUInt64(substring(d, 65, 8)) DESC, base58Decode(pubkey) DESC
LIMIT {limit:UInt32}`;

const UNAVAILABLE = 'Account information unavailable';

export const getTokenLargestAccounts = defineMethod<GetTokenLargestAccountsParams>({
  name: 'getTokenLargestAccounts',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetTokenLargestAccounts,
  run: async (ctx, p) => {
    const slot = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment);
    const { program, decimals } = await tokenMintAt(ctx, p.mint, slot);
    const rows = await queryRows<{ pubkey: string; amount: string }>(ctx.ch, LARGEST_SQL, {
      db: ctx.db,
      mint: p.mint,
      program,
      slot,
      limit: NUM_LARGEST_ACCOUNTS,
    });
    return withContext(
      slot,
      ctx.apiVersion,
      rows.map((r) => ({ address: r.pubkey, ...uiTokenAmount(u64(r.amount), decimals) })),
    );
  },
});
