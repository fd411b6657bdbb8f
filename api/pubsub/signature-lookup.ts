// signatureSubscribe's "the transaction already reached the commitment: notify at once" (behaviour.md):
// where the views place the signature, read by the query getSignatureStatuses answers from
// (api/views/signature-statuses.ts, with the rooted history searched), so both endpoints agree on where a
// transaction stands. Its query passes the views' admission control with the connection's share, and
// is cancelled when the subscription goes (issue 18, item 9): a client dropping subscriptions at once
// leaves nothing queued in the engine.
import type { ClickHouseClient } from '@clickhouse/client';
import type { QueryAdmission } from '../views/admission.js';
import { AdmittedQueries } from '../views/query.js';
import { readSignatureStatuses, statusHeads } from '../views/signature-statuses.js';
import { ViewsStateCache } from '../views/state.js';
import type { SignatureLookup } from './subscription.js';

export function viewsSignatureLookup(ch: ClickHouseClient, db: string, admission: QueryAdmission): SignatureLookup {
  const state = new ViewsStateCache(ch, db);
  return (signature, client, signal) => {
    // Admitted now, before anything is awaited: a connection over its share has its subscribe refused.
    const admitted = admission.slot(client, signal);
    return (async () => {
      const release = await admitted;
      try {
        // No processed slot in the views yet: nothing can be there (getSignatureStatuses answers -32007).
        const heads = statusHeads(await state.get());
        if (heads === undefined) return undefined;
        // The admitted place covers the look-up; its own queries pass through it (not a second time).
        const queries = new AdmittedQueries(ch, undefined, client, signal);
        const [s] = await readSignatureStatuses(queries, db, [signature], heads, true);
        return s === undefined ? undefined : { slot: s.slot, err: s.err, level: s.level };
      } finally {
        release();
      }
    })();
  };
}
