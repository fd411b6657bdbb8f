// signatureSubscribe's "the transaction already reached the commitment: notify at once" (behaviour.md):
// the answer getSignatureStatuses gives (api/jsonrpc/methods/getSignatureStatuses.ts, with
// searchTransactionHistory), read through that very method so both endpoints agree on where a
// transaction stands. Its query passes the JSON-RPC's admission control with the connection's share, and
// is cancelled when the subscription goes (issue 18, item 9): a client dropping subscriptions at once
// leaves nothing queued in the engine.
import type { ClickHouseClient } from '@clickhouse/client';
import { Commitment } from '../filters/index.js';
import { RawJson } from '../solana-json/json.js';
import type { QueryAdmission } from '../views/admission.js';
import { getSignatureStatuses } from '../jsonrpc/methods/getSignatureStatuses.js';
import { AdmittedQueries } from '../views/query.js';
import { ViewsStateCache } from '../views/state.js';
import type { SignatureLookup } from './subscription.js';

interface Status {
  slot: number | RawJson;
  err: RawJson | null;
  confirmationStatus: 'processed' | 'confirmed' | 'finalized';
}

const LEVEL = { processed: Commitment.processed, confirmed: Commitment.confirmed, finalized: Commitment.finalized } as const;
const num = (v: number | RawJson): bigint => BigInt(typeof v === 'number' ? v : v.text);

export function viewsSignatureLookup(ch: ClickHouseClient, db: string, apiVersion: string, admission: QueryAdmission): SignatureLookup {
  const state = new ViewsStateCache(ch, db);
  return (signature, client, signal) => {
    // Admitted now, before anything is awaited: a connection over its share has its subscribe refused.
    const admitted = admission.slot(client, signal);
    return (async () => {
      const release = await admitted;
      try {
        // The admitted place covers the look-up; its own query passes through it (not a second time).
        const queries = new AdmittedQueries(ch, undefined, client, signal);
        const ctx = { ch: queries, db, state: await state.get(), apiVersion, health: () => Promise.resolve({ kind: 'unknown' as const }) };
        const params = getSignatureStatuses.parse([[signature], { searchTransactionHistory: true }]);
        const answer = (await getSignatureStatuses.run(ctx, params)) as { value: (Status | null)[] };
        const s = answer.value[0];
        if (!s) return undefined;
        return { slot: num(s.slot), err: s.err === null ? null : s.err.text, level: LEVEL[s.confirmationStatus] };
      } finally {
        release();
      }
    })();
  };
}
