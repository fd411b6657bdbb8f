// A transactional producer: records sent between begin() and commit() become visible to
// read_committed readers together or not at all. open() fences every older producer with the same
// transactional id and makes the coordinator abort its open transaction (InitProducerId), which is
// what lets a restarted ingest trust that Kafka holds only committed records.
import type { Producer as RdProducer } from '@confluentinc/kafka-javascript';
import { call, kafkaError, KafkaError, type KafkaOptions } from './client.js';
import { connectProducer, disconnectProducer, producerConfig } from './native-producer.js';

export interface OutRecord {
  topic: string;
  partition: number;
  key: Buffer;
  value: Buffer;
  headers?: Readonly<Record<string, string>>;
  /** Record timestamp in ms (default: when it is sent). The ingest stamps when the source handed the event over. */
  timestamp?: number;
}

export interface TransactionalProducer {
  begin(): Promise<void>;
  /** Queues one record of the open transaction; throws a KafkaError (tooLarge) for a record over the limit. */
  send(r: OutRecord): void;
  /** Flushes and commits; after a retriable failure the caller aborts and tries the whole transaction again. */
  commit(): Promise<void>;
  abort(): Promise<void>;
  close(): Promise<void>;
}

export interface TransactionalProducerOptions {
  transactionalId: string;
  /** Kafka aborts a transaction left open this long (a hung producer). */
  transactionTimeoutMs?: number;
}

const TIMEOUT_MS = 30_000;

export async function openTransactionalProducer(o: KafkaOptions, t: TransactionalProducerOptions): Promise<TransactionalProducer> {
  const producer: RdProducer = await connectProducer(
    o,
    producerConfig(o, {
      'transactional.id': t.transactionalId,
      'transaction.timeout.ms': t.transactionTimeoutMs ?? 60_000,
    }),
  );
  try {
    await call('initTransactions', (cb) => producer.initTransactions(TIMEOUT_MS, cb));
  } catch (err) {
    await disconnectProducer(producer);
    throw err;
  }
  let closed = false;
  return {
    begin: () => call('beginTransaction', (cb) => producer.beginTransaction(cb)),
    send(r) {
      try {
        if (r.headers)
          producer.produce(
            r.topic,
            r.partition,
            r.value,
            r.key,
            r.timestamp ?? Date.now(),
            undefined,
            Object.entries(r.headers).map(([k, v]) => ({ [k]: v })),
          );
        else if (r.timestamp !== undefined) producer.produce(r.topic, r.partition, r.value, r.key, r.timestamp);
        else producer.produce(r.topic, r.partition, r.value, r.key);
      } catch (err) {
        throw kafkaError(`produce to ${r.topic}/${r.partition}`, err);
      }
    },
    commit: () => call('commitTransaction', (cb) => producer.commitTransaction(TIMEOUT_MS, cb)),
    async abort() {
      // librdkafka counts a partition into the transaction when it sends AddPartitionsToTxn, not when the
      // coordinator answers; an abort right after a send can then reach the coordinator first, which answers
      // INVALID_TXN_STATE and leaves the producer fatally broken (confluentinc/librdkafka#4849). A record is
      // acknowledged only once its partition is registered, so waiting for the sends closes that window. A flush
      // that fails or runs out of time still aborts: the abort purges whatever is left.
      await call('flush before abort', (cb) => producer.flush(TIMEOUT_MS, cb)).catch(() => {});
      await call('abortTransaction', (cb) => producer.abortTransaction(TIMEOUT_MS, cb));
    },
    async close() {
      if (closed) return;
      closed = true;
      await disconnectProducer(producer);
    },
  };
}

export { KafkaError };
