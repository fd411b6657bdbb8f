// getSignaturesForAddress: transactions that have the address among their keys, newest first (slot
// descending, then position in the block descending). `before`/`until` are exclusive and located by
// the transactions table; one the request cannot see (not held, or above its commitment's newest slot) is
// Agave 4.0's -32020 `Transaction {signature} not found` (../signature-cursors.ts). Without `before`/`until`, the
// newest page of an address the head cache holds is read from memory (an account's latest activity, what bots poll).
import bs58 from 'bs58';
import { invalidParams } from '../../solana-json/errors.js';
import { errValue, u64Json } from '../../solana-json/json.js';
import { contextSlot, defineMethod } from '../method.js';
import { HEAD_MISS, type HeadContext, type HeadMiss } from '../head.js';
import { base58Signature, type HeldTransaction } from '../../head/head-cache.js';
import { formatMemos } from '../../../schemas/memos.js';
import { payload, readVarint64, scanFields } from '../../../schemas/scan.js';
import {
  optionalString,
  parseConfig,
  parseContextConfig,
  parsePubkey,
  parseSignature,
  parseUsize,
  positional,
  type ContextConfig,
} from '../../solana-json/params.js';
import { queryRows, u64, type QueryClient } from '../../views/query.js';
import { readBlockTimes } from './getTransaction.js';
import { locateSignatures } from '../signature-cursors.js';
import type { ViewsState } from '../../views/state.js';

export const MAX_SIGNATURES_LIMIT = 1000;

export interface GetSignaturesForAddressParams extends ContextConfig {
  address: string;
  limit: number;
  before: string | undefined;
  until: string | undefined;
}

export function parseGetSignaturesForAddress(params: unknown): GetSignaturesForAddressParams {
  const p = positional(params, 1, 2);
  const address = parsePubkey(p[0], 'address');
  const config = parseConfig(p[1], 'config');
  let limit = MAX_SIGNATURES_LIMIT;
  if (config.limit !== undefined && config.limit !== null) {
    limit = parseUsize(config.limit, 'limit');
    if (limit < 1 || limit > MAX_SIGNATURES_LIMIT) {
      throw invalidParams(`limit: Invalid limit; max ${MAX_SIGNATURES_LIMIT} (got ${limit}, expected 1 to ${MAX_SIGNATURES_LIMIT})`);
    }
  }
  const before = optionalString(config, 'before');
  const until = optionalString(config, 'until');
  return {
    address,
    limit,
    before: before === undefined ? undefined : parseSignature(before, 'before'),
    until: until === undefined ? undefined : parseSignature(until, 'until'),
    ...parseContextConfig(config, true),
  };
}

// Rows are (address, slot, position)-ordered; duplicates a merge has not yet collapsed are dropped by
// LIMIT 1 BY. The bounds are always present: without before/until they are set to let everything through,
// so one statement serves every call.
export const SIGNATURES_SQL = `
SELECT signature, slot, position, err, memo, block_time
FROM {db:Identifier}.signatures_by_address
WHERE address = {address:String}
  AND slot <= {maxSlot:UInt64}
  AND (slot < {beforeSlot:UInt64} OR (slot = {beforeSlot:UInt64} AND position < {beforePos:Int64}))
  AND (slot > {untilSlot:UInt64} OR (slot = {untilSlot:UInt64} AND position > {untilPos:Int64}))
ORDER BY slot DESC, position DESC
LIMIT 1 BY slot, position
LIMIT {limit:UInt32}`;

/** A signature row as the signature queries read it (getTransactionsForAddress reads the same columns). */
export interface SignatureRow {
  signature: string;
  slot: string;
  position: number;
  err: string | null;
  memo: string | null;
  block_time: string | number | null;
}

/** The rows, each with its block's time where it has none of its own: a transaction a source published before its
 * block meta (a yellowstone source's pieces) was stored without one. */
export async function withBlockTimes(ch: QueryClient, db: string, rows: SignatureRow[]): Promise<SignatureRow[]> {
  const times = await readBlockTimes(
    ch,
    db,
    rows.filter((r) => r.block_time === null).map((r) => u64(r.slot)),
  );
  if (times.size === 0) return rows;
  return rows.map((r) => (r.block_time === null ? { ...r, block_time: times.get(u64(r.slot))?.toString() ?? null } : r));
}

export function shapeSignature(r: SignatureRow, state: ViewsState): Record<string, unknown> {
  const slot = u64(r.slot);
  const finalized = state.head.finalized;
  return {
    signature: r.signature,
    slot: u64Json(slot),
    err: errValue(r.err),
    memo: r.memo,
    blockTime: r.block_time === null ? null : Number(r.block_time),
    confirmationStatus: finalized !== undefined && slot <= finalized ? 'finalized' : 'confirmed',
    transactionIndex: Number(r.position),
  };
}

const UNAVAILABLE = 'Signature information unavailable';

/**
 * A held transaction as its signatures_by_address row (projector/projections/transactions.ts): memos (field 17) in
 * Agave's form, the record's block time (field 18) or else its block's, as `withBlockTimes` reads it; HEAD_MISS
 * when it has none and its block meta is not held.
 */
export function headSignatureRow(h: HeadContext, t: HeldTransaction): SignatureRow | HeadMiss {
  const memos: string[] = [];
  let time: bigint | undefined;
  const f = scanFields(t.bytes);
  for (let i = 0; i < f.length; i += 3) {
    if (f[i] === 17) memos.push(payload(t.bytes, f[i + 1]!, f[i + 2]!).toString('utf8'));
    else if (f[i] === 18) time = BigInt.asIntN(64, readVarint64(t.bytes, f[i + 1]!, f[i + 2]!));
  }
  if (time === undefined) {
    const b = h.cache.block(t.slot);
    if (b === undefined) return HEAD_MISS;
    time = b.meta.blockTime;
  }
  const row = { signature: base58Signature(t), slot: t.slot.toString(), position: t.position, err: t.err, memo: formatMemos(memos) };
  return { ...row, block_time: time === undefined ? null : time.toString() };
}

export const getSignaturesForAddress = defineMethod<GetSignaturesForAddressParams>({
  name: 'getSignaturesForAddress',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetSignaturesForAddress,
  run: async (ctx, p) => {
    const maxSlot = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment, p.minContextSlot);
    let beforeSlot = maxSlot + 1n;
    let beforePos = 0;
    let untilSlot = 0n;
    let untilPos = -1;
    const cursors = { ch: ctx.ch, db: ctx.db, contextSlot: maxSlot, commitment: p.commitment, lostForkUnseen: false };
    // One read for both; `before` is checked first, as Agave does.
    const named = [p.before, p.until].filter((s): s is string => s !== undefined);
    const located = await locateSignatures(cursors, named);
    if (p.before !== undefined) {
      const b = located[0]!;
      beforeSlot = b.slot;
      beforePos = Number(b.position);
    }
    if (p.until !== undefined) {
      const u = located[named.length - 1]!;
      untilSlot = u.slot;
      untilPos = Number(u.position);
    }
    const rows = await queryRows<SignatureRow>(ctx.ch, SIGNATURES_SQL, {
      db: ctx.db,
      address: p.address,
      maxSlot,
      beforeSlot,
      beforePos,
      untilSlot,
      untilPos,
      limit: p.limit,
    });
    return (await withBlockTimes(ctx.ch, ctx.db, rows)).map((r) => shapeSignature(r, ctx.state));
  },
  fromHead: (h, p) => {
    // A page after a cursor is the views' (they locate it, and it reaches back past what the cache holds).
    if (p.before !== undefined || p.until !== undefined) return HEAD_MISS;
    const maxSlot = contextSlot({ unavailableMessage: UNAVAILABLE }, h.state, p.commitment, p.minContextSlot);
    const held = h.cache.transactionsWith(Buffer.from(bs58.decode(p.address)), maxSlot, p.limit);
    if (held === undefined) return HEAD_MISS;
    const rows: SignatureRow[] = [];
    for (const t of held) {
      const r = headSignatureRow(h, t);
      if (r === HEAD_MISS) return HEAD_MISS;
      rows.push(r);
    }
    return rows.map((r) => shapeSignature(r, h.state));
  },
});
