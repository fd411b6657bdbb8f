// A plain idempotent producer for records that need no transaction (dead letters, test fixtures):
// send() resolves once every record is acknowledged by all in-sync replicas.
import type { Producer as RdProducer } from '@confluentinc/kafka-javascript';
import { kafkaError, type KafkaOptions } from './client.js';
import { connectProducer, disconnectProducer, producerConfig } from './native-producer.js';
import { partitionForKey } from './murmur2.js';

export interface PlainRecord {
  topic: string;
  /** Without a partition the key decides it (Kafka's murmur2), or partition 0 without a key. */
  partition?: number;
  key?: Buffer | null;
  value: Buffer | null;
  headers?: Readonly<Record<string, string>>;
}

export interface Producer {
  send(records: readonly PlainRecord[]): Promise<void>;
  close(): Promise<void>;
}

export async function openProducer(o: KafkaOptions, partitionsOf: (topic: string) => Promise<number>): Promise<Producer> {
  const producer: RdProducer = await connectProducer(o, producerConfig(o, { dr_cb: true }));
  const waiting = new Map<number, { left: number; resolve: () => void; reject: (e: Error) => void; failed?: Error }>();
  let nextId = 1;
  producer.on('delivery-report', (err, report) => {
    const id = report.opaque as number;
    const w = waiting.get(id);
    if (!w) return;
    if (err && !w.failed) w.failed = kafkaError(`deliver to ${report.topic}/${report.partition}`, err);
    if (--w.left === 0) {
      waiting.delete(id);
      if (w.failed) w.reject(w.failed);
      else w.resolve();
    }
  });
  const counts = new Map<string, number>();
  return {
    async send(records) {
      if (records.length === 0) return;
      for (const r of records)
        if (r.partition === undefined && r.key && !counts.has(r.topic)) counts.set(r.topic, await partitionsOf(r.topic));
      const id = nextId++;
      const done = new Promise<void>((resolve, reject) => waiting.set(id, { left: records.length, resolve, reject }));
      let sent = 0;
      try {
        for (const r of records) {
          const partition = r.partition ?? (r.key ? partitionForKey(r.key, counts.get(r.topic)!) : 0);
          const headers = r.headers ? Object.entries(r.headers).map(([k, v]) => ({ [k]: v })) : undefined;
          producer.produce(r.topic, partition, r.value, r.key ?? null, Date.now(), id, headers);
          sent++;
        }
      } catch (err) {
        const w = waiting.get(id)!;
        w.failed = kafkaError('produce', err);
        w.left -= records.length - sent;
        if (w.left === 0) {
          waiting.delete(id);
          throw w.failed;
        }
      }
      producer.poll();
      await done;
    },
    close: () => disconnectProducer(producer),
  };
}
