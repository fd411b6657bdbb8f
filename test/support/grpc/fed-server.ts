// The gRPC host of the tests, fed by the run's broker: Kafka clients, the test's topics created, a publisher for
// its events and the host (server.ts) on them; what most gRPC integration files set up first.
import { createKafka, type Kafka } from '../../../platform/kafka/index.js';
import { silentLogger } from '../../../platform/log.js';
import type { TopicNames } from '../../../schemas/topics.js';
import { testBrokers } from '../harness/kafka.js';
import { TestPublisher } from './clients.js';
import { startTestGrpc, type TestGrpc, type TestGrpcOptions } from './server.js';

export interface FedGrpcOptions extends Partial<Omit<TestGrpcOptions, 'kafka' | 'topics'>> {
  clientId: string;
  topics: TopicNames;
  partitions: number;
  pingIntervalMs: number;
}

export interface FedGrpc {
  kafka: Kafka;
  pub: TestPublisher;
  server: TestGrpc;
}

/** Defaults: loopback on a free port, a 1,000-update queue, no ClickHouse ('unused'), a silent log. */
export async function startFedGrpc(o: FedGrpcOptions): Promise<FedGrpc> {
  const { clientId, partitions, ...grpc } = o;
  const kafka = createKafka({ brokers: testBrokers(), clientId });
  await kafka.admin().ensureTopics(o.topics, { partitions, retentionMs: -1, replicationFactor: 1 });
  const pub = await TestPublisher.start(kafka, o.topics);
  const server = await startTestGrpc({
    database: 'unused',
    host: '127.0.0.1',
    port: 0,
    queueSize: 1000,
    log: silentLogger,
    ...grpc,
    kafka,
  });
  return { kafka, pub, server };
}
