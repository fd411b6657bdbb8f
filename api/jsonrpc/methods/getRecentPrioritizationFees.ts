// getRecentPrioritizationFees [pubkeys?]: per slot of the 150 newest finalized blocks (Agave's
// MAX_NUM_RECENT_BLOCKS; its cache holds finalized blocks only), the compute-unit price a transaction needed
// to land, as Agave's PrioritizationFeeCache answers it (prioritization-fees.ts), ascending by slot. Blocks
// are read from transaction_records and summarised once: a finalized block never changes, so the summaries
// are kept per database and only blocks new to the window are read.
import { describeValue } from '../../../platform/describe-value.js';
import { invalidParam, invalidParams, unavailable } from '../../solana-json/errors.js';
import { u64Json } from '../../solana-json/json.js';
import { defineMethod } from '../method.js';
import { HEAD_MISS } from '../head.js';
import { parsePubkey, positional } from '../../solana-json/params.js';
import { queryRows, u64 } from '../../views/query.js';
import { blockFees, feeFor, rawKey, type BlockFees } from './prioritization-fees.js';

/** Agave's MAX_NUM_RECENT_BLOCKS and its limit on the accounts asked for (MAX_TX_ACCOUNT_LOCKS). */
export const MAX_NUM_RECENT_BLOCKS = 150;
export const MAX_TX_ACCOUNT_LOCKS = 128;

export interface GetRecentPrioritizationFeesParams {
  accounts: string[];
}

export function parseGetRecentPrioritizationFees(params: unknown): GetRecentPrioritizationFeesParams {
  const [list] = positional(params, 0, 1);
  if (list === undefined || list === null) return { accounts: [] };
  if (!Array.isArray(list)) throw invalidParams(`pubkeys: expected an array of base-58 public keys, got ${describeValue(list)}`);
  if (list.length > MAX_TX_ACCOUNT_LOCKS) throw invalidParam(`Too many inputs provided; max ${MAX_TX_ACCOUNT_LOCKS}`);
  return { accounts: list.map((k, i) => parsePubkey(k, `pubkeys[${i}]`)) };
}

// The newest produced blocks up to the finalized head; lost forks (status 3) were never finalized.
export const WINDOW_SQL = `
SELECT slot, blockhash FROM {db:Identifier}.blocks
WHERE slot <= {head:UInt64}
  AND slot NOT IN (SELECT slot FROM {db:Identifier}.slot_status WHERE status = 3 AND slot <= {head:UInt64})
ORDER BY slot DESC
LIMIT 1 BY slot
LIMIT {n:UInt32}`;

export const RECORDS_SQL = `
SELECT slot, base64Encode(record) AS body FROM {db:Identifier}.transaction_records
WHERE slot IN {slots:Array(UInt64)}
ORDER BY slot, position
LIMIT 1 BY slot, position`;

// Summaries of finalized blocks by slot and blockhash (views rebuilt from another chain reuse slot numbers),
// per database (one process may serve several: tests).
const summaries = new Map<string, Map<string, BlockFees>>();

const UNAVAILABLE = 'Block information unavailable';

export const getRecentPrioritizationFees = defineMethod<GetRecentPrioritizationFeesParams>({
  name: 'getRecentPrioritizationFees',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetRecentPrioritizationFees,
  run: async (ctx, p) => {
    const head = ctx.state.head.finalized;
    if (head === undefined) throw unavailable(UNAVAILABLE);
    const window = (
      await queryRows<{ slot: string; blockhash: string }>(ctx.ch, WINDOW_SQL, { db: ctx.db, head, n: MAX_NUM_RECENT_BLOCKS })
    )
      .map((r) => ({ slot: u64(r.slot), key: `${r.slot}:${r.blockhash}` }))
      .sort((a, b) => (a.slot < b.slot ? -1 : a.slot > b.slot ? 1 : 0));
    const known = summaries.get(ctx.db) ?? new Map<string, BlockFees>();
    const missing = window.filter((b) => !known.has(b.key));
    if (missing.length > 0) {
      const bySlot = new Map<bigint, Buffer[]>(missing.map((b) => [b.slot, []]));
      const rows = await queryRows<{ slot: string; body: string }>(ctx.ch, RECORDS_SQL, { db: ctx.db, slots: missing.map((b) => b.slot) });
      for (const r of rows) bySlot.get(u64(r.slot))?.push(Buffer.from(r.body, 'base64'));
      for (const b of missing) known.set(b.key, blockFees(bySlot.get(b.slot)!));
    }
    // Keep only the window: older blocks have left Agave's cache too.
    const kept = new Map<string, BlockFees>();
    for (const b of window) kept.set(b.key, known.get(b.key)!);
    summaries.set(ctx.db, kept);
    const asked = p.accounts.map(rawKey);
    return window.map((b) => ({ slot: u64Json(b.slot), prioritizationFee: u64Json(feeFor(kept.get(b.key)!, asked)) }));
  },
  // The same window on the held blocks, each summarised once from its held records (the cache keeps the
  // summary after it drops the records, once this method has been asked).
  fromHead: (h, p) => {
    const head = h.state.head.finalized;
    if (head === undefined) return HEAD_MISS;
    const window = h.cache.newestBlocks(head, MAX_NUM_RECENT_BLOCKS);
    if (window === undefined) return HEAD_MISS;
    const fees: BlockFees[] = [];
    for (const b of window) {
      const f = h.cache.summary(b.slot, 'prioritization-fees', blockFees);
      if (f === undefined) return HEAD_MISS;
      fees.push(f);
    }
    const asked = p.accounts.map(rawKey);
    return window.map((b, i) => ({ slot: u64Json(b.slot), prioritizationFee: u64Json(feeFor(fees[i]!, asked)) }));
  },
});
