// getSignatureStatuses: for up to 256 signatures, where each landed and how far it is confirmed, from the
// transactions-by-signature view (../../views/signature-statuses.ts), in a context at the processed head (Agave
// answers from its processed bank), shaped as Agave's TransactionStatus.
import { RawJson, u64Json } from '../../solana-json/json.js';
import { invalidParam, invalidParams, unavailable } from '../../solana-json/errors.js';
import { defineMethod, withContext } from '../method.js';
import { HEAD_MISS, rawKeyOf, type HeadContext, type HeadMiss } from '../head.js';
import { optionalBool, parseConfig, parseSignature, positional } from '../../solana-json/params.js';
import {
  readSignatureStatuses,
  STATUS_CACHE_SLOTS,
  statusHeads,
  statusOf,
  visible,
  type SignatureStatus,
  type StatusHeads,
} from '../../views/signature-statuses.js';

export const MAX_SIGNATURE_STATUSES = 256;

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

/** Pure: Agave's TransactionStatus of a status. */
export function statusJson(s: SignatureStatus): unknown {
  const e = s.err === null ? null : new RawJson(s.err);
  return {
    slot: u64Json(s.slot),
    confirmations: s.confirmations,
    status: e === null ? { Ok: null } : { Err: e },
    err: e,
    confirmationStatus: s.level,
  };
}

/** Pure: one status as Agave's TransactionStatus. */
export const shapeStatus = (slot: bigint, err: string | null, heads: StatusHeads, confirmedBlocks: readonly bigint[]): unknown =>
  statusJson(statusOf(slot, err, heads, confirmedBlocks));

const UNAVAILABLE = 'Signature information unavailable';

/**
 * The statuses as the head cache holds them, or HEAD_MISS. The views pick any one landing of a signature that
 * landed in several live slots (LIMIT 1 BY): such a signature is left to them. A signature not held is absent
 * only when the status cache window (the rooted slots still visible, and everything after) is held in full;
 * with searchTransactionHistory the whole history must be (the cache read the topics from their start).
 */
function headStatuses(h: HeadContext, p: GetSignatureStatusesParams, heads: StatusHeads): (SignatureStatus | undefined)[] | HeadMiss {
  let confirmedBlocks: bigint[] | undefined;
  const out: (SignatureStatus | undefined)[] = [];
  for (const signature of p.signatures) {
    const landings = h.cache.landings(rawKeyOf(signature));
    const live = landings.filter((t) => t.slot <= heads.processed && !h.cache.isDead(t.slot));
    if (live.length > 1) return HEAD_MISS;
    const t = live[0];
    if (t === undefined) {
      const window = heads.finalized + 1n > STATUS_CACHE_SLOTS ? heads.finalized + 1n - STATUS_CACHE_SLOTS : 0n;
      const from = p.searchTransactionHistory ? 0n : window;
      const held = h.cache.holdsAll(from, heads.processed) || (landings[0] !== undefined && h.cache.allLandingsHeld(landings[0]));
      if (!held) return HEAD_MISS;
      out.push(undefined);
      continue;
    }
    if (!visible(t.slot, heads, p.searchTransactionHistory)) {
      out.push(undefined);
      continue;
    }
    if (t.slot > heads.finalized && t.slot <= heads.confirmed && confirmedBlocks === undefined) {
      const blocks = h.cache.blocksBetween(heads.finalized, heads.confirmed);
      if (blocks === undefined) return HEAD_MISS;
      confirmedBlocks = blocks.map((b) => b.slot);
    }
    out.push(statusOf(t.slot, t.err, heads, confirmedBlocks ?? []));
  }
  return out;
}

export const getSignatureStatuses = defineMethod<GetSignatureStatusesParams>({
  name: 'getSignatureStatuses',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetSignatureStatuses,
  run: async (ctx, p) => {
    const heads = statusHeads(ctx.state);
    if (heads === undefined) throw unavailable(UNAVAILABLE);
    const statuses = await readSignatureStatuses(ctx.ch, ctx.db, p.signatures, heads, p.searchTransactionHistory);
    return withContext(
      heads.processed,
      ctx.apiVersion,
      statuses.map((s) => (s === undefined ? null : statusJson(s))),
    );
  },
  fromHead: (h, p) => {
    const heads = statusHeads(h.state);
    if (heads === undefined) return HEAD_MISS;
    const statuses = headStatuses(h, p, heads);
    if (statuses === HEAD_MISS) return HEAD_MISS;
    return withContext(
      heads.processed,
      h.apiVersion,
      statuses.map((s) => (s === undefined ? null : statusJson(s))),
    );
  },
});
