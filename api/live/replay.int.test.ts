// Live and replay are one path (issue 19): a from_slot replay hands on what the live tail hands on, against a
// real broker. The same records, read the same way (transactions and accounts scanned, decoded on demand), each
// with the partition it was read from, a slot's end marker after the records it counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafka, type Kafka, type Producer } from '../../platform/kafka/index.js';
import { silentLogger } from '../../platform/log.js';
import { SlotStatus } from '../../schemas/gen/events.js';
import { encodeRecord, type ChainEvent } from '../../schemas/codec.js';
import { topicNames } from '../../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from '../../test/support/harness/kafka.js';
import { accountEvent, key, txEvent } from '../../test/support/grpc/clients.js';
import { LiveTail } from './live-tail.js';
import { planReplay, ReplayRun } from './replay.js';
import type { StreamEvent } from './stream-event.js';

/** What a reader handed on, as comparable text: kind, partition, slot, and what the record is. */
function described(e: StreamEvent): string {
  const what =
    e.kind === 'transaction'
      ? `${e.scan.signatures.length} sig, decoded ${e.event.signatures[0]!.toString('hex').slice(0, 8)}`
      : e.kind === 'account'
        ? `wv ${e.scan.writeVersion}, decoded ${e.event.writeVersion}`
        : e.kind === 'entry'
          ? `index ${e.event.index}`
          : e.kind === 'parsed'
            ? `parsed ${e.event.index}`
            : `status ${e.event.status}${e.event.end ? ' marker' : ''}`;
  return `${e.kind} p${e.partition} slot ${e.slot}: ${what}`;
}

describe('a replay hands on what the live tail hands on', () => {
  const topics = topicNames(uniquePrefix('live-replay-shape'));
  let kafka: Kafka;
  let tail: LiveTail;
  let producer: Producer;
  const live: StreamEvent[] = [];

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'live-replay-shape-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    tail = await LiveTail.start({ kafka, topics, sink: { onEvent: (e) => live.push(e) }, log: silentLogger });
    producer = await kafka.producer();
  });

  afterAll(async () => {
    await producer?.close();
    await tail?.stop();
    await kafka?.close();
  });

  it('the same records, with their partitions, the end marker after what it counts', async () => {
    const slot = 500n;
    const [tx0, tx1] = [txEvent(slot, [key()], { index: 0 }), txEvent(slot, [key()], { index: 1 })];
    const data: [ChainEvent, number][] = [
      [{ kind: 'transactions', event: tx0 }, 1],
      [{ kind: 'transactions', event: tx1 }, 0],
      [{ kind: 'accounts', event: accountEvent(slot, key(), key(), Buffer.from([1, 2]), { writeVersion: 7n }) }, 1],
      [
        {
          kind: 'entries',
          event: { slot, index: 0n, numHashes: 1n, hash: Buffer.alloc(32, 1), executedTransactionCount: 2n, startingTransactionIndex: 0n },
        },
        0,
      ],
    ];
    const counts = [
      { kind: 'transactions', partition: 0, count: 1 },
      { kind: 'transactions', partition: 1, count: 1 },
      { kind: 'accounts', partition: 1, count: 1 },
      { kind: 'entries', partition: 0, count: 1 },
    ];
    const marker: ChainEvent = {
      kind: 'slots',
      event: {
        slot,
        status: SlotStatus.SLOT_STATUS_PROCESSED,
        block: {
          parentSlot: slot - 1n,
          blockhash: Buffer.alloc(32, 2),
          blockHeight: slot,
          blockTime: 1n,
          leader: Buffer.alloc(32, 3),
          transactionCount: 2,
          voteTransactionCount: 0,
          previousBlockhash: Buffer.alloc(32, 4),
          rewards: [],
        },
        end: { counts },
      },
    };
    // The marker first, on the partition its key does not pick: it must still come after the records it counts,
    // and with the partition it was read from.
    await producer.send([{ topic: topics.slots, partition: 1, ...encodeRecord(marker) }]);
    await producer.send(data.map(([e, partition]) => ({ topic: topics[e.kind], partition, ...encodeRecord(e) })));
    await waitFor(() => live.length === data.length + 1, { what: 'the live tail reading the slot', timeoutMs: 300_000 });

    const replayed: StreamEvent[] = [];
    const plan = await planReplay({ kafka, topics, fromSlot: slot });
    const run = await ReplayRun.start({
      kafka,
      topics,
      fromSlot: slot,
      plan,
      until: tail.positions(),
      log: silentLogger,
      onEvent: (e) => replayed.push(e),
    });
    await run.done;
    await run.stop();

    expect(replayed.map(described).sort()).toEqual(live.map(described).sort());
    expect(replayed.map(described).sort()).toEqual(
      [
        `transaction p1 slot 500: 1 sig, decoded ${tx0.signatures[0]!.toString('hex').slice(0, 8)}`,
        `transaction p0 slot 500: 1 sig, decoded ${tx1.signatures[0]!.toString('hex').slice(0, 8)}`,
        'account p1 slot 500: wv 7, decoded 7',
        'entry p0 slot 500: index 0',
        `slot p1 slot 500: status ${SlotStatus.SLOT_STATUS_PROCESSED} marker`,
      ].sort(),
    );
    for (const got of [live, replayed]) expect(got.at(-1)!.kind).toBe('slot');
  });
});
