// getProgramAccounts: the latest state at the commitment of every account whose owner is the program.
// Candidates come from account_owners (every pubkey the owner ever had); the newest write at or below
// the context slot decides: closed (0 lamports) and moved (owner changed) accounts drop out there.
import { decodeBase58, decodeBase64 } from '../../../schemas/decode-input.js';
import { encodeAccountData, parseDataSlice, parseEncoding, uiAccount, type AccountRow } from '../../solana-json/accounts.js';
import { describeValue } from '../../../platform/describe-value.js';
import { invalidParams } from '../../solana-json/errors.js';
import { contextSlot, defineMethod, withContext } from '../method.js';
import {
  optionalBool,
  parseConfig,
  parseContextConfig,
  parsePubkey,
  parseU64,
  positional,
  type Config,
  type ContextConfig,
} from '../../solana-json/params.js';
import { queryRows, type QueryParams } from '../../views/query.js';
import { zstdReady } from '../../solana-json/zstd.js';

export type Encoding = 'base58' | 'base64' | 'base64+zstd' | 'jsonParsed';
const ENCODINGS: readonly Encoding[] = ['base58', 'base64', 'base64+zstd', 'jsonParsed'];

export const MAX_FILTERS = 4;
export const MAX_MEMCMP_BYTES = 128;
const MAX_MEMCMP_BASE58_CHARS = 175;
const MAX_MEMCMP_BASE64_CHARS = 172;

export type ProgramAccountsFilter = { kind: 'dataSize'; size: bigint } | { kind: 'memcmp'; offset: bigint; bytes: Uint8Array };

export interface GetProgramAccountsParams extends ContextConfig {
  program: string;
  encoding: Encoding;
  dataSlice: { offset: number; length: number } | undefined;
  filters: ProgramAccountsFilter[];
  withContext: boolean;
}

function parseMemcmp(m: Config, where: string): ProgramAccountsFilter {
  if (m.offset === undefined || m.offset === null) throw invalidParams(`${where}.offset: missing`);
  const offset = parseU64(m.offset, `${where}.offset`);
  if (typeof m.bytes !== 'string') throw invalidParams(`${where}.bytes: expected a string`);
  const enc = m.encoding ?? 'base58';
  if (enc !== 'base58' && enc !== 'base64') {
    throw invalidParams(`${where}.encoding: expected base58 or base64, got ${describeValue(enc)}`);
  }
  const maxChars = enc === 'base58' ? MAX_MEMCMP_BASE58_CHARS : MAX_MEMCMP_BASE64_CHARS;
  if (m.bytes.length > maxChars) {
    throw invalidParams(`${where}.bytes: ${m.bytes.length} ${enc} characters; at most ${maxChars} (${MAX_MEMCMP_BYTES} bytes)`);
  }
  const d = enc === 'base58' ? decodeBase58(m.bytes) : decodeBase64(m.bytes);
  if (!d.ok) throw invalidParams(`${where}.bytes: ${d.reason}`);
  if (d.bytes.length > MAX_MEMCMP_BYTES) {
    throw invalidParams(`${where}.bytes: decodes to ${d.bytes.length} bytes; at most ${MAX_MEMCMP_BYTES}`);
  }
  return { kind: 'memcmp', offset, bytes: d.bytes };
}

function parseFilter(f: unknown, i: number): ProgramAccountsFilter {
  const where = `filters[${i}]`;
  if (typeof f !== 'object' || f === null || Array.isArray(f)) throw invalidParams(`${where}: expected an object`);
  const o = f as Config;
  const keys = Object.keys(o);
  if (keys.length !== 1) throw invalidParams(`${where}: expected exactly one of dataSize or memcmp, got ${keys.length} members`);
  if (keys[0] === 'dataSize') return { kind: 'dataSize', size: parseU64(o.dataSize, `${where}.dataSize`) };
  if (keys[0] === 'memcmp') {
    const m = o.memcmp;
    if (typeof m !== 'object' || m === null || Array.isArray(m)) throw invalidParams(`${where}.memcmp: expected an object`);
    return parseMemcmp(m as Config, `${where}.memcmp`);
  }
  throw invalidParams(`${where}: unknown filter ${describeValue(keys[0])}; expected dataSize or memcmp`);
}

export function parseGetProgramAccounts(params: unknown): GetProgramAccountsParams {
  const p = positional(params, 1, 2);
  const program = parsePubkey(p[0], 'programId');
  const config = parseConfig(p[1], 'config');
  const encoding = parseEncoding(config, 'base64', ENCODINGS);
  const dataSlice = parseDataSlice(config);
  let filters: ProgramAccountsFilter[] = [];
  if (config.filters !== undefined && config.filters !== null) {
    if (!Array.isArray(config.filters)) throw invalidParams('filters: expected an array');
    if (config.filters.length > MAX_FILTERS) {
      throw invalidParams(`filters: Too many filters provided; max ${MAX_FILTERS} (got ${config.filters.length})`);
    }
    filters = config.filters.map(parseFilter);
  }
  return {
    program,
    encoding,
    dataSlice,
    filters,
    withContext: optionalBool(config, 'withContext') ?? false,
    ...parseContextConfig(config),
  };
}

// The newest write per pubkey at or below the context slot: rows are (pubkey, slot)-ordered, so
// ORDER BY ... LIMIT 1 BY streams in key order (several times faster than argMax over a GROUP BY here);
// write_version breaks ties within a slot, as the ReplacingMergeTree version does after a merge.
const ACCOUNTS_SQL_HEAD = `
SELECT pubkey, owner, lamports, executable, rent_epoch, space, data
FROM (
  SELECT pubkey, owner, lamports, executable, rent_epoch, space, data
  FROM {db:Identifier}.account_writes
  WHERE pubkey IN (SELECT pubkey FROM {db:Identifier}.account_owners WHERE owner = {program:String})
    AND slot <= {slot:UInt64}
  ORDER BY pubkey, slot DESC, write_version DESC
  LIMIT 1 BY pubkey
)
WHERE owner = {program:String} AND lamports > 0`;

/**
 * The statement for a filter list. Its shape depends only on the number and kinds of filters; every value
 * is a placeholder. memcmp compares decoded data and, as Agave, fails when offset plus length runs past the end.
 */
export function programAccountsQuery(filters: readonly ProgramAccountsFilter[]): { sql: string; params: (p: { db: string; program: string; slot: bigint }) => QueryParams } {
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
    const slot = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment, p.minContextSlot);
    if (p.encoding === 'base64+zstd') await zstdReady();
    const q = programAccountsQuery(p.filters);
    const rows = await queryRows<Row>(ctx.ch, q.sql, q.params({ db: ctx.db, program: p.program, slot }));
    const value = rows.map((r) => shapeAccount(r, p.encoding, p.dataSlice));
    return p.withContext ? withContext(slot, ctx.apiVersion, value) : value;
  },
});
