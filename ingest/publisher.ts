// Publishes groups of slot batches to Kafka, one Kafka transaction per group, with an idempotent
// transactional producer. A crash mid-group leaves an open transaction that the next instance's
// producer (same transactional id) aborts when it starts, so Kafka holds whole slots only and
// resume.ts can find where to continue. While Kafka is away the group is retried with backoff,
// never dropped; the caller awaits publish, so the source is paced instead of buffering.
import { partitionForKey, type Kafka, type KafkaError, type OutRecord, type TransactionalProducer } from '../platform/kafka/index.js';
import type { Logger } from '../platform/log.js';
import { encodeRecord } from '../schemas/codec.js';
import type { TopicKind, TopicNames } from '../schemas/topics.js';
import { oversizedRecord } from './dead-letter.js';
import { ingestMetrics } from './metrics.js';
import { lastPublishedSlot } from './resume.js';
import { abortableSleep } from './sleep.js';
import type { SlotBatch } from './source.js';

export interface EncodedBatch {
  slot: bigint;
  records: { kind: TopicKind; key: Buffer; value: Buffer }[];
  bytes: number;
}

/** Encodes every event of a batch once (record key and value). */
export function encodeBatch(batch: SlotBatch): EncodedBatch {
  let bytes = 0;
  const records = batch.events.map((e) => {
    const { key, value } = encodeRecord(e);
    bytes += key.length + value.length;
    return { kind: e.kind as TopicKind, key, value };
  });
  return { slot: batch.slot, records, bytes };
}

export class PublisherFencedError extends Error {
  override name = 'PublisherFencedError';
}

export class PublishAbortedError extends Error {
  override name = 'PublishAbortedError';
}

export interface PublisherOptions {
  kafka: Kafka;
  topics: TopicNames;
  /** One writer per id: a newer producer with the same id fences older ones. */
  transactionalId: string;
  log: Logger;
  /** Stops retrying (the pending group is then left for the next start, which regenerates it). */
  signal?: AbortSignal;
  retryInitialMs?: number;
  retryMaxMs?: number;
  /** Kafka aborts a transaction left open this long (a hung producer). */
  transactionTimeoutMs?: number;
}

// Another producer with our transactional id took over: retrying would fence it back and the two
// would take turns, so it ends this publisher instead.
function isFenced(err: unknown): boolean {
  return (err as Partial<KafkaError> | undefined)?.fenced === true;
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> => abortableSleep(ms, signal, () => new PublishAbortedError('stopped'));

export class Publisher {
  private producer: TransactionalProducer | undefined;
  /** The producer's next transaction is already begun (see the end of commit). */
  private begun = false;
  private partitions = new Map<TopicKind, number>();
  private last: bigint | undefined;
  private readonly metrics = ingestMetrics();

  constructor(private readonly opts: PublisherOptions) {}

  /** Highest slot known to be committed in Kafka (by anyone, before or during this run). */
  get lastSlot(): bigint | undefined {
    return this.last;
  }

  /** Connects, fences earlier instances (aborting their open transaction) and returns the slot to
   * resume after. Retries while Kafka is away, like publish. */
  async open(): Promise<bigint | undefined> {
    await this.withRetry('connect', async () => {
      await this.connect();
    });
    return this.last;
  }

  /** Commits the batches (in slot order) as one Kafka transaction; retries until it is done. */
  async publish(group: EncodedBatch[]): Promise<void> {
    let pending = group;
    await this.withRetry(`slots ${group[0]?.slot}..${group.at(-1)?.slot}`, async () => {
      if (!this.producer) {
        await this.connect();
        // The previous attempt's commit may have landed before the error: publish only what is missing.
        const last = this.last;
        if (last !== undefined) pending = pending.filter((b) => b.slot > last);
        if (pending.length < group.length) {
          this.opts.log.warn({ already: group.length - pending.length, lastSlot: String(last) }, 'ingest: part of a retried group was already committed');
        }
      }
      if (pending.length > 0) await this.commit(pending);
    });
  }

  async close(): Promise<void> {
    await this.drop();
  }

  private async withRetry(what: string, attempt: () => Promise<void>): Promise<void> {
    const initial = this.opts.retryInitialMs ?? 200;
    const max = this.opts.retryMaxMs ?? 5_000;
    for (let n = 0; ; n++) {
      try {
        await attempt();
        if (n > 0) this.opts.log.info({ what, attempts: n + 1 }, 'ingest: Kafka publish recovered');
        return;
      } catch (err) {
        if (err instanceof PublishAbortedError) throw err;
        if (isFenced(err)) {
          await this.drop();
          throw new PublisherFencedError(
            `ingest: another producer with transactional id ${this.opts.transactionalId} took over (${(err as Error).message}); stopping this one`,
          );
        }
        this.metrics.retries.inc();
        const delay = Math.min(max, initial * 2 ** Math.min(n, 10));
        this.opts.log.warn({ what, attempt: n + 1, retryInMs: delay, err: (err as Error).message }, 'ingest: Kafka publish failed; retrying');
        await this.drop();
        await sleep(delay, this.opts.signal);
      }
    }
  }

  private async connect(): Promise<void> {
    // Opening runs InitProducerId: it bumps the epoch of our transactional id, which fences older
    // instances and makes the coordinator abort their open transaction.
    this.producer = await this.opts.kafka.transactionalProducer({
      transactionalId: this.opts.transactionalId,
      transactionTimeoutMs: this.opts.transactionTimeoutMs ?? 60_000,
    });
    await this.loadPartitionCounts();
    this.last = await lastPublishedSlot(this.opts.kafka, this.opts.topics);
    if (this.last !== undefined) this.metrics.lastSlot.set(Number(this.last));
  }

  private async loadPartitionCounts(): Promise<void> {
    const kinds: TopicKind[] = ['transactions', 'accounts', 'slots', 'entries', 'epochs'];
    for (const kind of kinds) this.partitions.set(kind, await this.opts.kafka.admin().partitionCount(this.opts.topics[kind]));
  }

  private async drop(): Promise<void> {
    const p = this.producer;
    this.producer = undefined;
    this.begun = false;
    if (p) await p.close().catch(() => {});
  }

  private async commit(group: EncodedBatch[]): Promise<void> {
    const producer = this.producer!;
    const counts = new Map<TopicKind, number>();
    const bytesByKind = new Map<TopicKind, number>();
    const started = process.hrtime.bigint();
    if (!this.begun) await producer.begin();
    this.begun = false;
    try {
      for (const b of group) {
        for (const r of b.records) {
          // Hashing an 8-byte slot key is cheaper than the hex string a memo of it would need.
          const partition = partitionForKey(r.key, this.partitions.get(r.kind)!);
          const topic = this.opts.topics[r.kind];
          const dead = oversizedRecord(r.kind, topic, b.slot, r.key, r.value);
          if (dead) {
            // In the same transaction as the slot's other records: exactly once, like them.
            this.opts.log.warn({ slot: String(b.slot), topic, bytes: r.key.length + r.value.length }, `ingest: ${dead.headers['slotstream-reason']}; sent to the dead-letter topic`);
            producer.send({ topic: this.opts.topics.deadletter, partition: 0, key: dead.key, value: dead.value, headers: dead.headers });
            this.metrics.deadLetters.inc({ topic });
            continue;
          }
          const out: OutRecord = { topic, partition, key: r.key, value: r.value };
          producer.send(out);
          counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
          bytesByKind.set(r.kind, (bytesByKind.get(r.kind) ?? 0) + r.key.length + r.value.length);
        }
      }
      await producer.commit();
    } catch (err) {
      await producer.abort().catch(() => {});
      throw err;
    }
    this.metrics.publishSeconds.observe(Number(process.hrtime.bigint() - started) / 1e9);
    this.metrics.transactions.inc();
    for (const [kind, n] of counts) {
      const topic = this.opts.topics[kind];
      this.metrics.records.inc({ topic }, n);
      this.metrics.bytes.inc({ topic }, bytesByKind.get(kind) ?? 0);
    }
    for (const b of group) if (this.last === undefined || b.slot > this.last) this.last = b.slot;
    this.metrics.lastSlot.set(Number(this.last));
    // Begin the next transaction now, before publish returns. begin() completes on a callback, i.e. at
    // the next event-loop turn, and an unpaced source keeps the loop busy filling the next group: begun
    // at the start of the next publish, the group's records waited for the whole fill and the commit
    // never overlapped with it. librdkafka's begin is local (the broker sees the transaction with its
    // first record), so an idle begun transaction holds nothing and never times out.
    try {
      await producer.begin();
      this.begun = true;
    } catch {
      // The next commit begins again and reports the error there, through the retry path.
    }
  }
}
