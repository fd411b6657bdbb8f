// getTransaction: one transaction by signature with its meta, in a confirmed block at or below the
// commitment's head (Agave refuses processed). The signature index (transaction_index) names its
// (slot, position); slots marked skipped (a lost fork) are left out; the body is then one key read of
// transaction_records (the event's protobuf bytes, sent base64 by ClickHouse). null when unknown. maxSupportedTransactionVersion as Agave: -32015 for a v0 or v1
// transaction without it (or, for v1, with 0).
import { u64Json } from '../../solana-json/json.js';
import { contextSlot, defineMethod } from '../method.js';
import { optionalString, parseContextConfig, parseSignature, positional } from '../../solana-json/params.js';
import { queryRows, u64 } from '../../views/query.js';
import {
  decodeBody,
  encodeWithMeta,
  parseEncodingConfig,
  parseMaxSupportedVersion,
  parseTransactionEncoding,
  type TransactionEncoding,
} from '../../solana-json/transactions.js';
import type { Commitment } from '../../solana-json/params.js';

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

/** The block's time, for a transaction event that came without one (a Yellowstone transaction update has none). */
export const BLOCK_TIME_SQL = `SELECT block_time FROM {db:Identifier}.blocks WHERE slot = {slot:UInt64} LIMIT 1`;

const UNAVAILABLE = 'Transaction information unavailable';

export const getTransaction = defineMethod<GetTransactionParams>({
  name: 'getTransaction',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetTransaction,
  run: async (ctx, p) => {
    const head = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment);
    const rows = await queryRows<{ slot: string; body: string }>(ctx.ch, TRANSACTION_SQL, { db: ctx.db, sig: p.signature, head });
    if (rows.length === 0) return null;
    const r = rows[0]!;
    const e = decodeBody(r.body);
    // Sources that know the block's time put it on every transaction (the same value getBlock answers);
    // otherwise the block row has it.
    let blockTime = e.blockTime;
    if (blockTime === undefined) {
      const t = await queryRows<{ block_time: string | null }>(ctx.ch, BLOCK_TIME_SQL, { db: ctx.db, slot: r.slot });
      if (t.length > 0 && t[0]!.block_time !== null) blockTime = u64(t[0]!.block_time);
    }
    const encoded = encodeWithMeta(e, p.encoding, { maxSupportedVersion: p.maxSupportedVersion, showRewards: true });
    // EncodedConfirmedTransactionWithStatusMeta: slot, the flattened transaction with meta, blockTime.
    return { slot: u64Json(u64(r.slot)), ...encoded, blockTime: blockTime === undefined ? null : u64Json(blockTime) };
  },
});
