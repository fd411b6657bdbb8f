// Pure: the params of the block and transaction streams of PubSub, with their owners' rules.
// - blockSubscribe (Agave's rpc_pubsub.rs, RpcBlockSubscribeConfig): filter `"all"` or
//   `{"mentionsAccountOrProgram": <pubkey>}` (a bad key: `Invalid Request: Invalid mentions_account_or_program
//   provided`); commitment default finalized, below confirmed refused (check_is_at_least_confirmed); encoding
//   default base64; transactionDetails default full; showRewards default false; maxSupportedTransactionVersion
//   optional. Unknown config members are ignored, as Agave's serde structs do.
// - transactionSubscribe (Helius's enhanced WebSocket): filter {vote, failed, signature, accountInclude,
//   accountExclude, accountRequired}, up to 50,000 addresses in each list; options {commitment, encoding
//   (base58, base64, jsonParsed; json too), transactionDetails, showRewards, maxSupportedTransactionVersion}.
//   Unknown members of either object are refused naming them: a misspelt `accountsInclude` would otherwise
//   subscribe to every transaction of the chain.
// Every function throws RpcError; none does I/O.
import { decodeBase58Exact } from '../../schemas/decode-input.js';
import { describeValue } from '../../platform/describe-value.js';
import type { PubSubRequest } from '../filters/from-pubsub.js';
import { parseTransactionDetails, type BlockOptions } from '../solana-json/block.js';
import { invalidParam, invalidParams } from '../solana-json/errors.js';
import {
  optionalBool,
  parseCommitment,
  parseConfig,
  parseConfirmedCommitment,
  positional,
  type ParamsConfig,
} from '../solana-json/params.js';
import { parseMaxSupportedVersion, parseTransactionEncoding } from '../solana-json/transactions.js';

/** Helius's bound on each of transactionSubscribe's address lists. */
export const MAX_TRANSACTION_FILTER_KEYS = 50_000;

export interface ParsedStream {
  readonly request: PubSubRequest;
  readonly options: BlockOptions;
}

function blockOptions(config: ParamsConfig, defaultEncoding: 'base64' | 'json'): BlockOptions {
  return {
    encoding: config.encoding === undefined || config.encoding === null ? defaultEncoding : parseTransactionEncoding(config.encoding),
    transactionDetails: parseTransactionDetails(config.transactionDetails),
    rewards: optionalBool(config, 'showRewards') ?? false,
    maxSupportedVersion: parseMaxSupportedVersion(config.maxSupportedTransactionVersion),
  };
}

export function parseBlockSubscribe(params: unknown): ParsedStream {
  const p = positional(params, 1, 2);
  const config = parseConfig(p[1], 'config');
  const commitment = parseConfirmedCommitment(config);
  const options = blockOptions(config, 'base64');
  const f = p[0];
  if (f === 'all') return { request: { kind: 'block', mentions: undefined, commitment }, options };
  if (typeof f !== 'object' || f === null || Array.isArray(f) || !Object.hasOwn(f, 'mentionsAccountOrProgram')) {
    throw invalidParams(`filter: expected "all" or {"mentionsAccountOrProgram": <address>}, got ${describeValue(f)}`);
  }
  const key = (f as ParamsConfig).mentionsAccountOrProgram;
  if (typeof key !== 'string')
    throw invalidParams(`filter.mentionsAccountOrProgram: expected a base-58 address string, got ${describeValue(key)}`);
  const d = decodeBase58Exact(key, 32);
  if (!d.ok) throw invalidParam('Invalid Request: Invalid mentions_account_or_program provided');
  return { request: { kind: 'block', mentions: d.bytes, commitment }, options };
}

const FILTER_MEMBERS = new Set(['vote', 'failed', 'signature', 'accountInclude', 'accountExclude', 'accountRequired']);
const OPTION_MEMBERS = new Set(['commitment', 'encoding', 'transactionDetails', 'showRewards', 'maxSupportedTransactionVersion']);
const TX_ENCODINGS = ['base58', 'base64', 'jsonParsed', 'json'];

function onlyKnown(o: ParamsConfig, known: ReadonlySet<string>, name: string): void {
  for (const k of Object.keys(o)) {
    if (!known.has(k)) throw invalidParams(`${name}: unknown member ${JSON.stringify(k)}; expected any of ${[...known].join(', ')}`);
  }
}

function keyList(o: ParamsConfig, member: string): Uint8Array[] {
  const v = o[member];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw invalidParams(`filter.${member}: expected an array of base-58 addresses, got ${describeValue(v)}`);
  if (v.length > MAX_TRANSACTION_FILTER_KEYS) {
    throw invalidParams(`filter.${member}: at most ${MAX_TRANSACTION_FILTER_KEYS} addresses, got ${v.length}`);
  }
  return v.map((k, i) => {
    const d = typeof k === 'string' ? decodeBase58Exact(k, 32) : undefined;
    if (d === undefined || !d.ok) throw invalidParams(`filter.${member}[${i}]: invalid address ${describeValue(k)}`);
    return d.bytes;
  });
}

export function parseTransactionSubscribe(params: unknown): ParsedStream {
  const p = positional(params, 1, 2);
  const f = p[0];
  if (typeof f !== 'object' || f === null || Array.isArray(f)) {
    throw invalidParams(
      `filter: expected an object of vote, failed, signature, accountInclude, accountExclude, accountRequired, got ${describeValue(f)}`,
    );
  }
  const filter = f as ParamsConfig;
  onlyKnown(filter, FILTER_MEMBERS, 'filter');
  const config = parseConfig(p[1], 'options');
  onlyKnown(config, OPTION_MEMBERS, 'options');
  if (config.encoding !== undefined && config.encoding !== null && !TX_ENCODINGS.includes(config.encoding as string)) {
    throw invalidParams(`options.encoding: expected one of ${TX_ENCODINGS.join(', ')}, got ${describeValue(config.encoding)}`);
  }
  let signature: Uint8Array | undefined;
  if (filter.signature !== undefined && filter.signature !== null) {
    const d = typeof filter.signature === 'string' ? decodeBase58Exact(filter.signature, 64) : undefined;
    if (d === undefined || !d.ok) throw invalidParams(`filter.signature: invalid signature ${describeValue(filter.signature)}`);
    signature = d.bytes;
  }
  return {
    request: {
      kind: 'transaction',
      vote: optionalBool(filter, 'vote'),
      failed: optionalBool(filter, 'failed'),
      signature,
      accountInclude: keyList(filter, 'accountInclude'),
      accountExclude: keyList(filter, 'accountExclude'),
      accountRequired: keyList(filter, 'accountRequired'),
      commitment: parseCommitment(config),
    },
    options: blockOptions(config, 'json'),
  };
}
