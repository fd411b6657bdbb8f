// Reading whole topics back for the ingest tests: every committed record, per partition in offset order.
import { randomBytes } from 'node:crypto';
import type { Kafka } from 'kafkajs';

export interface ReadRecord {
  offset: bigint;
  key: Buffer;
  value: Buffer;
}

/** All committed records of a topic as of now, per partition (index = partition). */
export async function readTopic(kafka: Kafka, topic: string, timeoutMs = 60_000): Promise<ReadRecord[][]> {
  const admin = kafka.admin();
  await admin.connect();
  const offsets = await admin.fetchTopicOffsets(topic).finally(() => admin.disconnect());
  const out: ReadRecord[][] = offsets.map(() => []);
  const pending = new Map<number, bigint>();
  for (const p of offsets) if (BigInt(p.high) > BigInt(p.low)) pending.set(p.partition, BigInt(p.high));
  if (pending.size === 0) return out;
  const consumer = kafka.consumer({ groupId: `test-read-${randomBytes(6).toString('hex')}`, readUncommitted: false, maxWaitTimeInMs: 100 });
  let finish!: () => void;
  let fail!: (e: Error) => void;
  const finished = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  // Fires also for fetches of aborted records and transaction markers only, which the last offset reaches.
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
    const high = pending.get(payload.partition);
    if (high !== undefined && BigInt(payload.lastOffset) >= high - 1n) {
      pending.delete(payload.partition);
      if (pending.size === 0) finish();
    }
  });
  const timer = setTimeout(() => fail(new Error(`reading ${topic}: partitions ${[...pending.keys()].join(',')} not read to the end in ${timeoutMs} ms`)), timeoutMs);
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        for (const m of batch.messages) {
          out[batch.partition]!.push({ offset: BigInt(m.offset), key: m.key ?? Buffer.alloc(0), value: m.value ?? Buffer.alloc(0) });
        }
      },
    });
    await finished;
  } finally {
    clearTimeout(timer);
    await consumer.disconnect();
  }
  return out;
}
