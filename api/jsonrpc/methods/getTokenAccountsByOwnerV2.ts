// getTokenAccountsByOwnerV2 (Helius, Alchemy; spec/provider-methods.md 2): getTokenAccountsByOwner's params and
// elements a page at a time, with getProgramAccountsV2's paging rules (pubkey byte order, base-58 paginationKey of
// the last pubkey examined, inclusive changedSinceSlot over the newest write at or below the context slot, empty
// page = end). Shapes as the current Helius page says: without context `{value: [...], paginationKey,
// totalResults}`, with `withContext: true` `{context, value: {accounts, paginationKey, totalResults}}` (the shape
// helius-sdk's getAllTokenAccountsByOwner reads). A wallet's token accounts are few, so the candidates come from
// the wallet index (token_accounts_by_owner) and totalResults, the count of the whole filtered set, is cheap.
import bs58 from 'bs58';
import type { AccountRow } from '../../solana-json/accounts.js';
import { parsePageConfig, type PageConfig } from '../../solana-json/page-config.js';
import { optionalBool } from '../../solana-json/params.js';
import { queryRows } from '../../views/query.js';
import { defineMethod, withContext } from '../method.js';
import {
  parseTokenAccountsByOwnerParams,
  shapeTokenAccounts,
  tokenAccountsScope,
  tokenAccountsSql,
  UNAVAILABLE,
  type GetTokenAccountsByOwnerParams,
} from './getTokenAccountsByOwner.js';

export interface GetTokenAccountsByOwnerV2Params extends GetTokenAccountsByOwnerParams {
  withContext: boolean;
  page: PageConfig;
}

export function parseGetTokenAccountsByOwnerV2(params: unknown): GetTokenAccountsByOwnerV2Params {
  const { parsed, config } = parseTokenAccountsByOwnerParams(params, {
    default: 'base64',
    allowed: ['base58', 'base64', 'base64+zstd', 'jsonParsed'],
  });
  return { ...parsed, withContext: optionalBool(config, 'withContext') ?? false, page: parsePageConfig(config) };
}

const PAGE_SQL = tokenAccountsSql(true);
const TOTAL_SQL = `SELECT count() AS n FROM (${tokenAccountsSql(true)})`;

export const getTokenAccountsByOwnerV2 = defineMethod<GetTokenAccountsByOwnerV2Params>({
  name: 'getTokenAccountsByOwnerV2',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetTokenAccountsByOwnerV2,
  run: async (ctx, p) => {
    const { slot, program, mint } = await tokenAccountsScope(ctx, p);
    const base = { db: ctx.db, wallet: p.owner, program, mint, slot, since: p.page.changedSinceSlot ?? 0n };
    const hex = (k: Uint8Array | undefined) => (k === undefined ? '' : Buffer.from(k).toString('hex'));
    // Rows jsonParsed cannot parse are left out after the read: a page emptied that way is followed by the next.
    let after = p.page.after;
    let accounts: unknown[];
    let last: string | undefined;
    for (;;) {
      const rows = await queryRows<AccountRow>(ctx.ch, PAGE_SQL, { ...base, after: hex(after), limit: p.page.limit });
      last = rows.length === 0 ? undefined : rows[rows.length - 1]!.pubkey;
      accounts = await shapeTokenAccounts(ctx, p, rows, slot);
      if (accounts.length > 0 || rows.length < p.page.limit) break;
      after = bs58.decode(last!);
    }
    const [total] = await queryRows<{ n: string }>(ctx.ch, TOTAL_SQL, { ...base, after: '', limit: 2 ** 32 - 1 });
    const paginationKey = accounts.length === 0 ? null : (last ?? null);
    const totalResults = Number(total?.n ?? 0);
    return p.withContext
      ? withContext(slot, ctx.apiVersion, { accounts, paginationKey, totalResults })
      : { value: accounts, paginationKey, totalResults };
  },
});
