// Pure: the results of the slot-update, block, vote and transaction notifications (Agave's rpc_subscriptions.rs
// and rpc-client-types response.rs; Helius's transactionNotification). Each is the `result` member only:
// notify.ts's prefix and suffix make the notification around it, as for the other kinds.
import type { BlockMeta, SlotEvent, TransactionEvent } from '../../schemas/gen/events.js';
import { SlotStatus } from '../../schemas/gen/events.js';
import { base58 } from '../../schemas/base58.js';
import type { AssembledBlock } from '../live/block-assembler.js';
import { uiConfirmedBlock, type BlockHeader, type BlockOptions } from '../solana-json/block.js';
import { RpcError } from '../solana-json/errors.js';
import { toJson } from '../solana-json/json.js';
import { encodeWithMeta, messageVersion, UNSUPPORTED_TRANSACTION_VERSION } from '../solana-json/transactions.js';
import type { ParsedVote } from '../solana-json/vote.js';

/** The shape key of block and transaction options (SharedEvent.encoded keys). */
export const optionsKey = (o: BlockOptions): string => `${o.encoding}/${o.transactionDetails}/${o.rewards}/${o.maxSupportedVersion ?? '-'}`;

/**
 * Agave's SlotUpdate (`{"type":…,"slot":…,"timestamp":…}` plus `parent` for createdBank, `err` for dead) of a
 * slot status, or undefined for the statuses that have no update of their own: processed (its update is
 * `frozen`, made from the whole block by frozenJson), skipped and gap records (Agave has no such update).
 * `timestamp`: milliseconds since the epoch when the api read the status (Agave: when the validator saw it).
 */
export function slotUpdateJson(ev: SlotEvent, timestamp: number): string | undefined {
  const base = (type: string) => `{"type":"${type}","slot":${ev.slot},"timestamp":${timestamp}`;
  switch (ev.status) {
    case SlotStatus.SLOT_STATUS_FIRST_SHRED_RECEIVED:
      return `${base('firstShredReceived')}}`;
    case SlotStatus.SLOT_STATUS_COMPLETED:
      return `${base('completed')}}`;
    case SlotStatus.SLOT_STATUS_CREATED_BANK: {
      const parent = ev.parent ?? ev.block?.parentSlot ?? (ev.slot > 0n ? ev.slot - 1n : 0n);
      return `{"type":"createdBank","slot":${ev.slot},"parent":${parent},"timestamp":${timestamp}}`;
    }
    case SlotStatus.SLOT_STATUS_CONFIRMED:
      return `${base('optimisticConfirmation')}}`;
    case SlotStatus.SLOT_STATUS_FINALIZED:
      return `${base('root')}}`;
    case SlotStatus.SLOT_STATUS_DEAD:
      return `${base('dead')},"err":${JSON.stringify(ev.deadError ?? '')}}`;
    default:
      return undefined;
  }
}

/**
 * Agave's SlotUpdate::Frozen of a processed block, with its SlotTransactionStats: entries holding transactions,
 * transactions that succeeded and failed (votes included, as Agave counts the bank's), the most in one entry.
 * A block whose source has no entries counts 0 entries.
 */
export function frozenJson(b: AssembledBlock, timestamp: number): string {
  let failed = 0;
  for (const t of b.transactions) if (t.err !== undefined && t.err !== '') failed++;
  let entries = 0;
  let most = 0n;
  for (const e of b.entries) {
    if (e.executedTransactionCount === 0n) continue;
    entries++;
    if (e.executedTransactionCount > most) most = e.executedTransactionCount;
  }
  return (
    `{"type":"frozen","slot":${b.slot},"timestamp":${timestamp},"stats":{"numTransactionEntries":${entries},` +
    `"numSuccessfulTransactions":${b.transactions.length - failed},"numFailedTransactions":${failed},"maxTransactionsPerEntry":${most}}}`
  );
}

/** Agave's RpcVote. */
export const voteJson = (v: ParsedVote): string =>
  `{"votePubkey":"${v.votePubkey}","slots":[${v.slots.join(',')}],"hash":"${v.hash}","timestamp":${v.timestamp ?? 'null'},"signature":"${v.signature}"}`;

const mentions = (t: TransactionEvent, key: Buffer): boolean =>
  t.accountKeys.some((k) => key.equals(k)) || t.loadedWritable.some((k) => key.equals(k)) || t.loadedReadonly.some((k) => key.equals(k));

/** The block header of an assembled block; the previous blockhash from the parent's meta when the source left it out. */
export function assembledHeader(b: AssembledBlock, parentMeta: (slot: bigint) => BlockMeta | undefined): BlockHeader {
  const m = b.marker.block!;
  const previous = m.previousBlockhash.length === 32 ? m.previousBlockhash : parentMeta(m.parentSlot)?.blockhash;
  return {
    slot: b.slot,
    parentSlot: m.parentSlot,
    blockhash: base58(m.blockhash),
    previousBlockhash: previous === undefined ? '' : base58(previous),
    blockHeight: m.blockHeight,
    blockTime: m.blockTime ?? null,
    rewards: m.rewards,
    numPartitions: m.numPartitions,
  };
}

/**
 * blockNotification's result: `{"context":{"slot":S},"value":{"slot":S,"block":…,"err":null}}` (RpcBlockUpdate).
 * `mentions`: only the transactions mentioning the key (any static key or loaded address), and no notification
 * at all when none does (Agave's filter_block_result_txs). A transaction version the options do not allow makes
 * the block `null` and `err` `{"UnsupportedTransactionVersion":v}`, as Agave sends it.
 */
export function blockUpdateJson(b: AssembledBlock, header: BlockHeader, o: BlockOptions, mention: Buffer | undefined): string | undefined {
  const txs = mention === undefined ? b.transactions : b.transactions.filter((t) => mentions(t, mention));
  if (mention !== undefined && txs.length === 0) return undefined;
  let value: string;
  try {
    const block = uiConfirmedBlock(
      o,
      header,
      () => txs,
      () => txs.map((t) => base58(t.signatures[0] ?? new Uint8Array(64))),
    );
    value = `{"slot":${b.slot},"block":${toJson(block)},"err":null}`;
  } catch (err) {
    if (!(err instanceof RpcError) || err.code !== UNSUPPORTED_TRANSACTION_VERSION) throw err;
    const version = txs
      .map(messageVersion)
      .find((v) => v !== 'legacy' && (o.maxSupportedVersion === undefined || v > o.maxSupportedVersion));
    value = `{"slot":${b.slot},"block":null,"err":{"UnsupportedTransactionVersion":${String(version)}}}`;
  }
  return `{"context":{"slot":${b.slot}},"value":${value}}`;
}

/**
 * Helius's transactionNotification result. transactionDetails full or accounts:
 * `{"transaction":<EncodedTransactionWithStatusMeta>,"signature","slot","transactionIndex"}`; signatures or none:
 * `{"signature","slot","transactionIndex","err"}`. A transaction whose version is above
 * maxSupportedTransactionVersion (any versioned one when it is absent) is not sent: Helius's option names the
 * highest version the client receives. undefined: not sent.
 */
export function transactionNotificationJson(t: TransactionEvent, o: BlockOptions): string | undefined {
  const version = messageVersion(t);
  if (version !== 'legacy' && (o.maxSupportedVersion === undefined || version > o.maxSupportedVersion)) return undefined;
  const sig = t.signatures[0];
  const tail = `"signature":"${sig === undefined ? '' : base58(sig)}","slot":${t.slot},"transactionIndex":${t.index}`;
  if (o.transactionDetails === 'full' || o.transactionDetails === 'accounts') {
    const tx = encodeWithMeta(t, o.encoding, {
      maxSupportedVersion: o.maxSupportedVersion,
      showRewards: o.rewards,
      accountsOnly: o.transactionDetails === 'accounts',
    });
    return `{"transaction":${toJson(tx)},${tail}}`;
  }
  return `{${tail},"err":${t.err === undefined || t.err === '' ? 'null' : t.err}}`;
}
