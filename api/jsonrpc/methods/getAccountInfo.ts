// getAccountInfo: one account at the commitment in a context; null when it does not exist. Agave's
// default encoding here is the legacy `binary` (a bare base58 string, at most 128 bytes). `slot`: as of that
// slot (../as-of.ts). An account written in the head cache's slots is read from memory (../head-accounts.ts).
import { encodeAccount, encodingReady, mintsToRead, parseAccountConfig, type AccountConfig } from '../../solana-json/accounts.js';
import { readAccounts, readMintDecimals } from '../account-state.js';
import { parseAsOf, readSlot, type AsOf } from '../as-of.js';
import { HEAD_MISS } from '../head.js';
import { headReadSlot, headUiAccounts } from '../head-accounts.js';
import { defineMethod, withContext } from '../method.js';
import { parseConfig, parsePubkey, positional } from '../../solana-json/params.js';

export interface GetAccountInfoParams extends AccountConfig, AsOf {
  pubkey: string;
}

export function parseGetAccountInfo(params: unknown): GetAccountInfoParams {
  const p = positional(params, 1, 2);
  const config = parseConfig(p[1], 'config');
  return { pubkey: parsePubkey(p[0], 'pubkey'), ...parseAccountConfig(config, 'binary'), ...parseAsOf(config) };
}

const UNAVAILABLE = 'Account information unavailable';

export const getAccountInfo = defineMethod<GetAccountInfoParams>({
  name: 'getAccountInfo',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetAccountInfo,
  run: async (ctx, p) => {
    const slot = readSlot(UNAVAILABLE, ctx.state, p);
    await encodingReady(p.encoding);
    const row = (await readAccounts(ctx.ch, ctx.db, [p.pubkey], slot)).get(p.pubkey);
    if (row === undefined) return withContext(slot, ctx.apiVersion, null);
    const decimals = await readMintDecimals(ctx.ch, ctx.db, mintsToRead([row], p.encoding), slot);
    return withContext(slot, ctx.apiVersion, encodeAccount(row, p.encoding, p.dataSlice, decimals));
  },
  fromHead: (h, p) => {
    const slot = headReadSlot(UNAVAILABLE, h, p);
    if (slot === HEAD_MISS) return HEAD_MISS;
    const value = headUiAccounts(h, [p.pubkey], p, slot);
    return value === HEAD_MISS ? HEAD_MISS : withContext(slot, h.apiVersion, value[0]);
  },
});
