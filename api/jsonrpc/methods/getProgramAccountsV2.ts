// getProgramAccountsV2 (Helius, Alchemy; spec/provider-methods.md 1): getProgramAccounts' params, encodings and
// filters, a page at a time. Pages are in pubkey byte order; paginationKey is the base-58 pubkey the page ended
// at and the next page holds only greater ones (key-set: no account twice, none that existed for the whole walk
// missed, however the chain moves between pages; each page has its own context slot). A page is short when the
// ownership check drops candidates, empty (paginationKey null) only at the end. changedSinceSlot is inclusive over
// the newest write at or below the context slot. totalResults is left out: counting a program's accounts is a
// scan of all of them, the cost the paging avoids.
import { parsePageConfig, type PageConfig } from '../../solana-json/page-config.js';
import { programAccountsPage } from '../../views/program-accounts.js';
import { RawJson } from '../../solana-json/json.js';
import { defineMethod, withContext } from '../method.js';
import {
  parseProgramAccountsParams,
  accountItemsJson,
  programAccountsRead,
  UNAVAILABLE,
  type GetProgramAccountsParams,
} from './getProgramAccounts.js';

export interface GetProgramAccountsV2Params extends GetProgramAccountsParams {
  page: PageConfig;
}

export function parseGetProgramAccountsV2(params: unknown): GetProgramAccountsV2Params {
  const { parsed, config } = parseProgramAccountsParams(params);
  return { ...parsed, page: parsePageConfig(config) };
}

export const getProgramAccountsV2 = defineMethod<GetProgramAccountsV2Params>({
  name: 'getProgramAccountsV2',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetProgramAccountsV2,
  run: async (ctx, p) => {
    const read = await programAccountsRead(ctx, p, p.page.changedSinceSlot);
    const page = await programAccountsPage(ctx.ch, read, p.page.after, p.page.limit);
    const value = {
      // Written as text (keyedAccountJson): the page's accounts are most of the answer's cost past the SQL.
      accounts: new RawJson(`[${accountItemsJson(page.rows, p.encoding, p.dataSlice)}]`),
      paginationKey: page.rows.length === 0 ? null : (page.last ?? null),
    };
    return p.withContext ? withContext(read.slot, ctx.apiVersion, value) : value;
  },
});
