// Issue 18 item 1: a streaming call is open as soon as the server accepted it. The response headers go out
// when the stream opens, so the REAL Yellowstone client's `await client.subscribe()` resolves (it resolves on the
// headers), and grpc-js clients of stream.Stream get their 'metadata' event, with nothing published at all and no
// filter yet (server pings an hour apart): a stream whose headers waited for its first message would never open
// here. The deadline is against a hang, not a bound; how fast they open (200 ms asked) is bench/stream-latency.ts's
// figure (issue 32).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafka, type Kafka } from '../../platform/kafka/index.js';
import { silentLogger } from '../../platform/log.js';
import { topicNames } from '../../schemas/topics.js';
import { testBrokers, uniquePrefix } from '../../test/support/harness/kafka.js';
import { newClient, type Msg } from '../../test/support/grpc/clients.js';
import { connectGeyser, type GeyserClient } from '../../test/support/geyser/client.js';
import { FAR_PING_MS, openGeyserStreams, openStreamCalls } from '../../test/support/grpc/open-streams.js';
import { startTestGrpc, type TestGrpc } from '../../test/support/grpc/server.js';

/** Against a hang on a busy machine: far beyond any opening, far below the first ping (an hour). */
const DEADLINE_MS = 60_000;

describe('streams open at once (response headers sent when the stream opens)', () => {
  const topics = topicNames(uniquePrefix('grpc-open'));
  let kafka: Kafka;
  let server: TestGrpc;
  let geyser: GeyserClient;
  let client: Msg;

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'grpc-open-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 1, retentionMs: -1, replicationFactor: 1 });
    server = await startTestGrpc({
      kafka,
      topics,
      database: 'unused',
      host: '127.0.0.1',
      port: 0,
      queueSize: 1000,
      log: silentLogger,
      pingIntervalMs: FAR_PING_MS,
    });
    geyser = await connectGeyser(server.port);
    client = newClient(server.port);
  });

  afterAll(async () => {
    client?.close();
    await server?.close();
    await kafka?.close();
  });

  it("geyser.Geyser: the real Yellowstone client's subscribe() resolves with nothing published, for 20 streams opened together", async () => {
    const opened = await openGeyserStreams(geyser, 20, DEADLINE_MS);
    expect(opened).toHaveLength(20);
    for (const o of opened) o.destroy();
  });

  it('stream.Stream Subscribe and SubscribeParsed: the response headers arrive with nothing published', async () => {
    const opened = await openStreamCalls(client, 10, DEADLINE_MS);
    expect(opened.ms).toHaveLength(20);
    opened.cancel();
  });
});
