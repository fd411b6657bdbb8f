// getBalance: the lamports of an account at the commitment, 0 when it does not exist, in a context.
// Reads only the lamports of the newest write (account_writes is ordered by pubkey).
import { u64Json } from '../../solana-json/json.js';
import { contextSlot, defineMethod, withContext } from '../method.js';
import { parseConfig, parseContextConfig, parsePubkey, positional, type ContextConfig } from '../../solana-json/params.js';
import { queryRows, u64 } from '../../views/query.js';

export interface GetBalanceParams extends ContextConfig {
  pubkey: string;
}

export function parseGetBalance(params: unknown): GetBalanceParams {
  const p = positional(params, 1, 2);
  return { pubkey: parsePubkey(p[0], 'pubkey'), ...parseContextConfig(parseConfig(p[1], 'config')) };
}

const BALANCE_SQL = `
SELECT lamports FROM {db:Identifier}.account_writes
WHERE pubkey = {pubkey:String} AND slot <= {slot:UInt64}
ORDER BY slot DESC, write_version DESC
LIMIT 1`;

const UNAVAILABLE = 'Account information unavailable';

export const getBalance = defineMethod<GetBalanceParams>({
  name: 'getBalance',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetBalance,
  run: async (ctx, p) => {
    const slot = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment, p.minContextSlot);
    const rows = await queryRows<{ lamports: string }>(ctx.ch, BALANCE_SQL, { db: ctx.db, pubkey: p.pubkey, slot });
    return withContext(slot, ctx.apiVersion, u64Json(rows.length === 0 ? 0n : u64(rows[0]!.lamports)));
  },
});
