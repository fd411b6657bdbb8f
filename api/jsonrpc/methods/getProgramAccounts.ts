// getProgramAccounts: the latest state at the commitment (or as of the `slot` asked for: ../as-of.ts) of every
// account whose owner is the program, in pubkey
// byte order, streamed: rows are read from the owner-keyed views (api/views/program-accounts.ts) and written to
// the client chunk by chunk, so the api holds one chunk, not the answer, and the first bytes leave before the last
// row is read. An answer over the operator's limit (rpcMaxProgramAccounts) is refused before any byte is sent,
// pointing to getProgramAccountsV2.
import { encodeAccountData, keyedAccountJson, parseEncoding, uiAccount, type AccountRow } from '../../solana-json/accounts.js';
import { programAccountsOverLimit } from '../../solana-json/errors.js';
import { parseAsOf, readSlot, type AsOf } from '../as-of.js';
import { contextWrapping, defineMethod, streamedJsonArray } from '../method.js';
import { parseConfig, parsePubkey, positional, type ParamsConfig } from '../../solana-json/params.js';
import { parseProgramAccountsConfig, type ProgramAccountsConfig } from '../../solana-json/program-accounts-config.js';
import { countProgramAccountsUpTo, streamProgramAccounts, type ProgramAccountsRead } from '../../views/program-accounts.js';
import type { MethodContext } from '../method.js';
import { zstdReady } from '../../solana-json/zstd.js';

export type Encoding = 'base58' | 'base64' | 'base64+zstd' | 'jsonParsed';
const ENCODINGS: readonly Encoding[] = ['base58', 'base64', 'base64+zstd', 'jsonParsed'];

export interface GetProgramAccountsParams extends ProgramAccountsConfig, AsOf {
  program: string;
  encoding: Encoding;
}

/**
 * The params getProgramAccounts and getProgramAccountsV2 share (V2 adds its paging members): one parser, so a
 * config member both take is added in one place.
 */
export function parseProgramAccountsParams(params: unknown): { parsed: GetProgramAccountsParams; config: ParamsConfig } {
  const p = positional(params, 1, 2);
  const program = parsePubkey(p[0], 'programId');
  const config = parseConfig(p[1], 'config');
  // The encoding first, then the rest of the config (the order the errors of one bad request come in).
  const encoding = parseEncoding(config, 'base64', ENCODINGS);
  return { parsed: { program, encoding, ...parseProgramAccountsConfig(config), ...parseAsOf(config) }, config };
}

export const parseGetProgramAccounts = (params: unknown): GetProgramAccountsParams => parseProgramAccountsParams(params).parsed;

/** Pure: one stored row -> Agave's keyed account, data in the requested encoding (jsonParsed is not parsed here). */
export function shapeAccount(r: AccountRow, encoding: Encoding, slice: GetProgramAccountsParams['dataSlice']): unknown {
  return { pubkey: r.pubkey, account: uiAccount(r, encodeAccountData(r.data, encoding, slice)) };
}

/** Pure: the same accounts as shapeAccount's, as the JSON text of their list's items (comma-separated, no brackets). */
export function accountItemsJson(rows: readonly AccountRow[], encoding: Encoding, slice: GetProgramAccountsParams['dataSlice']): string {
  let text = '';
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    text += (i === 0 ? '' : ',') + keyedAccountJson(r, encodeAccountData(r.data, encoding, slice));
  }
  return text;
}

export const UNAVAILABLE = 'Account information unavailable';

/** The read slot (the context slot, or the as-of slot asked for) and the read of the views both methods make. */
export async function programAccountsRead(
  ctx: MethodContext,
  p: GetProgramAccountsParams,
  changedSinceSlot?: bigint,
): Promise<ProgramAccountsRead> {
  const slot = readSlot(UNAVAILABLE, ctx.state, p);
  if (p.encoding === 'base64+zstd') await zstdReady();
  return { db: ctx.db, program: p.program, slot, filters: p.filters, changedSinceSlot };
}

export const getProgramAccounts = defineMethod<GetProgramAccountsParams>({
  name: 'getProgramAccounts',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetProgramAccounts,
  run: async (ctx, p) => {
    const read = await programAccountsRead(ctx, p);
    const max = ctx.limits.maxProgramAccounts;
    if ((await countProgramAccountsUpTo(ctx.ch, read, max)) > max) throw programAccountsOverLimit(max);
    const { head, tail } = p.withContext ? contextWrapping(read.slot, ctx.apiVersion) : { head: '', tail: '' };
    const shaped = async function* () {
      for await (const rows of streamProgramAccounts(ctx.ch, read)) yield accountItemsJson(rows, p.encoding, p.dataSlice);
    };
    return streamedJsonArray(shaped(), head, tail);
  },
});
