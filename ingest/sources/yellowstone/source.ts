// --source yellowstone: one Yellowstone gRPC subscription at `processed` (slot statuses with interslot
// updates, block meta, and by config transactions, account writes and entries), assembled per slot
// (assembler.ts) into batches in slot order. The connection (TLS or plaintext by URL scheme, x-token,
// keepalive, gzip accepted) is grpc-js's generic client on Yellowstone's service definition (channel.ts); on
// an error or the end of the stream it reconnects with backoff and resumes where history stops, asking
// SubscribeReplayInfo how far back the upstream can go, and names any slots it cannot reach in a gap record
// (subscription-loop.ts). With several upstreams, one subscription per upstream, merged by identity
// (merged-loop.ts over merge.ts).
import type { ChainSource, SlotBatch } from '../../source.js';
import type { YellowstoneSourceOptions } from './options.js';
import { receivesEveryTransaction } from './subscription.js';
import { MergedLoop, upstreamLabel } from './merged-loop.js';
import { SubscriptionLoop } from './subscription-loop.js';
import { yellowstoneMetrics } from './metrics.js';

export { channelOf } from './channel.js';
export type { YellowstoneSourceOptions } from './options.js';

export function createYellowstoneSource(o: YellowstoneSourceOptions): ChainSource {
  const notes = [
    `yellowstone source: ${o.upstreams.map((u) => upstreamLabel(u.url)).join(', ')}${o.upstreams.length > 1 ? ' (merged: each update once, from the first to deliver it)' : ''}, subscribing to slots, block meta${o.filters.streams.map((s) => `, ${s}`).join('')} at processed`,
  ];
  if (!o.rpc) notes.push('yellowstone source: no --rpc-url: blocks go out without leader and no epoch records are published');
  if (!receivesEveryTransaction(o.filters)) {
    notes.push(
      'yellowstone source: transactions are filtered or not subscribed, so slots do not wait for every transaction and block vote counts are 0',
    );
  }
  return {
    notes,
    batches: (opts) => stream(o, opts),
  };
}

/** The loop (and its connection) is made at the first pull, as a generator's body runs: a source asked for
 * batches that are never read opens nothing. */
async function* stream(o: YellowstoneSourceOptions, opts: { afterSlot?: bigint; signal?: AbortSignal }): AsyncGenerator<SlotBatch> {
  const loop =
    o.upstreams.length > 1 ? new MergedLoop(o, opts.afterSlot, opts.signal) : new SubscriptionLoop(o, opts.afterSlot, opts.signal);
  const pieces = yellowstoneMetrics().pieces;
  for await (const b of loop.batches()) {
    if (b.partial) pieces.inc();
    yield b;
  }
}
