// Publishes framed records (ingest/publish/framer.ts) to Kafka with an idempotent transactional producer: `add`
// sends records into the open transaction at once (live streams read uncommitted see them then), `commit`
// ends it. A slot may span several transactions (spec/behaviour.md, "Slot framing"). A crash mid-transaction leaves an open transaction that the next instance's producer
// (same transactional id) aborts when it starts; what earlier transactions committed of an unfinished
// slot stays, and resume-point.ts tells which records those are, so a retry or a restart publishes
// only the rest. While Kafka is away a transaction is retried with backoff, never dropped; the caller
// awaits publish, so the source is paced instead of buffering.
import type { Kafka, KafkaError, OutRecord, TransactionalProducer } from '../../platform/kafka/index.js';
import type { Logger } from '../../platform/log.js';
import { retry, type RetryPolicy } from '../../platform/retry.js';
import { isStop } from '../../platform/stop.js';
import { RECORD_KINDS, type RecordKind, type TopicNames } from '../../schemas/topics.js';
import type { FramedRecord } from './framer.js';
import { identityOf } from './identity.js';
import { decodeRecord } from '../../schemas/codec.js';
import { ingestMetrics } from '../metrics.js';
import { resumePoint, type ResumePoint } from './resume-point.js';

export class PublisherFencedError extends Error {
  override name = 'PublisherFencedError';
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
  /** Asked before the producer is reopened after a failure: false when another copy of this ingest took over
   * meanwhile (name-claim.ts), whose producer reopening would fence. The publisher then ends as fenced. */
  stillActive?: () => Promise<boolean>;
}

// Another producer with our transactional id took over: retrying would fence it back and the two
// would take turns, so it ends this publisher instead.
function isFenced(err: unknown): boolean {
  return (err as Partial<KafkaError> | undefined)?.fenced === true;
}

/** While Kafka is away: 200 ms doubling to 5 s, never giving up (a stop ends it with a StopError). */
const PUBLISH_RETRY: RetryPolicy = { initialMs: 200, maxMs: 5_000 };

/** A framed record's identity, from its bytes (only while a resume has records to leave out). */
function identityOfRecord(r: FramedRecord): string {
  // A slot's parsed records go out in its last batch, in one Kafka transaction with its end marker: Kafka holds them
  // all with the marker (the slot is then left out whole) or none, so none is ever held.
  if (r.kind === 'parsed') return '';
  const d = decodeRecord(r.kind, r.value);
  // The framer encoded it; an undecodable value cannot happen, and is then nothing Kafka holds.
  return d.ok ? identityOf(d.value) : '';
}

export class Publisher {
  private producer: TransactionalProducer | undefined;
  /** The producer's next transaction is already begun (see the end of commit). */
  private begun = false;
  private readonly partitions = new Map<RecordKind, number>();
  /** What Kafka held when we last (re)connected: records to leave out. Cleared once a later slot ended. */
  private resume: ResumePoint = { afterSlot: undefined, openSlot: undefined, held: new Set() };
  private last: bigint | undefined;
  private readonly metrics = ingestMetrics();
  /** Records sent in the open transaction and not committed yet: a retry sends them again. */
  private sent: FramedRecord[] = [];
  /** A send into the open transaction failed: the commit retries the whole transaction. */
  private broken: unknown;
  private openedAt = 0n;

  constructor(private readonly opts: PublisherOptions) {}

  /** Newest slot whose end marker is committed in Kafka (by anyone, before or during this run). */
  get lastSlot(): bigint | undefined {
    return this.last;
  }

  /** Partitions per topic kind, known after open (the framer needs them). */
  get partitionCounts(): ReadonlyMap<RecordKind, number> {
    return this.partitions;
  }

  /** Connects, fences earlier instances (aborting their open transaction) and returns where to resume:
   * the source restarts after `afterSlot`; publish leaves out the records listed in `held`. Retries
   * while Kafka is away, like publish. */
  async open(): Promise<ResumePoint> {
    await this.withRetry('connect', async () => {
      await this.connect();
    });
    return this.resume;
  }

  /** Commits the records (in order) as one Kafka transaction, leaving out what Kafka already holds;
   * retries until it is done. */
  async publish(records: FramedRecord[]): Promise<void> {
    await this.add(records);
    await this.commit();
  }

  /**
   * Sends records (in order) into the open transaction now, beginning one when none is, and leaves out
   * what Kafka already holds. Never fails: a failed send shows at `commit`, which sends every record of
   * the transaction again.
   */
  async add(records: FramedRecord[]): Promise<void> {
    const fresh = this.missing(records);
    if (this.sent.length === 0) this.openedAt = process.hrtime.bigint();
    for (const r of fresh) this.sent.push(r);
    if (!this.producer || this.broken !== undefined) return;
    try {
      if (!this.begun) await this.producer.begin();
      this.begun = true;
      for (const r of fresh) this.sendOne(this.producer, r);
    } catch (err) {
      this.broken = err;
    }
  }

  /** Commits what `add` sent; retries (reconnecting, sending only what Kafka lacks) until it is done. */
  async commit(): Promise<void> {
    if (this.sent.length === 0 && this.broken === undefined) return;
    await this.withRetry(`slots ${this.sent[0]?.batchSlot}..${this.sent.at(-1)?.batchSlot}`, async () => {
      if (this.broken !== undefined) {
        const err = this.broken;
        this.broken = undefined;
        await this.producer?.abort().catch(() => {});
        throw err;
      }
      if (!this.producer) {
        if (this.opts.stillActive && !(await this.opts.stillActive()))
          throw Object.assign(new Error('another copy of this ingest holds the name now'), { fenced: true });
        await this.connect();
        // The previous attempt's commit may have landed before the error: send only what is missing.
        const before = this.sent.length;
        this.sent = this.missing(this.sent);
        if (this.sent.length < before) {
          this.opts.log.warn(
            { already: before - this.sent.length, lastSlot: String(this.last) },
            'ingest: part of a retried transaction was already committed',
          );
        }
        if (this.sent.length === 0) return;
        await this.producer!.begin();
        this.begun = true;
        for (const r of this.sent) this.sendOne(this.producer!, r);
      }
      await this.commitOpen(this.producer!);
    });
  }

  async close(): Promise<void> {
    await this.drop();
  }

  /** Leaves out records of slots Kafka holds whole and records Kafka holds by identity. */
  private missing(records: FramedRecord[]): FramedRecord[] {
    const { afterSlot, held } = this.resume;
    // Batch slots never decrease: past the resume point with nothing held, every record is new.
    if (held.size === 0 && (afterSlot === undefined || (records[0] !== undefined && records[0].batchSlot > afterSlot))) return records;
    return records.filter(
      (r) => !(afterSlot !== undefined && r.batchSlot <= afterSlot) && !(held.size > 0 && held.has(identityOfRecord(r))),
    );
  }

  private async withRetry(what: string, attempt: () => Promise<void>): Promise<void> {
    try {
      await retry(
        async (n) => {
          await attempt();
          if (n > 0) this.opts.log.info({ what, attempts: n + 1 }, 'ingest: Kafka publish recovered');
        },
        {
          policy: {
            ...PUBLISH_RETRY,
            initialMs: this.opts.retryInitialMs ?? PUBLISH_RETRY.initialMs,
            maxMs: this.opts.retryMaxMs ?? PUBLISH_RETRY.maxMs,
          },
          signal: this.opts.signal,
          isRetriable: (err) => !isStop(err) && !isFenced(err),
          onRetry: async (err, n, delay) => {
            this.metrics.retries.inc();
            this.opts.log.warn(
              { what, attempt: n + 1, retryInMs: delay, err: (err as Error).message },
              'ingest: Kafka publish failed; retrying',
            );
            await this.drop();
          },
        },
      );
    } catch (err) {
      if (!isFenced(err)) throw err;
      await this.drop();
      throw new PublisherFencedError(
        `ingest: another producer with transactional id ${this.opts.transactionalId} took over (${(err as Error).message}); stopping this one`,
      );
    }
  }

  private async connect(): Promise<void> {
    // Opening runs InitProducerId: it bumps the epoch of our transactional id, which fences older
    // instances and makes the coordinator abort their open transaction.
    this.producer = await this.opts.kafka.transactionalProducer({
      transactionalId: this.opts.transactionalId,
      transactionTimeoutMs: this.opts.transactionTimeoutMs ?? 60_000,
    });
    for (const kind of RECORD_KINDS) this.partitions.set(kind, await this.opts.kafka.admin().partitionCount(this.opts.topics[kind]));
    this.resume = await resumePoint(this.opts.kafka, this.opts.topics);
    this.last = this.resume.afterSlot;
    if (this.last !== undefined) this.metrics.lastSlot.set(Number(this.last));
  }

  private async drop(): Promise<void> {
    const p = this.producer;
    this.producer = undefined;
    this.begun = false;
    if (p) await p.close().catch(() => {});
  }

  /** Queues one record of the open transaction (a dead letter to its topic, logged and counted). */
  private sendOne(producer: TransactionalProducer, r: FramedRecord): void {
    if (r.dead) {
      // In the same transaction as the slot's other records: exactly once, like them.
      const topic = this.opts.topics[r.kind];
      this.opts.log.warn(
        { slot: String(r.batchSlot), topic, bytes: r.key.length + r.value.length },
        `ingest: ${r.dead.headers['slotstream-reason']}; sent to the dead-letter topic`,
      );
      producer.send({ topic: this.opts.topics.deadletter, partition: 0, key: r.dead.key, value: r.dead.value, headers: r.dead.headers });
      this.metrics.deadLetters.inc({ topic });
      return;
    }
    const out: OutRecord = { topic: this.opts.topics[r.kind], partition: r.partition, key: r.key, value: r.value, timestamp: r.handedAt };
    producer.send(out);
  }

  private async commitOpen(producer: TransactionalProducer): Promise<void> {
    const records = this.sent;
    try {
      await producer.commit();
    } catch (err) {
      await producer.abort().catch(() => {});
      throw err;
    }
    this.begun = false;
    this.sent = [];
    const counts = new Map<RecordKind, number>();
    const bytesByKind = new Map<RecordKind, number>();
    let ended: bigint | undefined;
    for (const r of records) {
      if (r.dead) continue;
      counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
      bytesByKind.set(r.kind, (bytesByKind.get(r.kind) ?? 0) + r.key.length + r.value.length);
      if (r.ends !== undefined) ended = r.ends;
    }
    this.metrics.publishSeconds.observe(Number(process.hrtime.bigint() - this.openedAt) / 1e9);
    this.metrics.transactions.inc();
    for (const [kind, n] of counts) {
      const topic = this.opts.topics[kind];
      this.metrics.records.inc({ topic }, n);
      this.metrics.bytes.inc({ topic }, bytesByKind.get(kind) ?? 0);
    }
    if (ended !== undefined) {
      this.last = ended;
      this.metrics.lastSlot.set(Number(ended));
      // Past the slot that was open at the last connect: nothing later can be in Kafka already.
      if (this.resume.held.size > 0) this.resume = { afterSlot: this.resume.afterSlot, openSlot: undefined, held: new Set() };
    }
    // Begin the next transaction now, before commit returns. begin() completes on a callback, i.e. at
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
