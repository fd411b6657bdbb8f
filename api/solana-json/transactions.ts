// Stored transactions (004_transaction_records.sql: the TransactionEvent protobuf) shaped as Agave's
// getTransaction / getBlock answers: EncodedTransactionWithStatusMeta in the encodings json, jsonParsed,
// base64, base58 (and the legacy `binary`), the `accounts` transaction details of getBlock, the
// maxSupportedTransactionVersion rule, and UiTransactionStatusMeta with Agave's members and omissions.
// Pure: event in, JSON value out.
import { TransactionEvent, type InnerInstructions, type Reward, type TokenBalance } from '../../schemas/codec.js';
import { base58 } from '../../schemas/base58.js';
import { asBuffer } from '../../schemas/bytes.js';
import { encodeTransactionWire } from '../../schemas/wire.js';
import { describeValue } from '../../platform/describe-value.js';
import { invalidParams, RpcError } from './errors.js';
import { parseInstruction } from './instructions.js';
import { errValue, u64Json } from './json.js';
import { parseConfig, type ParamsConfig } from './params.js';
import { storedUiTokenAmount } from './token.js';

export type TransactionEncoding = 'json' | 'jsonParsed' | 'base64' | 'base58' | 'binary';
export const TRANSACTION_ENCODINGS: readonly TransactionEncoding[] = ['json', 'jsonParsed', 'base64', 'base58', 'binary'];

export const UNSUPPORTED_TRANSACTION_VERSION = -32015;

/** Agave's RpcCustomError::UnsupportedTransactionVersion. */
export const unsupportedTransactionVersion = (version: number): RpcError =>
  new RpcError(
    UNSUPPORTED_TRANSACTION_VERSION,
    `Transaction version (${version}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${version}`,
  );

export const decodeBody = (base64: string): TransactionEvent => TransactionEvent.decode(Buffer.from(base64, 'base64'));

/** The message version: 'legacy', 0, or 1 (SIMD-0385). */
export function messageVersion(e: TransactionEvent): 'legacy' | number {
  if (e.version !== undefined) return e.version;
  return e.versioned ? 0 : 'legacy';
}

/**
 * Agave's validate_version: a legacy transaction has no `version` member when the client named no
 * maximum (old clients cannot read it); a versioned one (v0, v1) without a maximum, or above it, is -32015
 * naming its version.
 */
export function transactionVersion(e: TransactionEvent, maxSupported: number | undefined): 'legacy' | number | undefined {
  const version = messageVersion(e);
  if (version === 'legacy') return maxSupported === undefined ? undefined : 'legacy';
  if (maxSupported === undefined || version > maxSupported) throw unsupportedTransactionVersion(version);
  return version;
}

/** The transaction's wire bytes (legacy, v0 or v1), by the one wire codec (schemas/wire.ts). */
export const wireBytes = (e: TransactionEvent): Buffer => asBuffer(encodeTransactionWire(e));

/** Keys as instructions index them: static keys, then loaded writable, then loaded readonly. */
export function accountKeysOf(e: TransactionEvent): string[] {
  const keys: string[] = [];
  for (const k of e.accountKeys) keys.push(base58(k));
  for (const k of e.loadedWritable) keys.push(base58(k));
  for (const k of e.loadedReadonly) keys.push(base58(k));
  return keys;
}

/**
 * Keys Agave never reports writable (ReservedAccountKeys, all activated): builtin programs and sysvars.
 */
export const RESERVED_ACCOUNT_KEYS: ReadonlySet<string> = new Set([
  'AddressLookupTab1e1111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'ComputeBudget111111111111111111111111111111',
  'Config1111111111111111111111111111111111111',
  'Ed25519SigVerify111111111111111111111111111',
  'Feature111111111111111111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  'NativeLoader1111111111111111111111111111111',
  'KeccakSecp256k11111111111111111111111111111',
  'Secp256r1SigVerify1111111111111111111111111',
  'Stake11111111111111111111111111111111111111',
  '11111111111111111111111111111111',
  'Vote111111111111111111111111111111111111111',
  'ZkE1Gama1Proof11111111111111111111111111111',
  'ZkTokenProof1111111111111111111111111111111',
  'SysvarC1ock11111111111111111111111111111111',
  'SysvarEpochRewards1111111111111111111111111',
  'SysvarEpochSchedu1e111111111111111111111111',
  'SysvarFees111111111111111111111111111111111',
  'Sysvar1nstructions1111111111111111111111111',
  'SysvarLastRestartS1ot1111111111111111111111',
  'SysvarRecentB1ockHashes11111111111111111111',
  'SysvarRent111111111111111111111111111111111',
  'SysvarRewards111111111111111111111111111111',
  'SysvarS1otHashes111111111111111111111111111',
  'SysvarS1otHistory11111111111111111111111111',
  'SysvarStakeHistory1111111111111111111111111',
  'Sysvar1111111111111111111111111111111111111',
]);
const UPGRADEABLE_LOADER = 'BPFLoaderUpgradeab1e11111111111111111111111';

export interface ParsedAccount {
  pubkey: string;
  writable: boolean;
  signer: boolean;
  source: 'transaction' | 'lookupTable';
}

/**
 * Agave's parse_legacy_message_accounts / parse_v0_message_accounts: writable = the header says so, and
 * the key is not reserved, and it is not a program the transaction calls (unless the upgradeable loader is
 * among the keys: Agave's demote_program_id).
 */
export function parsedAccounts(e: TransactionEvent, keys: readonly string[]): ParsedAccount[] {
  const nStatic = e.accountKeys.length;
  const nSigned = e.numRequiredSignatures;
  const called = new Set<number>();
  for (const ix of e.instructions) called.add(ix.programIdIndex);
  const loaderPresent = keys.includes(UPGRADEABLE_LOADER);
  return keys.map((pubkey, i) => {
    const writableIndex =
      i < nStatic
        ? i < nSigned
          ? i < nSigned - e.numReadonlySignedAccounts
          : i < nStatic - e.numReadonlyUnsignedAccounts
        : i < nStatic + e.loadedWritable.length;
    const writable = writableIndex && !RESERVED_ACCOUNT_KEYS.has(pubkey) && !(called.has(i) && !loaderPresent);
    return { pubkey, writable, signer: i < nSigned, source: i < nStatic ? 'transaction' : 'lookupTable' };
  });
}

const REWARD_TYPE_NAMES: readonly (string | null)[] = [null, 'Fee', 'Rent', 'Staking', 'Voting', 'DeactivatedStake'];

/** Agave's Reward: lamports signed, rewardType by name (null when unspecified), commission or null. */
export function uiReward(r: Reward): unknown {
  return {
    pubkey: base58(r.pubkey),
    lamports: u64Json(r.lamports),
    postBalance: u64Json(r.postBalance),
    rewardType: REWARD_TYPE_NAMES[r.rewardType] ?? null,
    commission: r.commission ?? null,
    ...(r.commissionBps === undefined ? {} : { commissionBps: r.commissionBps }),
  };
}

/** UiTransactionTokenBalance: owner and programId only when the source recorded them; the amount by Agave's
 * storage rule (uiAmount null at zero), not the account decoder's. */
function uiTokenBalance(t: TokenBalance): unknown {
  return {
    accountIndex: t.accountIndex,
    mint: base58(t.mint),
    uiTokenAmount: storedUiTokenAmount(t.amount, t.decimals),
    ...(t.owner.length === 0 ? {} : { owner: base58(t.owner) }),
    ...(t.programId.length === 0 ? {} : { programId: base58(t.programId) }),
  };
}

/** Agave's JSON form of the error as recorded; unparsable text is passed on as a string, never as broken JSON. */
const errOf = (e: TransactionEvent): unknown => errValue(e.err ?? null);

/** How much of the meta: all of it (json / binary encodings), parsed (jsonParsed), or getBlock's `accounts` details. */
export type MetaMode = 'raw' | 'parsed' | 'accounts';

function innerInstructions(groups: readonly InnerInstructions[], keys: readonly string[], parsed: boolean): unknown[] {
  return groups.map((g) => ({
    index: g.index,
    instructions: g.instructions.map((ix) => {
      const stackHeight = ix.stackHeight ?? null;
      if (parsed) return parseInstruction(ix.programIdIndex, ix.accounts, ix.data, keys, stackHeight);
      return { programIdIndex: ix.programIdIndex, accounts: Array.from(ix.accounts), data: base58(ix.data), stackHeight };
    }),
  }));
}

/**
 * UiTransactionStatusMeta as Agave builds it: From<TransactionStatusMeta> for `raw` (rewards null when not
 * shown), parse_ui_transaction_status_meta for `parsed` (no loadedAddresses; rewards left out when not
 * shown), build_simple_ui_transaction_status_meta for `accounts`. returnData, computeUnitsConsumed and
 * costUnits appear only when recorded.
 */
export function uiMeta(e: TransactionEvent, keys: readonly string[], mode: MetaMode, showRewards: boolean): unknown {
  const err = errOf(e);
  const m: Record<string, unknown> = {
    err,
    status: err === null ? { Ok: null } : { Err: err },
    fee: u64Json(e.fee),
    preBalances: e.preBalances.map(u64Json),
    postBalances: e.postBalances.map(u64Json),
  };
  if (mode !== 'accounts') {
    m.innerInstructions = e.innerInstructionsNone ? null : innerInstructions(e.innerInstructions, keys, mode === 'parsed');
    m.logMessages = e.logMessagesNone ? null : e.logMessages;
  }
  m.preTokenBalances = e.preTokenBalances.map(uiTokenBalance);
  m.postTokenBalances = e.postTokenBalances.map(uiTokenBalance);
  if (showRewards) m.rewards = e.rewards.map(uiReward);
  else if (mode === 'raw') m.rewards = null;
  if (mode === 'accounts') return m;
  if (mode === 'raw') {
    m.loadedAddresses = { writable: e.loadedWritable.map((k) => base58(k)), readonly: e.loadedReadonly.map((k) => base58(k)) };
  }
  if (e.returnData !== undefined) {
    m.returnData = { programId: base58(e.returnData.programId), data: [Buffer.from(e.returnData.data).toString('base64'), 'base64'] };
  }
  if (e.computeUnitsConsumed !== undefined) m.computeUnitsConsumed = u64Json(e.computeUnitsConsumed);
  if (e.costUnits !== undefined) m.costUnits = u64Json(e.costUnits);
  return m;
}

/**
 * A v1 message's `transactionConfig` (Agave 4.2's TransactionConfig, SIMD-0385): every member, null where the
 * message leaves the value out. Legacy and v0 messages have none (their budget is in ComputeBudget
 * instructions).
 */
function transactionConfig(e: TransactionEvent): unknown {
  const c = e.transactionConfig ?? {};
  return {
    priorityFee: c.priorityFee === undefined ? null : u64Json(c.priorityFee),
    computeUnitLimit: c.computeUnitLimit ?? null,
    loadedAccountsDataSizeLimit: c.loadedAccountsDataSizeLimit ?? null,
    heapSize: c.heapSize ?? null,
  };
}

/** The version-specific members of a message: v0's addressTableLookups, v1's transactionConfig (v1 has no
 * lookup tables). */
function versionMembers(e: TransactionEvent, message: Record<string, unknown>): void {
  const version = messageVersion(e);
  if (version === 0) message.addressTableLookups = lookups(e);
  else if (version === 1) message.transactionConfig = transactionConfig(e);
}

function lookups(e: TransactionEvent): unknown[] {
  return e.addressTableLookups.map((l) => ({
    accountKey: base58(l.accountKey),
    writableIndexes: Array.from(l.writableIndexes),
    readonlyIndexes: Array.from(l.readonlyIndexes),
  }));
}

/** EncodedTransaction in the given encoding. */
export function encodeTransaction(e: TransactionEvent, keys: readonly string[], encoding: TransactionEncoding): unknown {
  switch (encoding) {
    case 'base64':
      return [wireBytes(e).toString('base64'), 'base64'];
    case 'base58':
      return [base58(wireBytes(e)), 'base58'];
    case 'binary':
      return base58(wireBytes(e));
    case 'json': {
      const message: Record<string, unknown> = {
        header: {
          numRequiredSignatures: e.numRequiredSignatures,
          numReadonlySignedAccounts: e.numReadonlySignedAccounts,
          numReadonlyUnsignedAccounts: e.numReadonlyUnsignedAccounts,
        },
        accountKeys: keys.slice(0, e.accountKeys.length),
        recentBlockhash: base58(e.recentBlockhash),
        instructions: e.instructions.map((ix) => ({
          programIdIndex: ix.programIdIndex,
          accounts: Array.from(ix.accounts),
          data: base58(ix.data),
          stackHeight: null,
        })),
      };
      versionMembers(e, message);
      return { signatures: e.signatures.map((s) => base58(s)), message };
    }
    case 'jsonParsed': {
      const message: Record<string, unknown> = {
        accountKeys: parsedAccounts(e, keys),
        recentBlockhash: base58(e.recentBlockhash),
        instructions: e.instructions.map((ix) => parseInstruction(ix.programIdIndex, ix.accounts, ix.data, keys, null)),
      };
      versionMembers(e, message);
      return { signatures: e.signatures.map((s) => base58(s)), message };
    }
  }
}

/**
 * EncodedTransactionWithStatusMeta: `{transaction, meta, version?}` (version per transactionVersion).
 * `accounts` is getBlock's transactionDetails "accounts": signatures and parsed account keys, the short meta.
 */
export function encodeWithMeta(
  e: TransactionEvent,
  encoding: TransactionEncoding,
  o: { maxSupportedVersion: number | undefined; showRewards: boolean; accountsOnly?: boolean },
): Record<string, unknown> {
  const version = transactionVersion(e, o.maxSupportedVersion);
  const keys = accountKeysOf(e);
  const out: Record<string, unknown> = o.accountsOnly
    ? {
        transaction: { signatures: e.signatures.map((s) => base58(s)), accountKeys: parsedAccounts(e, keys) },
        meta: uiMeta(e, keys, 'accounts', o.showRewards),
      }
    : {
        transaction: encodeTransaction(e, keys, encoding),
        meta: uiMeta(e, keys, encoding === 'jsonParsed' ? 'parsed' : 'raw', o.showRewards),
      };
  if (version !== undefined) out.version = version;
  return out;
}

/** The `encoding` of a config (or the legacy bare-string config): default json. */
export function parseTransactionEncoding(v: unknown): TransactionEncoding {
  if (v === undefined || v === null) return 'json';
  if (typeof v !== 'string' || !(TRANSACTION_ENCODINGS as readonly string[]).includes(v)) {
    throw invalidParams(`encoding: expected one of json, jsonParsed, base58, base64, got ${describeValue(v)}`);
  }
  return v as TransactionEncoding;
}

/** `maxSupportedTransactionVersion`: absent, or a u8 (Agave's Option<u8>). */
export function parseMaxSupportedVersion(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 255) {
    throw invalidParams(`maxSupportedTransactionVersion: expected a whole number from 0 to 255, got ${describeValue(v)}`);
  }
  return v;
}

/**
 * Agave's RpcEncodingConfigWrapper: the config position may hold the config object or, the deprecated
 * form, just an encoding string. Gives the config object (the string becomes `{encoding}`).
 */
export function parseEncodingConfig(v: unknown): ParamsConfig {
  if (typeof v === 'string') return { encoding: v };
  return parseConfig(v, 'config');
}
