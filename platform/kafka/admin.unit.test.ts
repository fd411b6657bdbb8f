// The admin's steps against a scripted stand-in for librdkafka's admin client (only the calls the steps
// make): creating what is missing, waiting for leaders, closing once. No broker.
import type { IAdminClient, TopicDescription } from '@confluentinc/kafka-javascript';
import { describe, expect, it } from 'vitest';
import { topicNames } from '../../schemas/topics.js';
import { NativeAdmin } from './admin.js';

const topics = topicNames('t');
const names = Object.values(topics);
const opts = { partitions: 2, retentionMs: 1_000, replicationFactor: 1 };

/** An admin client holding `existing` topics; a created topic gets its leaders after `leaderAfter` descriptions. */
function scripted(existing: string[], leaderAfter = 0) {
  const have = new Map<string, number>(existing.map((t) => [t, 2]));
  const created: string[] = [];
  let describes = 0;
  let disconnects = 0;
  const offsetRequests: number[] = [];
  const client = {
    listTopics: (_o: object, cb: (err: unknown, t?: string[]) => void) => cb(null, [...have.keys()]),
    createTopic: (t: { topic: string; num_partitions: number }, _ms: number, cb: (err: unknown) => void) => {
      created.push(t.topic);
      if (have.has(t.topic)) return cb({ message: 'Topic already exists', code: 36 });
      have.set(t.topic, t.num_partitions);
      cb(null);
    },
    describeTopics: (ts: string[], _o: object, cb: (err: unknown, d?: TopicDescription[]) => void) => {
      describes++;
      const leader = describes > leaderAfter ? { id: 1 } : undefined;
      cb(
        null,
        ts.map(
          (name) =>
            ({
              name,
              error: undefined,
              partitions: Array.from({ length: have.get(name) ?? 0 }, (_, partition) => ({ partition, leader })),
            }) as unknown as TopicDescription,
        ),
      );
    },
    listOffsets: (asked: { topic: string; partition: number }[], _o: object, cb: (err: unknown, r?: object[]) => void) => {
      offsetRequests.push(asked.length);
      cb(
        null,
        asked.map(({ topic, partition }) => ({ topic, partition, offset: 100 * names.indexOf(topic) + partition })),
      );
    },
    disconnect: () => void disconnects++,
  } as unknown as IAdminClient;
  return { client, created, describes: () => describes, disconnects: () => disconnects, have, offsetRequests };
}

describe('the Kafka admin', () => {
  it('creates only the missing topics, waits until every partition has a leader, and reports a partition count that differs', async () => {
    const c = scripted([topics.slots], 3);
    const told: object[] = [];
    const admin = new NativeAdmin({ brokers: ['x:1'], clientId: 'test' }, c.client);
    c.have.set(topics.slots, 5);
    await admin.ensureTopics(topics, { ...opts, log: (_m, extra) => void told.push(extra ?? {}) });
    expect(c.created.sort()).toEqual(names.filter((n) => n !== topics.slots).sort());
    // Three descriptions without leaders, then one with.
    expect(c.describes()).toBe(4);
    expect(told).toEqual([{ topic: topics.slots, partitions: 5, configured: 2 }]);
  });

  it("reads every topic's end offsets in one description and one offsets request (the projector's heads ask several times a second)", async () => {
    const c = scripted(names);
    const admin = new NativeAdmin({ brokers: ['x:1'], clientId: 'test' }, c.client);
    const ends = await admin.endOffsets(names);
    expect(c.describes()).toBe(1);
    expect(c.offsetRequests).toEqual([names.length * 2]);
    for (const [i, topic] of names.entries()) for (const p of [0, 1]) expect(ends.get(topic, p)).toBe(BigInt(100 * i + p));
    await expect(admin.endOffsets([topics.slots, 'missing'])).rejects.toThrow(/topic missing has no partitions/);
  });

  it('takes a topic created meanwhile by someone else as created', async () => {
    const c = scripted([]);
    const racing = {
      ...c.client,
      listTopics: (_o: object, cb: (err: unknown, t?: string[]) => void) => cb(null, []),
    } as unknown as IAdminClient;
    c.have.set(topics.accounts, 2);
    await new NativeAdmin({ brokers: ['x:1'], clientId: 'test' }, racing).ensureTopics(topics, opts);
    expect(c.created).toContain(topics.accounts);
  });

  it('asks again when a creation fails on a passing local error, and takes the topic its first try created as created', async () => {
    // A 3-node cluster on a busy machine: librdkafka dropped the broker handle the request went out on (CI,
    // launcher.int.test.ts) after the broker had created the topic.
    const c = scripted([]);
    let failures = 0;
    const flaky = {
      ...c.client,
      createTopic: (t: { topic: string; num_partitions: number }, ms: number, cb: (err: unknown) => void) => {
        if (t.topic !== topics.slots || failures > 0) return (c.client.createTopic as unknown as typeof flaky.createTopic)(t, ms, cb);
        failures++;
        c.have.set(t.topic, t.num_partitions);
        cb({ message: 'Local: Broker handle destroyed without termination', code: -178 });
      },
    } as unknown as IAdminClient & {
      createTopic: (t: { topic: string; num_partitions: number }, ms: number, cb: (err: unknown) => void) => void;
    };
    await new NativeAdmin({ brokers: ['x:1'], clientId: 'test' }, flaky).ensureTopics(topics, opts);
    expect(failures).toBe(1);
    expect(c.created.filter((t) => t === topics.slots)).toEqual([topics.slots]);
    expect([...c.have.keys()].sort()).toEqual([...names].sort());
  });

  it('closes once', async () => {
    const c = scripted([]);
    const admin = new NativeAdmin({ brokers: ['x:1'], clientId: 'test' }, c.client);
    await admin.close();
    await admin.close();
    expect(c.disconnects()).toBe(1);
  });
});
