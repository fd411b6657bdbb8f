// getBalance: the lamports of an account at the commitment (or as of the `slot` asked for: ../as-of.ts),
// 0 when it does not exist, in a context. Reads only the lamports of the newest write.
import { u64Json } from '../../solana-json/json.js';
import { newestWritesSql, parseAsOf, readSlot, type AsOf } from '../as-of.js';
import { defineMethod, withContext } from '../method.js';
import { parseConfig, parseContextConfig, parsePubkey, positional, type ContextConfig } from '../../solana-json/params.js';
import { queryRows, u64 } from '../../views/query.js';

export interface GetBalanceParams extends ContextConfig, AsOf {
  pubkey: string;
}

export function parseGetBalance(params: unknown): GetBalanceParams {
  const p = positional(params, 1, 2);
  const config = parseConfig(p[1], 'config');
  return { pubkey: parsePubkey(p[0], 'pubkey'), ...parseContextConfig(config), ...parseAsOf(config) };
}

const BALANCE_SQL = newestWritesSql('({pubkey:String})', 'pubkey, lamports');

const UNAVAILABLE = 'Account information unavailable';

export const getBalance = defineMethod<GetBalanceParams>({
  name: 'getBalance',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetBalance,
  run: async (ctx, p) => {
    const slot = readSlot(UNAVAILABLE, ctx.state, p);
    const rows = await queryRows<{ lamports: string }>(ctx.ch, BALANCE_SQL, { db: ctx.db, pubkey: p.pubkey, slot });
    return withContext(slot, ctx.apiVersion, u64Json(rows.length === 0 ? 0n : u64(rows[0]!.lamports)));
  },
});
