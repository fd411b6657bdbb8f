// What a compiled gRPC subscription asks for, as the per-key limits count it (pure): its named filters (every
// kind together) and its account keys (every key list of every filter; a cuckoo filter counts the keys it can hold, 4 a bucket).
import type { CompiledSubscription } from '../filters/index.js';
import type { CuckooSet } from '../filters/cuckoo.js';
import type { SubscriptionShape } from './access.js';

/** A cuckoo filter's capacity: its buckets of 4 fingerprints (how many keys it holds is not in it). */
const cuckooKeys = (c: CuckooSet | undefined): number => (c === undefined ? 0 : c.bucketCount * 4);

export function subscriptionShape(sub: CompiledSubscription, tip: bigint | undefined): SubscriptionShape {
  const filters =
    sub.transactions.length +
    sub.accounts.length +
    sub.slots.length +
    sub.blocks.length +
    sub.blocksMeta.length +
    sub.entry.length +
    sub.parsed.length;
  let keys = 0;
  for (const t of sub.transactions)
    keys += t.accountInclude.size + t.accountExclude.size + t.accountRequired.size + cuckooKeys(t.accountIncludeCuckoo);
  for (const a of sub.accounts) keys += a.account.size + a.owner.size + cuckooKeys(a.accountCuckoo);
  for (const b of sub.blocks) keys += b.accountInclude.size + cuckooKeys(b.accountIncludeCuckoo);
  return { filters, keys, ...(sub.fromSlot !== undefined ? { fromSlot: sub.fromSlot } : {}), ...(tip !== undefined ? { tip } : {}) };
}
