// Agave's RpcProgramAccountsConfig without its encoding: the filters (at most 4, `dataSize` / `memcmp` with
// Agave's limits), dataSlice, withContext, commitment and minContextSlot. getProgramAccounts and
// programSubscribe take the same config in Agave (rpc_pubsub.rs's program_subscribe reads an
// RpcProgramAccountsConfig too); only the encoding's default and choices differ, so each parses that itself.
// Pure; throws RpcError -32602 naming the member.
import { decodeBase58, decodeBase64 } from '../../schemas/decode-input.js';
import { describeValue } from '../../platform/describe-value.js';
import { parseDataSlice, type DataSlice } from './accounts.js';
import { invalidParams } from './errors.js';
import { optionalBool, parseContextConfig, parseU64, type ParamsConfig, type ContextConfig } from './params.js';

export const MAX_FILTERS = 4;
export const MAX_MEMCMP_BYTES = 128;
const MAX_MEMCMP_BASE58_CHARS = 175;
const MAX_MEMCMP_BASE64_CHARS = 172;

export type ProgramAccountsFilter = { kind: 'dataSize'; size: bigint } | { kind: 'memcmp'; offset: bigint; bytes: Uint8Array };

export interface ProgramAccountsConfig extends ContextConfig {
  dataSlice: DataSlice | undefined;
  filters: ProgramAccountsFilter[];
  withContext: boolean;
}

function parseMemcmp(m: ParamsConfig, where: string): ProgramAccountsFilter {
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
  const o = f as ParamsConfig;
  const keys = Object.keys(o);
  if (keys.length !== 1) throw invalidParams(`${where}: expected exactly one of dataSize or memcmp, got ${keys.length} members`);
  if (keys[0] === 'dataSize') return { kind: 'dataSize', size: parseU64(o.dataSize, `${where}.dataSize`) };
  if (keys[0] === 'memcmp') {
    const m = o.memcmp;
    if (typeof m !== 'object' || m === null || Array.isArray(m)) throw invalidParams(`${where}.memcmp: expected an object`);
    return parseMemcmp(m as ParamsConfig, `${where}.memcmp`);
  }
  throw invalidParams(`${where}: unknown filter ${describeValue(keys[0])}; expected dataSize or memcmp`);
}

/** The config's members other than `encoding`, checked in this order: dataSlice, filters, withContext, commitment, minContextSlot. */
export function parseProgramAccountsConfig(config: ParamsConfig): ProgramAccountsConfig {
  const dataSlice = parseDataSlice(config);
  let filters: ProgramAccountsFilter[] = [];
  if (config.filters !== undefined && config.filters !== null) {
    if (!Array.isArray(config.filters)) throw invalidParams('filters: expected an array');
    if (config.filters.length > MAX_FILTERS) {
      throw invalidParams(`filters: Too many filters provided; max ${MAX_FILTERS} (got ${config.filters.length})`);
    }
    filters = config.filters.map(parseFilter);
  }
  return { dataSlice, filters, withContext: optionalBool(config, 'withContext') ?? false, ...parseContextConfig(config) };
}
