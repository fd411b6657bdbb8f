// getProgramAccounts: the latest state at the commitment (or as of the `slot` asked for: ../as-of.ts) of
// every account whose owner is the program. Candidates come from account_owners (every pubkey the owner ever
// had); the newest write at or below the read slot decides: closed (0 lamports) and moved (owner changed)
// accounts drop out there.
import { encodeAccountData, parseEncoding, uiAccount, type AccountRow } from '../../solana-json/accounts.js';
import { newestWritesSql, parseAsOf, readSlot, type AsOf } from '../as-of.js';
import { defineMethod, withContext } from '../method.js';
import { parseConfig, parsePubkey, positional } from '../../solana-json/params.js';
import {
  parseProgramAccountsConfig,
  type ProgramAccountsConfig,
  type ProgramAccountsFilter,
} from '../../solana-json/program-accounts-config.js';
import { queryRows, type QueryParams } from '../../views/query.js';
import { zstdReady } from '../../solana-json/zstd.js';

export type Encoding = 'base58' | 'base64' | 'base64+zstd' | 'jsonParsed';
const ENCODINGS: readonly Encoding[] = ['base58', 'base64', 'base64+zstd', 'jsonParsed'];

export interface GetProgramAccountsParams extends ProgramAccountsConfig, AsOf {
  program: string;
  encoding: Encoding;
}

export function parseGetProgramAccounts(params: unknown): GetProgramAccountsParams {
  const p = positional(params, 1, 2);
  const program = parsePubkey(p[0], 'programId');
  const config = parseConfig(p[1], 'config');
  // The encoding first, then the rest of the config (the order the errors of one bad request come in).
  const encoding = parseEncoding(config, 'base64', ENCODINGS);
  return { program, encoding, ...parseProgramAccountsConfig(config), ...parseAsOf(config) };
}

// The newest write per pubkey at or below the read slot (../as-of.ts), kept while the program owns it.
const ACCOUNTS_SQL_HEAD = `
SELECT pubkey, owner, lamports, executable, rent_epoch, space, data
FROM (${newestWritesSql('(SELECT pubkey FROM {db:Identifier}.account_owners WHERE owner = {program:String})')}
)
WHERE owner = {program:String} AND lamports > 0`;

/**
 * The statement for a filter list. Its shape depends only on the number and kinds of filters; every value
 * is a placeholder. memcmp compares decoded data and, as Agave, fails when offset plus length runs past the end.
 */
export function programAccountsQuery(filters: readonly ProgramAccountsFilter[]): {
  sql: string;
  params: (p: { db: string; program: string; slot: bigint }) => QueryParams;
} {
  const conds: string[] = [];
  const values: QueryParams = {};
  filters.forEach((f, i) => {
    if (f.kind === 'dataSize') {
      conds.push(`space = {ds${i}:UInt64}`);
      values[`ds${i}`] = f.size;
    } else {
      conds.push(
        `length(tryBase64Decode(data)) >= {mo${i}:UInt64} + {ml${i}:UInt64}` +
          ` AND substring(tryBase64Decode(data), {mo${i}:UInt64} + 1, {ml${i}:UInt64}) = unhex({mb${i}:String})`,
      );
      values[`mo${i}`] = f.offset;
      values[`ml${i}`] = f.bytes.length;
      values[`mb${i}`] = Buffer.from(f.bytes).toString('hex');
    }
  });
  const sql = ACCOUNTS_SQL_HEAD + conds.map((c) => `\n  AND ${c}`).join('') + '\nORDER BY base58Decode(pubkey)';
  return { sql, params: (p) => ({ ...p, ...values }) };
}

type Row = AccountRow;

/** Pure: one stored row -> Agave's keyed account, data in the requested encoding (jsonParsed is not parsed here). */
export function shapeAccount(r: Row, encoding: Encoding, slice: GetProgramAccountsParams['dataSlice']): unknown {
  return { pubkey: r.pubkey, account: uiAccount(r, encodeAccountData(r.data, encoding, slice)) };
}

const UNAVAILABLE = 'Account information unavailable';

export const getProgramAccounts = defineMethod<GetProgramAccountsParams>({
  name: 'getProgramAccounts',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetProgramAccounts,
  run: async (ctx, p) => {
    const slot = readSlot(UNAVAILABLE, ctx.state, p);
    if (p.encoding === 'base64+zstd') await zstdReady();
    const q = programAccountsQuery(p.filters);
    const rows = await queryRows<Row>(ctx.ch, q.sql, q.params({ db: ctx.db, program: p.program, slot }));
    const value = rows.map((r) => shapeAccount(r, p.encoding, p.dataSlice));
    return p.withContext ? withContext(slot, ctx.apiVersion, value) : value;
  },
});
