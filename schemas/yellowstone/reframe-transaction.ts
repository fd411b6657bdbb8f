// geyser.Geyser's transaction update written from the record's own bytes. A transaction record
// (schemas/events.proto TransactionEvent) already holds most of Yellowstone's SubscribeUpdateTransaction in
// the same wire form under other field numbers: signatures, keys, instructions, lookups, balances, inner
// instructions, logs, loaded addresses, return data, compute units. Those are copied behind new tags
// (schemas/scan.ts gives their positions); only what Yellowstone spells differently (the error in its
// binary form, token balances with base58 keys and UI amounts, rewards) is converted, through the same
// functions transactionToYellowstone uses, and encoded with the published codec. The result decodes to
// exactly what encoding transactionToYellowstone's message gives (unit-tested); fields may come in another
// order, which protobuf readers accept. A full decode, conversion and encode cost ~40 µs per transaction
// here; this ~5 µs.
import { Reward as EventReward, TokenBalance as EventTokenBalance } from '../gen/events.js';
import type { TransactionScan } from '../scan.js';
import { tokenBalanceTo } from './meta.js';
import { rewardToYellowstone } from './rewards.js';
import { TransactionStatusMetaCodec } from './storage.js';
import { transactionErrorFromJson } from './transaction-error.js';
import { asBuffer } from '../bytes.js';

/** A message under construction: parts are concatenated once at the end (sub-arrays of the record, no copy). */
class Parts {
  readonly list: Buffer[] = [];
  size = 0;

  push(b: Buffer): void {
    this.list.push(b);
    this.size += b.length;
  }

  /** Appends `tag` and the value bytes of every occurrence of source field `from`. */
  copy(tag: Buffer, src: TransactionScan, from: number): void {
    const f = src.fields;
    for (let i = 0; i < f.length; i += 3) {
      if (f[i] !== from) continue;
      this.push(tag);
      this.push(src.bytes.subarray(f[i + 1], f[i + 2]));
    }
  }

  /** Appends a length-delimited field holding `inner`. */
  nest(tag: Buffer, inner: Parts): void {
    this.push(tag);
    this.push(varint(inner.size));
    for (const b of inner.list) this.list.push(b);
    this.size += inner.size;
  }
}

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return Buffer.from(out);
}

const T = (...bytes: number[]): Buffer => Buffer.from(bytes);
// Tags (field number << 3 | wire type) of Yellowstone's messages, by message.
const UPDATE_TRANSACTION = T(0x22); // SubscribeUpdate.transaction = 4
const UPDATE_CREATED_AT = T(0x5a); // SubscribeUpdate.created_at = 11
const SUT_INFO = T(0x0a); // SubscribeUpdateTransaction.transaction = 1
const SUT_SLOT = T(0x10); // SubscribeUpdateTransaction.slot = 2
const INFO_SIGNATURE = T(0x0a);
const INFO_IS_VOTE = T(0x10);
const INFO_TRANSACTION = T(0x1a);
const INFO_META = T(0x22);
const INFO_INDEX = T(0x28);
const TX_SIGNATURES = T(0x0a);
const TX_MESSAGE = T(0x12);
const MSG_HEADER = T(0x0a);
const MSG_KEYS = T(0x12);
const MSG_BLOCKHASH = T(0x1a);
const MSG_INSTRUCTIONS = T(0x22);
const MSG_VERSIONED = T(0x28);
const MSG_LOOKUPS = T(0x32);
const MSG_CONFIG = T(0x3a); // Message.config = 7: v1 only; TransactionEvent.transaction_config (32) has its numbering
const HEADER = [T(0x08), T(0x10), T(0x18)];
const RETURN_DATA_NONE = T(0x78, 0x01); // TransactionStatusMeta.return_data_none = 15, true

/** TransactionStatusMeta field tag <- TransactionEvent field number, for fields with the same wire form. */
const META_COPIED: readonly (readonly [Buffer, number])[] = [
  [T(0x10), 16], // fee
  [T(0x1a), 19], // pre_balances (packed)
  [T(0x22), 20], // post_balances
  [T(0x2a), 23], // inner_instructions
  [T(0x32), 24], // log_messages
  [T(0x50), 27], // inner_instructions_none
  [T(0x58), 28], // log_messages_none
  [T(0x62), 12], // loaded_writable_addresses
  [T(0x6a), 13], // loaded_readonly_addresses
  [T(0x72), 26], // return_data
  [T(0x80, 0x01), 25], // compute_units_consumed
  [T(0x88, 0x01), 30], // cost_units
];

const ZERO_SIGNATURE = Buffer.concat([T(64), Buffer.alloc(64)]);

function payloadOf(src: TransactionScan, i: number): Buffer {
  const b = src.bytes;
  let p = src.fields[i + 1]!;
  while (b[p]! & 0x80) p++; // skip the length varint
  return b.subarray(p + 1, src.fields[i + 2]);
}

/** The meta's converted part (error, token balances, rewards) through the published codec. */
function convertedMeta(src: TransactionScan, into: Parts): void {
  const f = src.fields;
  let err: string | undefined;
  const pre: EventTokenBalance[] = [];
  const post: EventTokenBalance[] = [];
  const rewards: EventReward[] = [];
  let returnData = false;
  for (let i = 0; i < f.length; i += 3) {
    switch (f[i]) {
      case 15:
        err = payloadOf(src, i).toString('utf8');
        break;
      case 21:
        pre.push(EventTokenBalance.decode(payloadOf(src, i)));
        break;
      case 22:
        post.push(EventTokenBalance.decode(payloadOf(src, i)));
        break;
      case 29:
        rewards.push(EventReward.decode(payloadOf(src, i)));
        break;
      case 26:
        returnData = true;
        break;
    }
  }
  if (err === undefined && pre.length + post.length + rewards.length === 0) {
    if (!returnData) into.push(RETURN_DATA_NONE);
    return;
  }
  const bytes = TransactionStatusMetaCodec.encode({
    err: err === undefined ? undefined : { err: transactionErrorFromJson(err) },
    fee: '0',
    preBalances: [],
    postBalances: [],
    innerInstructions: [],
    innerInstructionsNone: false,
    logMessages: [],
    logMessagesNone: false,
    preTokenBalances: pre.map(tokenBalanceTo),
    postTokenBalances: post.map(tokenBalanceTo),
    rewards: rewards.map(rewardToYellowstone),
    loadedWritableAddresses: [],
    loadedReadonlyAddresses: [],
    returnData: undefined,
    returnDataNone: !returnData,
    computeUnitsConsumed: undefined,
    costUnits: undefined,
  }).finish();
  into.push(asBuffer(bytes));
}

function timestamp(ms: number): Parts {
  const p = new Parts();
  const seconds = Math.floor(ms / 1000);
  const nanos = (ms % 1000) * 1_000_000;
  if (seconds) {
    p.push(T(0x08));
    p.push(varint(seconds));
  }
  if (nanos) {
    p.push(T(0x10));
    p.push(varint(nanos));
  }
  return p;
}

/**
 * The SubscribeUpdate (without `filters`) of a scanned transaction record, with `created_at`. Throws what
 * transactionErrorFromJson throws for an error Yellowstone cannot express.
 */
export function reframeYellowstoneTransaction(src: TransactionScan, createdAtMs: number): Buffer {
  const f = src.fields;
  const header = new Parts();
  for (let k = 0; k < 3; k++) header.copy(HEADER[k]!, src, 5 + k);
  const message = new Parts();
  message.nest(MSG_HEADER, header);
  message.copy(MSG_KEYS, src, 8);
  message.copy(MSG_BLOCKHASH, src, 9);
  message.copy(MSG_INSTRUCTIONS, src, 10);
  message.copy(MSG_VERSIONED, src, 4);
  message.copy(MSG_LOOKUPS, src, 11);
  message.copy(MSG_CONFIG, src, 32);
  const tx = new Parts();
  tx.copy(TX_SIGNATURES, src, 3);
  tx.nest(TX_MESSAGE, message);

  const meta = new Parts();
  convertedMeta(src, meta);
  for (const [tag, from] of META_COPIED) meta.copy(tag, src, from);

  const info = new Parts();
  let sig = -1;
  for (let i = 0; i < f.length && sig < 0; i += 3) if (f[i] === 3) sig = i;
  info.push(INFO_SIGNATURE);
  info.push(sig < 0 ? ZERO_SIGNATURE : src.bytes.subarray(f[sig + 1], f[sig + 2]));
  info.copy(INFO_IS_VOTE, src, 14);
  info.nest(INFO_TRANSACTION, tx);
  info.nest(INFO_META, meta);
  info.copy(INFO_INDEX, src, 2);

  const update = new Parts();
  update.nest(SUT_INFO, info);
  update.copy(SUT_SLOT, src, 1);

  const out = new Parts();
  out.nest(UPDATE_TRANSACTION, update);
  out.nest(UPDATE_CREATED_AT, timestamp(createdAtMs));
  return Buffer.concat(out.list, out.size);
}
