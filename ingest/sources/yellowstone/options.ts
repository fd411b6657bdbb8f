// The yellowstone source's options (index.ts builds them from the config).
import type { Logger } from '../../../platform/log.js';
import type { SlotStatus } from '../../../schemas/codec.js';
import type { DeadLetterSink } from '../shared/dead-letter-sink.js';
import type { Filters } from './subscription.js';

/** One Yellowstone endpoint and its token. */
export interface Upstream {
  /** http://host:port (plaintext) or https://host[:port] (TLS). */
  url: string;
  xToken?: string;
}

export interface YellowstoneSourceOptions {
  /** One endpoint, or several merged (merged-loop.ts): each update goes out once, from the first to deliver it. */
  upstreams: readonly Upstream[];
  /** With several upstreams: one more than this many slots behind the fastest is dropped and resubscribed. */
  maxLagSlots?: number;
  filters: Filters;
  /** The upstream's JSON-RPC, for epochs and leaders; undefined: blocks without leader, no epoch records. */
  rpc?: { url: string; timeoutMs: number };
  log: Logger;
  /** First reconnect delay; doubles up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** A stream silent this long (Yellowstone pings every few seconds) is taken as dead and reopened. */
  idleMs?: number;
  /** Every slot the upstream announces (statuses, block meta), for the lag (ingest/sources/shared/lag.ts). */
  onUpstreamSlot?: (slot: bigint) => void;
  /** Where updates the conversion rejects go (the dead-letter topic); without, they are logged only. */
  deadLetters?: DeadLetterSink;
  /** The statuses Kafka holds for slots from `fromSlot` on (published-statuses.ts): on a restart the source
   * replays recent slots and publishes the confirmed/finalized statuses that arrived while it was down. */
  publishedStatuses?: (fromSlot: bigint) => Promise<ReadonlyMap<bigint, ReadonlySet<SlotStatus>>>;
}
