// Issue 18, item 8, on the PubSub WebSocket: a message nested 12,000 levels deep (24 KB, under the message
// limit) is refused at parse time with -32700 naming the depth limit, a 100-level value where a parameter is
// expected gets -32602 naming it, no error-level line is logged, and the connection stays usable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafka, type Kafka } from '../../platform/kafka/index.js';
import { topicNames } from '../../schemas/topics.js';
import { capturedLog } from '../../test/support/harness/captured-log.js';
import { testBrokers, uniquePrefix, waitFor } from '../../test/support/harness/kafka.js';
import { nestedArrayText } from '../../test/support/jsonrpc/hostile-json.js';
import { RawClient } from '../../test/support/pubsub/raw-client.js';
import { LiveLayer } from '../live/index.js';
import { startPubSub, type PubSubServer } from './server.js';

const PROGRAM = '11111111111111111111111111111111';
const SIG = '5'.repeat(88);

describe('PubSub: deeply nested JSON', () => {
  const topics = topicNames(uniquePrefix('pubsub-deep'));
  const captured = capturedLog();
  let kafka: Kafka;
  let live: LiveLayer;
  let server: PubSubServer;
  let client: RawClient;

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'pubsub-deep-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 1, retentionMs: -1, replicationFactor: 1 });
    live = await LiveLayer.start({ kafka, topics, pingIntervalMs: 10_000, log: captured.log });
    server = await startPubSub({
      live,
      host: '127.0.0.1',
      port: 0,
      maxConnections: 4,
      maxSubscriptionsPerConnection: 10,
      maxMessageBytes: 64 * 1024,
      maxBufferedBytes: 1024 * 1024,
      pingIntervalMs: 10_000,
      log: captured.log,
    });
    client = await RawClient.connect(`ws://127.0.0.1:${server.port}/`);
  });
  afterAll(async () => {
    client?.close();
    await server?.close();
    await live?.close();
    await kafka?.close();
  });

  const cases = (depth: number): [string, string, string][] => [
    [
      'programSubscribe',
      `["${PROGRAM}",{"filters":[{"memcmp":{"offset":0,"bytes":"1","encoding":${nestedArrayText(depth)}}}]}]`,
      'filters[0].memcmp.encoding',
    ],
    ['programSubscribe', `["${PROGRAM}",{"encoding":${nestedArrayText(depth)}}]`, 'encoding'],
    ['signatureSubscribe', `["${SIG}",{"commitment":${nestedArrayText(depth)}}]`, 'commitment'],
  ];
  const message = (id: number, method: string, params: string) => `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${params}}`;

  it('12,000 levels: -32700 naming the depth limit; 100 levels: -32602 naming the parameter; nothing logged as an error', async () => {
    for (const [method, params] of cases(12_000)) {
      const before = client.unmatched.length;
      const text = message(1, method, params);
      expect(text.length).toBeGreaterThan(24_000);
      client.send(text);
      await waitFor(() => client.unmatched.length > before || undefined, { what: 'the parse error' });
      expect(client.unmatched.at(-1)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32700,
          message: 'Parse error',
          data: "JSON nested more than 127 levels deep (the limit of Agave's parser, serde_json's recursion limit)",
        },
      });
    }
    let id = 10;
    for (const [method, params, param] of cases(100)) {
      const n = ++id;
      client.send(message(n, method, params));
      const r = await waitFor(() => client.answers.get(n), { what: `the answer to ${method} ${param}` });
      expect(r.error.code).toBe(-32602);
      expect(r.error.data.startsWith(`${param}: `), r.error.data).toBe(true);
      expect(r.error.data.length).toBeLessThan(300);
    }
    client.send(message(99, 'slotSubscribe', '[]'));
    expect(typeof (await waitFor(() => client.answers.get(99), { what: 'slotSubscribe' })).result).toBe('number');
    expect(client.closed).toBeUndefined();
    expect(captured.errors()).toEqual([]);
  });
});
