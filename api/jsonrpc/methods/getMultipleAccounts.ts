// getMultipleAccounts: up to 100 accounts at one commitment, in request order, null for missing ones.
// Agave checks the count before the keys, and defaults to base64 here. `slot`: as of that slot (../as-of.ts).
// When every one was written in the head cache's slots, they are read from memory (../head-accounts.ts).
import { encodeAccount, encodingReady, mintsToRead, parseAccountConfig, type AccountConfig } from '../../solana-json/accounts.js';
import { readAccounts, readMintDecimals } from '../account-state.js';
import { invalidParam, invalidParams } from '../../solana-json/errors.js';
import { parseAsOf, readSlot, type AsOf } from '../as-of.js';
import { HEAD_MISS } from '../head.js';
import { headReadSlot, headUiAccounts } from '../head-accounts.js';
import { defineMethod, withContext } from '../method.js';
import { parseConfig, parsePubkey, positional } from '../../solana-json/params.js';

export const MAX_MULTIPLE_ACCOUNTS = 100;

export interface GetMultipleAccountsParams extends AccountConfig, AsOf {
  pubkeys: string[];
}

export function parseGetMultipleAccounts(params: unknown): GetMultipleAccountsParams {
  const p = positional(params, 1, 2);
  if (!Array.isArray(p[0])) throw invalidParams('pubkeys: expected an array of base-58 public keys');
  if (p[0].length > MAX_MULTIPLE_ACCOUNTS) throw invalidParam(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
  const pubkeys = p[0].map((k, i) => parsePubkey(k, `pubkeys[${i}]`));
  const config = parseConfig(p[1], 'config');
  return { pubkeys, ...parseAccountConfig(config, 'base64'), ...parseAsOf(config) };
}

const UNAVAILABLE = 'Account information unavailable';

export const getMultipleAccounts = defineMethod<GetMultipleAccountsParams>({
  name: 'getMultipleAccounts',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetMultipleAccounts,
  run: async (ctx, p) => {
    const slot = readSlot(UNAVAILABLE, ctx.state, p);
    await encodingReady(p.encoding);
    const rows = await readAccounts(ctx.ch, ctx.db, p.pubkeys, slot);
    const decimals = await readMintDecimals(ctx.ch, ctx.db, mintsToRead(rows.values(), p.encoding), slot);
    const value = p.pubkeys.map((k) => {
      const r = rows.get(k);
      return r === undefined ? null : encodeAccount(r, p.encoding, p.dataSlice, decimals);
    });
    return withContext(slot, ctx.apiVersion, value);
  },
  fromHead: (h, p) => {
    const slot = headReadSlot(UNAVAILABLE, h, p);
    if (slot === HEAD_MISS) return HEAD_MISS;
    const value = headUiAccounts(h, p.pubkeys, p, slot);
    return value === HEAD_MISS ? HEAD_MISS : withContext(slot, h.apiVersion, value);
  },
});
