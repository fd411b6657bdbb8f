// Slotstream A of the relay test: the simulator's ingest (in this process, paced so B follows it live) and
// the api's gRPC server, which serves geyser.Geyser from A's topics (no projector, no ClickHouse: a from_slot
// replay then scans the topics from their log start, which for a test's few hundred slots is quick).
import type { Logger } from 'pino';
import { connectKafka } from '../../../cli/infrastructure.js';
import { startTestGrpc, type TestGrpc } from '../grpc/server.js';
import { startIngest } from '../../../ingest/run.js';
import { makeConfig, type Config } from '../../../cli/config.js';
import type { Kafka } from '../../../platform/kafka/index.js';
import { topicNames, type TopicNames } from '../../../schemas/topics.js';
import { testBrokers } from '../harness/kafka.js';
import { ingestSection } from '../../../cli/config-sections.js';

/** The simulator's options in the config's names (everything but maxSlots, which each run sets). */
export type SimConfig = Pick<
  Config,
  'seed' | 'slotMs' | 'tps' | 'skipRate' | 'deadRate' | 'slotsPerEpoch' | 'validators' | 'fast' | 'simEntries' | 'partitions'
>;

export class SlotstreamA {
  readonly topics: TopicNames;
  private api: TestGrpc | undefined;

  constructor(
    private readonly kafka: Kafka,
    readonly prefix: string,
    private readonly sim: SimConfig,
    private readonly log: Logger,
  ) {
    this.topics = topicNames(prefix);
  }

  /** The geyser.Geyser URL while the api runs. */
  get url(): string {
    if (!this.api) throw new Error('slotstream A: api not running');
    return `http://127.0.0.1:${this.api.port}`;
  }

  async startApi(): Promise<void> {
    this.api = await startTestGrpc({
      kafka: this.kafka,
      topics: this.topics,
      database: 'unused',
      host: '127.0.0.1',
      port: 0,
      queueSize: 100_000,
      log: this.log,
      pingIntervalMs: 1000,
    });
  }

  async stopApi(): Promise<void> {
    await this.api?.close();
    this.api = undefined;
  }

  config(maxSlots: number): Config {
    return makeConfig('ingest', {
      ...this.sim,
      source: 'sim',
      maxSlots,
      kafkaBrokers: testBrokers(),
      topicPrefix: this.prefix,
      retentionMs: 3_600_000,
      ingestName: 'sim',
    });
  }

  /** Runs the simulator's ingest until slot maxSlots-1 is out (resuming where A's topics stop). */
  async ingest(maxSlots: number): Promise<void> {
    const cfg = this.config(maxSlots);
    const infra = await connectKafka(cfg, this.log);
    try {
      const h = await startIngest(ingestSection(cfg), this.log, infra);
      await h.done;
    } finally {
      await infra.kafka.close();
    }
  }
}
