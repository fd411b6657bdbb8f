// getTokenAccountBalance: a token account's amount with its mint's decimals, in a context. Agave takes a
// bare commitment config here (no minContextSlot) and answers its own -32602 messages for each failure.
// slotstream's `slot`: as of that slot (../as-of.ts).
import { NATIVE_MINT, NATIVE_MINT_DECIMALS, isTokenProgram } from '../../../schemas/programs.js';
import { readAccounts } from '../account-state.js';
import { invalidParam } from '../../solana-json/errors.js';
import { parseAsOf, readSlot, type AsOf } from '../as-of.js';
import { defineMethod, withContext } from '../method.js';
import { parseCommitment, parseConfig, parsePubkey, positional, type Commitment } from '../../solana-json/params.js';
import { uiTokenAmount, unpackMint, unpackTokenAccount } from '../../solana-json/token.js';

export interface GetTokenAccountBalanceParams extends AsOf {
  pubkey: string;
  commitment: Commitment;
}

export function parseGetTokenAccountBalance(params: unknown): GetTokenAccountBalanceParams {
  const p = positional(params, 1, 2);
  const config = parseConfig(p[1], 'config');
  return { pubkey: parsePubkey(p[0], 'pubkey'), commitment: parseCommitment(config), ...parseAsOf(config) };
}

const UNAVAILABLE = 'Account information unavailable';

export const getTokenAccountBalance = defineMethod<GetTokenAccountBalanceParams>({
  name: 'getTokenAccountBalance',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetTokenAccountBalance,
  run: async (ctx, p) => {
    const slot = readSlot(UNAVAILABLE, ctx.state, p);
    const row = (await readAccounts(ctx.ch, ctx.db, [p.pubkey], slot)).get(p.pubkey);
    if (row === undefined) throw invalidParam('Invalid param: could not find account');
    const account = isTokenProgram(row.owner) ? unpackTokenAccount(Buffer.from(row.data, 'base64')) : undefined;
    if (account === undefined) throw invalidParam('Invalid param: not a Token account');
    let decimals = NATIVE_MINT_DECIMALS;
    if (account.mint !== NATIVE_MINT) {
      const mint = (await readAccounts(ctx.ch, ctx.db, [account.mint], slot)).get(account.mint);
      if (mint === undefined) throw invalidParam('Invalid param: could not find mint');
      const m = unpackMint(Buffer.from(mint.data, 'base64'));
      if (m === undefined) throw invalidParam('Invalid param: Token mint could not be unpacked');
      decimals = m.decimals;
    }
    return withContext(slot, ctx.apiVersion, uiTokenAmount(account.amount, decimals));
  },
});
