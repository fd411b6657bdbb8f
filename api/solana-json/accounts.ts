// Agave's UiAccount and its encodings (binary, base58, base64, base64+zstd, jsonParsed), with the config
// members that choose them (encoding, dataSlice): JSON-RPC's account methods and PubSub's account and
// program notifications write accounts through these. Pure, apart from loading zstd once.
import bs58 from 'bs58';
import { isTokenProgram } from '../../schemas/programs.js';
import { describeValue } from '../../platform/describe-value.js';
import { base58TooLarge, invalidParams } from './errors.js';
import { u64Json } from './json.js';
import { optionalObject, optionalString, parseContextConfig, parseUsize, type ParamsConfig, type ContextConfig } from './params.js';
import { parseTokenProgramAccount } from './token.js';
import { zstdCompress, zstdReady } from './zstd.js';

/** Agave's UiAccountEncoding; `binary` is the legacy one: data as a bare base58 string. */
export type AccountEncoding = 'binary' | 'base58' | 'base64' | 'base64+zstd' | 'jsonParsed';
const ENCODINGS: readonly AccountEncoding[] = ['binary', 'base58', 'base64', 'base64+zstd', 'jsonParsed'];
/** Agave's limit for base58 account data (after dataSlice). */
const MAX_BASE58_BYTES = 128;

export interface DataSlice {
  offset: number;
  length: number;
}

/** RpcAccountInfoConfig: encoding, dataSlice, commitment, minContextSlot. */
export interface AccountConfig extends ContextConfig {
  encoding: AccountEncoding;
  dataSlice: DataSlice | undefined;
}

/** Pure. `defaultEncoding` differs by method in Agave (binary for getAccountInfo, base64 for getMultipleAccounts). */
export function parseAccountConfig(config: ParamsConfig, defaultEncoding: AccountEncoding): AccountConfig {
  return { encoding: parseEncoding(config, defaultEncoding), dataSlice: parseDataSlice(config), ...parseContextConfig(config) };
}

/** Pure: `config.encoding`, one of `allowed` (getProgramAccounts has no legacy `binary`). */
export function parseEncoding<E extends AccountEncoding>(
  config: ParamsConfig,
  defaultEncoding: E,
  allowed: readonly E[] = ENCODINGS as readonly E[],
): E {
  const enc = optionalString(config, 'encoding') ?? defaultEncoding;
  if (!(allowed as readonly string[]).includes(enc)) {
    throw invalidParams(`encoding: expected one of ${allowed.join(', ')}, got ${describeValue(enc)}`);
  }
  return enc as E;
}

/** Pure: `config.dataSlice`, if given. */
export function parseDataSlice(config: ParamsConfig): DataSlice | undefined {
  const slice = optionalObject(config, 'dataSlice');
  return slice === undefined
    ? undefined
    : { offset: parseUsize(slice.offset, 'dataSlice.offset'), length: parseUsize(slice.length, 'dataSlice.length') };
}

/** An account as the views store it (account_writes): u64s as ClickHouse's quoted digits, data as base64. */
export interface AccountRow {
  pubkey: string;
  owner: string;
  lamports: string;
  executable: boolean | number;
  rent_epoch: string;
  space: number;
  data: string;
}

/** The mint a token account names (bytes 0..32), for looking up decimals before parsing. */
const tokenAccountMint = (row: AccountRow): string | undefined => {
  if (!isTokenProgram(row.owner) || row.space < 32) return undefined;
  return bs58.encode(Buffer.from(row.data, 'base64').subarray(0, 32));
};

/** Mints to read before `encodeAccount` can parse these rows as jsonParsed. */
export function mintsToRead(rows: Iterable<AccountRow>, encoding: AccountEncoding): string[] {
  if (encoding !== 'jsonParsed') return [];
  const mints: string[] = [];
  for (const r of rows) {
    const m = tokenAccountMint(r);
    if (m !== undefined) mints.push(m);
  }
  return mints;
}

/** Call before encodeAccount when the encoding is base64+zstd. */
export const encodingReady = async (encoding: AccountEncoding): Promise<void> => {
  if (encoding === 'base64+zstd') await zstdReady();
};

/**
 * Pure: Agave's UiAccount. jsonParsed parses token-program data (token accounts need their mint's decimals
 * in `decimals`); anything it cannot parse falls back to base64 of the (sliced) data, as Agave does.
 * `binary`/`base58` data over 128 bytes after slicing is Agave's -32600.
 */
export function encodeAccount(
  r: AccountRow,
  encoding: AccountEncoding,
  slice: DataSlice | undefined,
  decimals?: ReadonlyMap<string, number>,
): unknown {
  const parsed =
    encoding === 'jsonParsed' && isTokenProgram(r.owner)
      ? parseTokenProgramAccount(Buffer.from(r.data, 'base64'), r.owner, decimalsFor(r, decimals))
      : undefined;
  return uiAccount(r, parsed ?? encodeAccountData(r.data, encoding, slice));
}

/**
 * Pure: stored account data (base64) in `encoding`, without parsing (jsonParsed gives base64).
 * `binary`/`base58` data over 128 bytes after slicing is Agave's -32600.
 */
export function encodeAccountData(base64: string, encoding: AccountEncoding, slice: DataSlice | undefined): unknown {
  if ((encoding === 'base64' || encoding === 'jsonParsed') && slice === undefined) return [base64, 'base64'];
  let bytes: Uint8Array = Buffer.from(base64, 'base64');
  if (slice !== undefined)
    bytes = bytes.subarray(Math.min(slice.offset, bytes.length), Math.min(slice.offset + slice.length, bytes.length));
  if (encoding === 'binary' || encoding === 'base58') {
    if (bytes.length > MAX_BASE58_BYTES) throw base58TooLarge();
    return encoding === 'binary' ? bs58.encode(bytes) : [bs58.encode(bytes), 'base58'];
  }
  if (encoding === 'base64+zstd') return [Buffer.from(zstdCompress(bytes)).toString('base64'), 'base64+zstd'];
  return [Buffer.from(bytes).toString('base64'), 'base64'];
}

/**
 * Pure: `{"pubkey":…,"account":<UiAccount>}` as JSON text, exactly what toJson writes for
 * `{pubkey, account: uiAccount(r, data)}` (accounts.unit.test.ts), for pages and streams of many accounts.
 * Written as a template: through toJson every rentEpoch of u64::MAX (most accounts) is a RawJson marker swapped
 * back by a pass over the whole text, and JSON.stringify per field is several times this template's cost on a page
 * of 1,000 (issue 21, bench/README.md). Strings are checked to need no escaping (base58, base64: they never
 * do) and go through JSON.stringify otherwise; u64s are ClickHouse's digits.
 */
export function keyedAccountJson(r: AccountRow, data: unknown): string {
  return (
    `{"pubkey":${jsonString(r.pubkey)},"account":{"lamports":${u64Text(r.lamports)},"data":${dataJson(data)},` +
    `"owner":${jsonString(r.owner)},"executable":${r.executable ? 'true' : 'false'},"rentEpoch":${u64Text(r.rent_epoch)},` +
    `"space":${Number(r.space)}}}`
  );
}

const CANONICAL_DIGITS = /^(0|[1-9][0-9]*)$/;
// Characters JSON writes as they are in a string; base58 and base64 use nothing else.
const PLAIN_TEXT = /^[A-Za-z0-9+/=_.-]*$/;

/** A u64 cell as JSON number text: ClickHouse's canonical digits as they are, anything else through BigInt. */
const u64Text = (v: string | number): string => (typeof v === 'string' && CANONICAL_DIGITS.test(v) ? v : BigInt(v).toString());

const jsonString = (s: string): string => (PLAIN_TEXT.test(s) ? `"${s}"` : JSON.stringify(s));

/** encodeAccountData's result: a string, or [text, encoding]. */
const dataJson = (d: unknown): string =>
  Array.isArray(d) && d.length === 2 && typeof d[0] === 'string' && typeof d[1] === 'string'
    ? `[${jsonString(d[0])},${jsonString(d[1])}]`
    : typeof d === 'string'
      ? jsonString(d)
      : JSON.stringify(d);

/** Pure: Agave's UiAccount around already encoded `data`. */
export function uiAccount(r: AccountRow, data: unknown): unknown {
  return {
    lamports: u64Json(BigInt(r.lamports)),
    data,
    owner: r.owner,
    executable: Boolean(r.executable),
    rentEpoch: u64Json(BigInt(r.rent_epoch)),
    space: Number(r.space),
  };
}

function decimalsFor(r: AccountRow, decimals: ReadonlyMap<string, number> | undefined): number | undefined {
  const mint = tokenAccountMint(r);
  return mint === undefined ? undefined : decimals?.get(mint);
}
