// getTokenSupply: a mint's supply with its decimals, in a context. Agave takes a bare commitment config here
// (no minContextSlot) and answers its own -32602 messages: no account, not a token program's, not a mint.
import { isTokenProgram } from '../../../schemas/programs.js';
import { readAccounts } from '../account-state.js';
import { invalidParam } from '../../solana-json/errors.js';
import { contextSlot, defineMethod, withContext } from '../method.js';
import { parseCommitment, parseConfig, parsePubkey, positional, type Commitment } from '../../solana-json/params.js';
import { uiTokenAmount, unpackMint } from '../../solana-json/token.js';

export interface GetTokenSupplyParams {
  mint: string;
  commitment: Commitment;
}

export function parseGetTokenSupply(params: unknown): GetTokenSupplyParams {
  const p = positional(params, 1, 2);
  return { mint: parsePubkey(p[0], 'mint'), commitment: parseCommitment(parseConfig(p[1], 'config')) };
}

const UNAVAILABLE = 'Account information unavailable';

export const getTokenSupply = defineMethod<GetTokenSupplyParams>({
  name: 'getTokenSupply',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetTokenSupply,
  run: async (ctx, p) => {
    const slot = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment);
    const row = (await readAccounts(ctx.ch, ctx.db, [p.mint], slot)).get(p.mint);
    if (row === undefined) throw invalidParam('Invalid param: could not find account');
    if (!isTokenProgram(row.owner)) throw invalidParam('Invalid param: not a Token mint');
    const mint = unpackMint(Buffer.from(row.data, 'base64'));
    if (mint === undefined) throw invalidParam('Invalid param: mint could not be unpacked');
    return withContext(slot, ctx.apiVersion, uiTokenAmount(mint.supply, mint.decimals));
  },
});
