// getBalance: the lamports of an account at the commitment (or as of the `slot` asked for: ../as-of.ts),
// 0 when it does not exist, in a context. Reads only the lamports of the newest write, from the head cache when
// the account was written in its slots (../head-accounts.ts).
import { u64Json } from '../../solana-json/json.js';
import { newestWritesSql, parseAsOf, readSlot, type AsOf } from '../as-of.js';
import { HEAD_MISS, rawKeyOf } from '../head.js';
import { headReadSlot } from '../head-accounts.js';
import { defineMethod, withContext } from '../method.js';
import { scanAccount } from '../../../schemas/scan.js';
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
  fromHead: (h, p) => {
    const slot = headReadSlot(UNAVAILABLE, h, p);
    if (slot === HEAD_MISS) return HEAD_MISS;
    const w = h.cache.newestWrite(rawKeyOf(p.pubkey), slot);
    return w === undefined ? HEAD_MISS : withContext(slot, h.apiVersion, u64Json(scanAccount(w.bytes).lamports));
  },
});
