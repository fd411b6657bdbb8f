// getTransaction: one transaction by signature with its meta, in a confirmed block at or below the
// commitment's head (Agave refuses processed). The signature index (transaction_index) names its
// (slot, position); slots marked skipped (a lost fork) are left out; the body is then one key read of
// transaction_records (the event's protobuf bytes, sent base64 by ClickHouse). null when unknown. maxSupportedTransactionVersion as Agave: -32015 for a v0 or v1
// transaction without it (or, for v1, with 0).
import { u64Json } from '../../solana-json/json.js';
import { TransactionEvent as TransactionCodec } from '../../../schemas/codec.js';
import { contextSlot, defineMethod } from '../method.js';
import { HEAD_MISS, rawKeyOf } from '../head.js';
import { optionalString, parseContextConfig, parseSignature, positional } from '../../solana-json/params.js';
import { queryRows, u64, type QueryClient } from '../../views/query.js';
import {
  decodeBody,
  encodeWithMeta,
  parseEncodingConfig,
  parseMaxSupportedVersion,
  parseTransactionEncoding,
  type TransactionEncoding,
} from '../../solana-json/transactions.js';
import type { Commitment } from '../../solana-json/params.js';
import type { TransactionEvent } from '../../../schemas/codec.js';
import type { HeldTransaction } from '../../head/head-cache.js';

export interface GetTransactionParams {
  signature: string;
  encoding: TransactionEncoding;
  commitment: Commitment;
  maxSupportedVersion: number | undefined;
}

export function parseGetTransaction(params: unknown): GetTransactionParams {
  const p = positional(params, 1, 2);
  const signature = parseSignature(p[0], 'signature');
  const config = parseEncodingConfig(p[1]);
  optionalString(config, 'encoding');
  return {
    signature,
    encoding: parseTransactionEncoding(config.encoding),
    commitment: parseContextConfig(config, true).commitment,
    maxSupportedVersion: parseMaxSupportedVersion(config.maxSupportedTransactionVersion),
  };
}

// The newest landing of the signature at or below the head whose slot is not marked skipped (a lost fork),
// and its body. The index is ordered by signature (a key-range read), the bodies by (slot, position): the
// tuple IN uses the primary key. One round trip; measured against a CTE version that also joined the block
// time (bench/README.md), which cost 12-13 ms against 7-9 ms.
export const TRANSACTION_SQL = `
SELECT slot, base64Encode(record) AS body FROM {db:Identifier}.transaction_records
WHERE (slot, position) IN (
  SELECT slot, position FROM {db:Identifier}.transaction_index
  WHERE signature = {sig:String} AND slot <= {head:UInt64}
    AND slot NOT IN (SELECT slot FROM {db:Identifier}.slot_status
                     WHERE status = 3 AND slot IN (SELECT slot FROM {db:Identifier}.transaction_index WHERE signature = {sig:String})))
ORDER BY slot DESC
LIMIT 1`;

const BLOCK_TIMES_SQL = `SELECT slot, block_time FROM {db:Identifier}.blocks WHERE slot IN {slots:Array(UInt64)} AND block_time IS NOT NULL LIMIT 1 BY slot`;

/** The blocks' times, for transaction events that came without one (a Yellowstone transaction update has none). */
export async function readBlockTimes(ch: QueryClient, db: string, slots: readonly bigint[]): Promise<Map<bigint, bigint>> {
  if (slots.length === 0) return new Map();
  const rows = await queryRows<{ slot: string; block_time: string }>(ch, BLOCK_TIMES_SQL, { db, slots: [...new Set(slots)] });
  return new Map(rows.map((r) => [u64(r.slot), u64(r.block_time)]));
}

/** Sources that know the block's time put it on every transaction (the same value getBlock answers); otherwise the block row has it. */
export const needsBlockTime = (e: TransactionEvent): boolean => e.blockTime === undefined;

/**
 * EncodedConfirmedTransactionWithStatusMeta, getTransaction's answer: slot, the flattened transaction with its
 * meta (and `version` per maxSupportedTransactionVersion, -32015 as Agave), blockTime. `blockTimes` holds the
 * block's time for an event without one. getTransactionsForAddress's `full` items are this too.
 */
export function encodeConfirmedTransaction(
  e: TransactionEvent,
  slot: bigint,
  blockTimes: ReadonlyMap<bigint, bigint>,
  o: { encoding: TransactionEncoding; maxSupportedVersion: number | undefined },
): Record<string, unknown> {
  const blockTime = e.blockTime ?? blockTimes.get(slot);
  const encoded = encodeWithMeta(e, o.encoding, { maxSupportedVersion: o.maxSupportedVersion, showRewards: true });
  return { slot: u64Json(slot), ...encoded, blockTime: blockTime === undefined ? null : u64Json(blockTime) };
}

const UNAVAILABLE = 'Transaction information unavailable';

export const getTransaction = defineMethod<GetTransactionParams>({
  name: 'getTransaction',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetTransaction,
  run: async (ctx, p) => {
    const head = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment);
    const rows = await queryRows<{ slot: string; body: string }>(ctx.ch, TRANSACTION_SQL, { db: ctx.db, sig: p.signature, head });
    if (rows.length === 0) return null;
    const slot = u64(rows[0]!.slot);
    const e = decodeBody(rows[0]!.body);
    const blockTimes = needsBlockTime(e) ? await readBlockTimes(ctx.ch, ctx.db, [slot]) : new Map<bigint, bigint>();
    return encodeConfirmedTransaction(e, slot, blockTimes, p);
  },
  // The newest held landing at or below the head whose slot is not dead; one not held may be older than the
  // cache: the views answer (as they do for a signature never seen).
  fromHead: (h, p) => {
    if (h.state.head[p.commitment] === undefined) return HEAD_MISS;
    const head = contextSlot({ unavailableMessage: UNAVAILABLE }, h.state, p.commitment);
    let t: HeldTransaction | undefined;
    for (const l of h.cache.landings(rawKeyOf(p.signature))) {
      if (l.slot <= head && !h.cache.isDead(l.slot) && (t === undefined || l.slot > t.slot)) t = l;
    }
    // None at or below the head: none there is, when the cache holds everything since the topics' start (the views
    // hold no more: they are projected from the same topics), or when its landings held show where all of them can be.
    if (t === undefined) {
      const any = h.cache.landings(rawKeyOf(p.signature))[0];
      const none = (h.cache.floor === 0n && h.cache.holdsAll(0n, head)) || (any !== undefined && h.cache.allLandingsHeld(any));
      return none ? null : HEAD_MISS;
    }
    const e = TransactionCodec.decode(t.bytes);
    const blockTimes = new Map<bigint, bigint>();
    if (needsBlockTime(e)) {
      const b = h.cache.block(t.slot);
      if (b === undefined) return HEAD_MISS;
      if (b.meta.blockTime !== undefined) blockTimes.set(t.slot, b.meta.blockTime);
    }
    return encodeConfirmedTransaction(e, t.slot, blockTimes, p);
  },
});
