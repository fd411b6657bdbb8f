// getSignatureStatuses: for up to 256 signatures, where each landed and how far it is confirmed, from the
// transactions-by-signature view (../../views/signature-statuses.ts), in a context at the processed head (Agave
// answers from its processed bank), shaped as Agave's TransactionStatus.
import { RawJson, u64Json } from '../../solana-json/json.js';
import { invalidParam, invalidParams, unavailable } from '../../solana-json/errors.js';
import { defineMethod, withContext } from '../method.js';
import { optionalBool, parseConfig, parseSignature, positional } from '../../solana-json/params.js';
import { readSignatureStatuses, statusHeads, statusOf, type SignatureStatus, type StatusHeads } from '../../views/signature-statuses.js';

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
});
