// The topics a subscription's replay reads (replay.ts): the slots topic always (statuses, end markers, block meta),
// and each data topic only when a filter takes its records. A SubscribeParsed replay then reads the slots and the
// parsed topic, not the chain topics its updates were made of (3.5 records per pump transaction on simulated
// traffic: bench/README.md "SubscribeParsed"). Blocks are assembled from transactions, account writes and entries.
// Pure.
import type { CompiledSubscription } from '../filters/index.js';
import type { TopicKind } from '../../schemas/topics.js';

export function readKinds(sub: CompiledSubscription): TopicKind[] {
  const blocks = sub.blocks.length > 0;
  const kinds: TopicKind[] = ['slots'];
  if (blocks || sub.transactions.length > 0) kinds.push('transactions');
  if (blocks || sub.accounts.length > 0) kinds.push('accounts');
  if (blocks || sub.entry.length > 0) kinds.push('entries');
  if (sub.parsed.length > 0) kinds.push('parsed');
  return kinds;
}
