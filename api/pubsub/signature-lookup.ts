// signatureSubscribe's "the transaction already reached the commitment: notify at once" (behaviour.md):
// where the views place the signature, read by the query getSignatureStatuses answers from
// (api/views/signature-statuses.ts, with the rooted history searched), so both endpoints agree on where a
// transaction stands. The views are the process's StreamViews (api/live/stream-views.ts): ClickHouse, where the
// look-up passes the views' admission control with the connection's share and is cancelled when the
// subscription goes (issue 18, item 9), or the engine process over its internal endpoint (issue 33).
import type { StreamViews } from '../live/index.js';
import type { SignatureLookup } from './subscription.js';

export function viewsSignatureLookup(views: StreamViews): SignatureLookup {
  return (signature, client, signal) => views.signatureStatus(signature, client, signal);
}
