// signatureSubscribe's "the transaction already reached the commitment: notify at once" (behaviour.md):
// the answer getSignatureStatuses gives (api/jsonrpc/methods/getSignatureStatuses.ts, with
// searchTransactionHistory), read through that very method so both endpoints agree on where a
// transaction stands.
import type { ClickHouseClient } from '@clickhouse/client';
import { Commitment } from '../filters/index.js';
import { RawJson } from '../jsonrpc/json.js';
import { getSignatureStatuses } from '../jsonrpc/methods/getSignatureStatuses.js';
import { ViewsStateCache } from '../jsonrpc/state.js';
import type { SignatureLookup } from './subscription.js';

interface Status {
  slot: number | RawJson;
  err: RawJson | null;
  confirmationStatus: 'processed' | 'confirmed' | 'finalized';
}

const LEVEL = { processed: Commitment.processed, confirmed: Commitment.confirmed, finalized: Commitment.finalized } as const;
const num = (v: number | RawJson): bigint => BigInt(typeof v === 'number' ? v : v.text);

export function viewsSignatureLookup(ch: ClickHouseClient, db: string, apiVersion: string): SignatureLookup {
  const state = new ViewsStateCache(ch, db);
  return async (signature) => {
    const ctx = { ch, db, state: await state.get(), apiVersion, health: () => Promise.resolve({ kind: 'unknown' as const }) };
    const params = getSignatureStatuses.parse([[signature], { searchTransactionHistory: true }]);
    const answer = (await getSignatureStatuses.run(ctx, params)) as { value: (Status | null)[] };
    const s = answer.value[0];
    if (!s) return undefined;
    return { slot: num(s.slot), err: s.err === null ? null : s.err.text, level: LEVEL[s.confirmationStatus] };
  };
}
