// Pure: what makes two subscribe requests the same subscription. Agave (rpc/src/rpc_subscription_tracker.rs,
// SubscriptionControl::subscribe) keys its subscriptions by their parsed params (method, every parameter with its
// default applied, commitment) and hands an identical request the id it already gave; on one connection the second
// request then adds nothing (rpc_pubsub.rs keeps one entry per id), so every notification goes out once, and one
// unsubscribe ends it. The key is built from the parsed request, so spellings that parse alike (a commitment alias,
// an omitted default, base58 or base64 memcmp bytes) are the same subscription, as in Agave.
import bs58 from 'bs58';
import type { ParsedSubscribe, SubscriptionKind } from './params.js';

/** A canonical text of the request: keys as base58, u64s as decimal text, members in the parser's fixed order. */
export function subscriptionKey(kind: SubscriptionKind, parsed: ParsedSubscribe): string {
  const parts = [kind, parsed.request, parsed.view ?? null, parsed.options ?? null, parsed.snapshot === true, parsed.inert ?? null];
  // The holder's own value, not `v`: JSON.stringify has already replaced a Buffer by its toJSON() form in `v`.
  return JSON.stringify(parts, function (this: Record<string, unknown>, k: string, v: unknown) {
    const raw = this[k];
    return raw instanceof Uint8Array ? bs58.encode(raw) : typeof raw === 'bigint' ? raw.toString() : v;
  });
}
