// getSignatureStatuses: for up to 256 signatures, where each landed and how far it is confirmed, from the
// transactions-by-signature view, in a context at the processed head (Agave answers from its processed
// bank). Without searchTransactionHistory Agave only looks in its status cache, the last 300 rooted slots
// and what came after; with it, also in the ledger's rooted (finalized) history.
import { RawJson, u64Json } from '../../solana-json/json.js';
import { invalidParam, invalidParams } from '../../solana-json/errors.js';
import { contextSlot, defineMethod, withContext } from '../method.js';
import { optionalBool, parseConfig, parseSignature, positional } from '../../solana-json/params.js';
import { queryRows, u64 } from '../../views/query.js';
import type { ViewsState } from '../../views/state.js';

export const MAX_SIGNATURE_STATUSES = 256;
/** Slots of rooted history Agave's status cache keeps (MAX_CACHE_ENTRIES = MAX_RECENT_BLOCKHASHES). */
export const STATUS_CACHE_SLOTS = 300n;
/** Agave counts confirmations through a vote lockout array of this depth (MAX_LOCKOUT_HISTORY). */
export const MAX_CONFIRMATIONS = 31;

export interface GetSignatureStatusesParams {
  signatures: string[];
  searchTransactionHistory: boolean;
}

export function parseGetSignatureStatuses(params: unknown): GetSignatureStatusesParams {
  const p = positional(params, 1, 2);
  if (!Array.isArray(p[0])) throw invalidParams('signatures: expected an array of base-58 signatures');
  if (p[0].length > MAX_SIGNATURE_STATUSES) throw invalidParam(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`);
  const signatures = p[0].map((s, i) => parseSignature(s, `signatures[${i}]`));
  const config = parseConfig(p[1], 'config');
  return { signatures, searchTransactionHistory: optionalBool(config, 'searchTransactionHistory') ?? false };
}

// Transactions of the asked signatures up to the processed head, leaving out those of slots marked skipped
// (a fork that lost); LIMIT 1 BY drops rows re-delivered before a merge.
const STATUS_SQL = `
SELECT signature, slot, err FROM {db:Identifier}.transactions
WHERE signature IN {sigs:Array(String)} AND slot <= {head:UInt64}
  AND slot NOT IN (
    SELECT slot FROM {db:Identifier}.slot_status
    WHERE status = 3 AND slot IN (SELECT slot FROM {db:Identifier}.transactions WHERE signature IN {sigs:Array(String)}))
LIMIT 1 BY signature`;

// Produced blocks above the finalized head up to the confirmed head, to count confirmations.
const CONFIRMED_BLOCKS_SQL = `
SELECT DISTINCT slot FROM {db:Identifier}.blocks
WHERE slot > {finalized:UInt64} AND slot <= {confirmed:UInt64}
  AND slot NOT IN (SELECT slot FROM {db:Identifier}.slot_status WHERE slot > {finalized:UInt64} AND slot <= {confirmed:UInt64} AND status = 3)`;

interface Found {
  signature: string;
  slot: string;
  err: string | null;
}

type Heads = { processed: bigint; confirmed: bigint; finalized: bigint };

/**
 * Pure: one status. Finalized: no confirmation count (null). Confirmed: 1 plus the blocks confirmed on top
 * of it, at most 31 (a stand-in for Agave's vote-lockout depth, which the views do not hold); processed: 0.
 */
export function shapeStatus(slot: bigint, err: string | null, heads: Heads, confirmedBlocks: readonly bigint[]): unknown {
  const finalized = slot <= heads.finalized;
  const confirmed = slot <= heads.confirmed;
  const confirmations = finalized ? null : confirmed ? Math.min(MAX_CONFIRMATIONS, 1 + confirmedBlocks.filter((b) => b > slot).length) : 0;
  const e = err === null ? null : new RawJson(err);
  return {
    slot: u64Json(slot),
    confirmations,
    status: e === null ? { Ok: null } : { Err: e },
    err: e,
    confirmationStatus: finalized ? 'finalized' : confirmed ? 'confirmed' : 'processed',
  };
}

/** Pure: whether a landed transaction is visible to this request (status cache, or rooted history when searched). */
export function visible(slot: bigint, heads: Heads, searchHistory: boolean): boolean {
  if (searchHistory && slot <= heads.finalized) return true;
  return slot + STATUS_CACHE_SLOTS > heads.finalized;
}

const UNAVAILABLE = 'Signature information unavailable';

function headsOf(state: ViewsState): Heads {
  const processed = contextSlot({ unavailableMessage: UNAVAILABLE }, state, 'processed');
  return { processed, confirmed: state.head.confirmed ?? processed, finalized: state.head.finalized ?? processed };
}

export const getSignatureStatuses = defineMethod<GetSignatureStatusesParams>({
  name: 'getSignatureStatuses',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetSignatureStatuses,
  run: async (ctx, p) => {
    const heads = headsOf(ctx.state);
    const found = new Map<string, Found>();
    if (p.signatures.length > 0) {
      const rows = await queryRows<Found>(ctx.ch, STATUS_SQL, { db: ctx.db, sigs: [...new Set(p.signatures)], head: heads.processed });
      for (const r of rows) if (visible(u64(r.slot), heads, p.searchTransactionHistory)) found.set(r.signature, r);
    }
    let confirmedBlocks: bigint[] = [];
    if ([...found.values()].some((r) => u64(r.slot) > heads.finalized && u64(r.slot) <= heads.confirmed)) {
      const rows = await queryRows<{ slot: string }>(ctx.ch, CONFIRMED_BLOCKS_SQL, { db: ctx.db, finalized: heads.finalized, confirmed: heads.confirmed });
      confirmedBlocks = rows.map((r) => u64(r.slot));
    }
    const value = p.signatures.map((s) => {
      const r = found.get(s);
      return r === undefined ? null : shapeStatus(u64(r.slot), r.err, heads, confirmedBlocks);
    });
    return withContext(heads.processed, ctx.apiVersion, value);
  },
});
