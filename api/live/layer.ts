// The live layer of one api process, built once by the role wiring and shared by every streaming
// transport (stream.Stream, geyser.Geyser, PubSub): ONE Kafka reader (LiveTail), ONE hub (filter index,
// statuses, chain state, ping timer), and sessions opened on them.
import type { Logger } from 'pino';
import type { Kafka, OffsetMap } from '../../platform/kafka/index.js';
import { cursorsTopic, type TopicKind, type TopicNames } from '../../schemas/topics.js';
import type { UpstreamVersion } from '../../schemas/codec.js';
import { CursorStore } from './cursor-store.js';
import type { StreamViews } from './stream-views.js';
import type { ChainState } from './chain-state.js';
import { Hub, type LiveConsumer } from './hub.js';
import { LiveTail, type LiveRead } from './live-tail.js';
import { LiveSession, type SessionDeps, type SessionSink } from './session.js';
import { DEFAULT_MAX_REPLAYS, ReplayLimit } from './replay-limit.js';

export interface LiveLayerOptions {
  kafka: Kafka;
  topics: TopicNames;
  /** The projector's views as streams need them (stream-views.ts: ClickHouse, or the engine process over its
   * internal endpoint); without them replays scan from the log start and snapshots are unavailable. */
  views?: StreamViews;
  pingIntervalMs: number;
  /** How the tail reads Kafka (live-tail.ts); default uncommitted. */
  read?: LiveRead;
  /** The topics the tail reads (the slots topic among them); default every stream topic. A stream asking for another
   * ends with UNAVAILABLE naming it (session.ts). */
  kinds?: readonly TopicKind[];
  /** from_slot replays this process runs at once (replay-limit.ts); default DEFAULT_MAX_REPLAYS. */
  maxReplays?: number;
  /** Replication of the cursors topic if the layer has to create it (the role wiring creates it first); default 1. */
  cursorsReplication?: number;
  log: Logger;
}

export class LiveLayer {
  private closed = false;

  private constructor(
    private readonly deps: SessionDeps,
    readonly hub: Hub,
    private readonly tail: LiveTail,
    /** The durable stream cursors (cursor-store.ts), shared by every transport; opened on first use. */
    readonly cursors: CursorStore,
  ) {}

  static async start(o: LiveLayerOptions): Promise<LiveLayer> {
    const hub = new Hub({ pingIntervalMs: o.pingIntervalMs });
    const tail = await LiveTail.start({ kafka: o.kafka, topics: o.topics, kinds: o.kinds, sink: hub, log: o.log, read: o.read }).catch(
      (err: unknown) => {
        hub.close();
        throw err;
      },
    );
    const replays = new ReplayLimit(o.maxReplays ?? DEFAULT_MAX_REPLAYS);
    const cursors = new CursorStore({
      kafka: o.kafka,
      topic: cursorsTopic(o.topics),
      replicationFactor: o.cursorsReplication ?? 1,
      log: o.log,
    });
    return new LiveLayer({ hub, tail, kafka: o.kafka, topics: o.topics, views: o.views, replays, log: o.log }, hub, tail, cursors);
  }

  /** A session for one stream or subscription; `bufferLimit` bounds the live updates waiting for a replay. */
  openSession(sink: SessionSink, o: { bufferLimit: number; trackStatuses?: boolean }): LiveSession {
    return new LiveSession(this.deps, sink, o.bufferLimit, o.trackStatuses ?? false);
  }

  get chain(): ChainState {
    return this.hub.chain;
  }

  get topics(): TopicNames {
    return this.deps.topics;
  }

  get kafka(): Kafka {
    return this.deps.kafka;
  }

  /** The views (when the process has them): SubscribeReplayInfo reads slot_offsets through them. */
  get views(): StreamViews | undefined {
    return this.deps.views;
  }

  /** Hands every event the tail reads from now on to `c` as well (the JSON-RPC head cache). */
  addConsumer(c: LiveConsumer): void {
    this.hub.addConsumer(c);
  }

  /**
   * The tail has handed over nothing yet and stands at the start of every topic: a consumer added in the same
   * synchronous step sees every record there is.
   */
  readsFromStart(): boolean {
    if (this.tail.handedOver > 0) return false;
    for (const [, , at] of this.tail.positions()) if (at > 0n) return false;
    return true;
  }

  /** The newest slot the live tail has seen (JSON-RPC's "are my views behind" check). */
  chainTip(): bigint | undefined {
    return this.tail.chainTip();
  }

  /** The upstream node's version as the live tail last read it (JSON-RPC's getVersion and contexts). */
  upstreamVersion(): UpstreamVersion | undefined {
    return this.tail.upstreamVersion();
  }

  /** The offsets the live tail hands over next. */
  positions(): OffsetMap {
    return this.tail.positions();
  }

  /** Stops or restarts reading (sessions stay open; nothing is skipped): for benchmarks and maintenance. */
  setPaused(paused: boolean): void {
    this.tail.setPaused(paused);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.hub.close();
    await this.cursors.close();
    await this.tail.stop();
  }
}
