// Where a source sends upstream data it cannot convert (ingest/publish/dead-letter.ts builds the record): the
// ingest's dead-letter topic, through a plain idempotent producer of the source's own, with a log line
// naming slot and signature and a metric; the source goes on. The producer opens on the first dead letter,
// so a healthy stream costs no extra connection. Not in the publisher's Kafka transactions: a dead letter
// is acknowledged before the slot it belongs to is handed over, so a crash in between can repeat one
// (at least once), never lose one.
import { createKafka, type Kafka, type Producer } from '../../../platform/kafka/index.js';
import type { Logger } from '../../../platform/log.js';
import { topicNames, type TopicKind } from '../../../schemas/topics.js';
import { unconvertibleRecord, type Unconvertible } from '../../publish/dead-letter.js';
import { ingestMetrics } from '../../metrics.js';

export type DeadLetter = Omit<Unconvertible, 'topic'> & {
  /** The topic kind the data was going to. */
  kind: Exclude<TopicKind, 'deadletter'>;
  /** What it was, for the log and the metric (transaction, account, block meta, ...). */
  what: string;
};

export interface DeadLetterSink {
  /** Resolves once Kafka has the dead letter (or, without Kafka, once it is logged). */
  send(d: DeadLetter): Promise<void>;
  close(): Promise<void>;
}

export interface DeadLetterSinkOptions {
  /** Empty: no Kafka (--out): the log line is all there is, and it says so. */
  brokers: readonly string[];
  topicPrefix: string;
  log: Logger;
  /** Names the log lines: "yellowstone source", "rpc source". */
  source: string;
}

export function deadLetterSink(o: DeadLetterSinkOptions): DeadLetterSink {
  const topics = topicNames(o.topicPrefix);
  const m = ingestMetrics();
  let kafka: Kafka | undefined;
  let producer: Promise<Producer> | undefined;
  const open = (): Promise<Producer> => {
    kafka ??= createKafka({ brokers: o.brokers, clientId: 'slotstream-ingest-deadletter', log: o.log });
    const k = kafka;
    return (producer ??= k.producer());
  };
  return {
    async send(d) {
      const topic = topics[d.kind];
      const record = unconvertibleRecord({ ...d, topic });
      m.unconvertible.inc({ kind: d.what });
      const where = `slot ${d.slot ?? 'unknown'}${d.signature !== undefined ? `, signature ${d.signature}` : ''}`;
      const fields = {
        slot: d.slot?.toString() ?? null,
        signature: d.signature ?? null,
        what: d.what,
        reason: d.reason,
        bytes: d.value.length,
      };
      if (o.brokers.length === 0) {
        o.log.warn(fields, `${o.source}: unconvertible ${d.what} (${where}) skipped: ${d.reason}; no Kafka (--out), so no dead letter`);
        return;
      }
      o.log.warn(
        { ...fields, deadLetterTopic: topics.deadletter },
        `${o.source}: unconvertible ${d.what} (${where}) sent to ${topics.deadletter}: ${d.reason}`,
      );
      try {
        await (await open()).send([{ topic: topics.deadletter, key: record.key, value: record.value, headers: record.headers }]);
        m.deadLetters.inc({ topic });
      } catch (err) {
        // Kafka refused even after the producer's own retries: the data survives only in this log line.
        o.log.error(
          { ...fields, err: (err as Error).message, value: d.value.toString('base64') },
          `${o.source}: dead letter of ${where} could not be published; its data is in this line (base64)`,
        );
      }
    },
    async close() {
      const p = producer;
      producer = undefined;
      if (p) await (await p).close().catch(() => {});
      await kafka?.close();
      kafka = undefined;
    },
  };
}
