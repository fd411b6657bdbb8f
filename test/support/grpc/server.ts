// The api's gRPC host for integration tests, wired as the role wiring does it (cli/roles.ts): the test's
// Kafka clients, one live layer on them, stream.Stream and geyser.Geyser built on it, the host serving
// both. The live layer is this helper's (closed with the server); the Kafka clients stay the test's.
import type { ClickHouseClient } from '@clickhouse/client';
import type { Logger } from 'pino';
import { DEFAULT_FILTER_LIMITS, type FilterLimits } from '../../../api/filters/index.js';
import { DEFAULT_GEYSER_LIMITS, type GeyserFilterLimits } from '../../../api/filters/from-geyser.js';
import { geyserService } from '../../../api/grpc/geyser/service.js';
import type { CompressionPolicy } from '../../../api/grpc/compression.js';
import { startGrpc } from '../../../api/grpc/server.js';
import { streamService } from '../../../api/grpc/stream/service.js';
import { clickHouseViews, LiveLayer, type LiveRead } from '../../../api/live/index.js';
import type { Kafka } from '../../../platform/kafka/index.js';
import type { TopicKind, TopicNames } from '../../../schemas/topics.js';

export interface TestGrpcOptions {
  kafka: Kafka;
  topics: TopicNames;
  /** ClickHouse with the projector's views (slot_offsets, for from_slot); without it replays scan from the log start. */
  ch?: ClickHouseClient;
  database: string;
  host: string;
  port: number;
  authToken?: string;
  pingIntervalMs: number;
  limits?: FilterLimits;
  geyserLimits?: GeyserFilterLimits;
  queueSize: number;
  liveRead?: LiveRead;
  /** The topics the live layer reads (LiveLayerOptions.kinds); default every stream topic. */
  liveKinds?: readonly TopicKind[];
  maxReplays?: number;
  /** Response compression (the host's default: 'zstd'). */
  compress?: CompressionPolicy;
  log: Logger;
}

export interface TestGrpc {
  port: number;
  live: LiveLayer;
  /** The newest slot the live tail has seen. */
  chainTip(): bigint | undefined;
  /** Stops or restarts reading the live feed; streams stay open and resume where it stopped. */
  setLivePaused(paused: boolean): void;
  /** The server, then its live layer. */
  close(): Promise<void>;
}

export async function startTestGrpc(o: TestGrpcOptions): Promise<TestGrpc> {
  const live = await LiveLayer.start({
    kafka: o.kafka,
    topics: o.topics,
    views: o.ch ? clickHouseViews(o.ch, o.database) : undefined,
    pingIntervalMs: o.pingIntervalMs,
    read: o.liveRead,
    kinds: o.liveKinds,
    maxReplays: o.maxReplays,
    log: o.log,
  });
  const services = [
    streamService({ live, limits: o.limits ?? DEFAULT_FILTER_LIMITS, queueSize: o.queueSize, log: o.log }),
    geyserService({ live, limits: o.geyserLimits ?? DEFAULT_GEYSER_LIMITS, queueSize: o.queueSize, log: o.log }),
  ];
  const server = await startGrpc({ services, host: o.host, port: o.port, authToken: o.authToken, compress: o.compress, log: o.log }).catch(
    async (err: unknown) => {
      await live.close();
      throw err;
    },
  );
  let closed = false;
  return {
    port: server.port,
    live,
    chainTip: () => live.chainTip(),
    setLivePaused: (paused) => live.setPaused(paused),
    close: async () => {
      if (closed) return;
      closed = true;
      await server.close();
      await live.close();
    },
  };
}
