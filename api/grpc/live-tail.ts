// The live tail: ONE Kafka reader per api process over the transactions, accounts and slots topics,
// starting at their current end. Every record is decoded once and handed to the sink (the stream hub),
// which matches and encodes it once for all streams. Also tracks the newest slot seen (`chainTip`), which
// JSON-RPC uses to tell whether its views trail the chain.
import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { decodeRecord, type AccountEvent, type SlotEvent, type TransactionEvent } from '../../schemas/codec.js';
import type { TopicKind, TopicNames } from '../../schemas/topics.js';
import { KafkaReader, type PartitionOffsets, type ReaderRecord } from './kafka-reader.js';
import { undecodableRecords } from './metrics.js';

/** What the tail hands over, record by record, in Kafka order per partition. */
export interface TailSink {
  onTransaction(tx: TransactionEvent): void;
  onAccount(acc: AccountEvent): void;
  onSlot(ev: SlotEvent): void;
  /** After every batch: a chance to flush work collected while handling the batch. */
  onBatchEnd?(): void;
}

export const STREAM_KINDS: readonly TopicKind[] = ['transactions', 'accounts', 'slots'];

export function streamTopics(topics: TopicNames): Map<string, TopicKind> {
  return new Map(STREAM_KINDS.map((k) => [topics[k], k]));
}

/** Every live tail of this process, so the module-level `chainTip()` needs no wiring. */
const tails = new Set<LiveTail>();

/** The newest slot any live tail of this process has seen, or undefined before the first record. */
export function chainTip(): bigint | undefined {
  let tip: bigint | undefined;
  for (const t of tails) {
    const s = t.chainTip();
    if (s !== undefined && (tip === undefined || s > tip)) tip = s;
  }
  return tip;
}

/** Decodes one record and passes it on; an undecodable one is logged and counted, never fatal. */
export function dispatchRecord(r: ReaderRecord, sink: TailSink, log: Logger): bigint | undefined {
  const d = decodeRecord(r.kind, r.value);
  if (!d.ok) {
    undecodableRecords.inc({ topic: r.topic });
    log.warn({ topic: r.topic, partition: r.partition, offset: r.offset.toString(), reason: d.reason }, 'skipping undecodable record');
    return undefined;
  }
  const e = d.value;
  switch (e.kind) {
    case 'transactions':
      sink.onTransaction(e.event);
      return e.event.slot;
    case 'accounts':
      sink.onAccount(e.event);
      return e.event.slot;
    case 'slots':
      sink.onSlot(e.event);
      return e.event.slot;
    default:
      return undefined;
  }
}

export class LiveTail {
  private tip: bigint | undefined;
  private reader: KafkaReader | undefined;

  private constructor(
    private readonly kafka: Kafka,
    private readonly topics: TopicNames,
    private readonly sink: TailSink,
    private readonly log: Logger,
  ) {}

  static async start(o: { kafka: Kafka; topics: TopicNames; sink: TailSink; log: Logger }): Promise<LiveTail> {
    const t = new LiveTail(o.kafka, o.topics, o.sink, o.log);
    t.reader = await KafkaReader.start({
      kafka: o.kafka,
      topics: streamTopics(o.topics),
      start: new Map(),
      purpose: 'api-live',
      maxWaitMs: 50,
      onRecords: (records) => t.onRecords(records),
    });
    tails.add(t);
    return t;
  }

  private onRecords(records: ReaderRecord[]): void {
    for (const r of records) {
      const slot = dispatchRecord(r, this.sink, this.log);
      if (slot !== undefined && (this.tip === undefined || slot > this.tip)) this.tip = slot;
    }
    this.sink.onBatchEnd?.();
  }

  chainTip(): bigint | undefined {
    return this.tip;
  }

  /**
   * The offsets the tail will hand over next, per topic and partition. Read synchronously together with
   * registering a stream: every record at or after these offsets reaches that stream live, every record
   * before them is history (replay).
   */
  positions(): PartitionOffsets {
    return this.reader!.positions();
  }

  /** Stops or restarts reading (streams stay open; nothing is skipped): for benchmarks and maintenance. */
  setPaused(paused: boolean): void {
    this.reader?.pauseAll(paused);
  }

  async stop(): Promise<void> {
    tails.delete(this);
    await this.reader?.stop();
  }
}
