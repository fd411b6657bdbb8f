// A stream process (issue 33, item 1): the live layer, gRPC (stream.Stream, geyser.Geyser) and PubSub, reading
// Kafka itself and never opening the engine: the views come from the engine's internal endpoint, a ClickHouse
// server, or nowhere (cli/wire-api.ts wireStreamViews). `slotstream api --serve streams` runs one; `slotstream all`
// runs N as cluster workers (cli/stream-workers.ts).
import type { Config } from './config.js';
import { configSections } from './config-sections.js';
import type { Logger } from '../platform/log.js';
import { connectKafkaSection } from './infrastructure.js';
import type { StopList } from './stop-list.js';
import { wireEdge, wireStreamViews, wireStreams, type StreamPorts } from './wire-api.js';

/** Starts the stream servers of `config` (its Kafka brokers must be set); `tag` names the process to the engine. */
export async function startStreamProcess(config: Config, tag: string, stops: StopList, log: Logger): Promise<StreamPorts> {
  const sections = configSections(config);
  const infra = await connectKafkaSection(sections.kafka, log, `slotstream-streams-${tag}`, 'api --serve streams');
  stops.add('kafka clients', () => infra.kafka.close());
  const views = await wireStreamViews(sections.api, sections.clickhouse, tag, stops, log);
  const { grpc, pubsub } = await wireStreams(sections.api, views, infra, await wireEdge(sections.api, stops, log), stops, log);
  return { grpc, pubsub };
}
