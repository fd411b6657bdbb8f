// Publishes groups of slot batches to Kafka, one Kafka transaction per group, with an idempotent
// transactional producer. A crash mid-group leaves an open transaction that the next instance's
// producer (same transactional id) aborts when it starts, so Kafka holds whole slots only and
// resume.ts can find where to continue. While Kafka is away the group is retried with backoff,
// never dropped; the caller awaits publish, so the source is paced instead of buffering.
import type { Kafka, Message, Producer, TopicMessages } from 'kafkajs';
import type { Logger } from '../platform/log.js';
import { encodeRecord } from '../schemas/codec.js';
import type { TopicKind, TopicNames } from '../schemas/topics.js';
import { ingestMetrics } from './metrics.js';
import { partitionForKey } from './partition.js';
import { lastPublishedSlot } from './resume.js';
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

// Errors meaning another producer with our transactional id took over: retrying would fence it
// back and the two would take turns, so they end this publisher instead.
const FENCED = new Set(['INVALID_PRODUCER_EPOCH', 'PRODUCER_FENCED', 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED']);

function isFenced(err: unknown): boolean {
  for (let e = err as { type?: string; code?: number; cause?: unknown; originalError?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if ((e.type && FENCED.has(e.type)) || e.code === 90) return true;
    e = (e.originalError ?? e.cause) as typeof e;
  }
  return false;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new PublishAbortedError('stopped'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new PublishAbortedError('stopped'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

// kafkajs groups the messages of one send per partition by copying the list for every message,
// so a send's cost grows with the square of its size; a group goes out in sends of this many.
const MESSAGES_PER_SEND = 2_000;

export class Publisher {
  private producer: Producer | undefined;
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
    const producer = this.opts.kafka.producer({
      transactionalId: this.opts.transactionalId,
      idempotent: true,
      maxInFlightRequests: 1,
      transactionTimeout: this.opts.transactionTimeoutMs ?? 60_000,
      allowAutoTopicCreation: false,
      // Partitions are chosen in commit() with the Java client's murmur2 (partition.ts), so every
      // client maps a key to the same partition; this only passes them through.
      createPartitioner: () => ({ message }) => message.partition!,
    });
    this.producer = producer;
    await producer.connect();
    // The first transaction() runs InitProducerId: it bumps the epoch of our transactional id,
    // which fences older instances and makes the coordinator abort their open transaction.
    const t = await producer.transaction();
    await t.abort();
    await this.loadPartitionCounts();
    this.last = await lastPublishedSlot(this.opts.kafka, this.opts.topics);
    if (this.last !== undefined) this.metrics.lastSlot.set(Number(this.last));
  }

  private async loadPartitionCounts(): Promise<void> {
    const kinds: TopicKind[] = ['transactions', 'accounts', 'slots', 'epochs'];
    const admin = this.opts.kafka.admin();
    await admin.connect();
    try {
      const meta = await admin.fetchTopicMetadata({ topics: kinds.map((k) => this.opts.topics[k]) });
      for (const kind of kinds) {
        const n = meta.topics.find((t) => t.name === this.opts.topics[kind])?.partitions.length ?? 0;
        if (n === 0) throw new Error(`topic ${this.opts.topics[kind]} has no partitions (does it exist?)`);
        this.partitions.set(kind, n);
      }
    } finally {
      await admin.disconnect();
    }
  }

  private async drop(): Promise<void> {
    const p = this.producer;
    this.producer = undefined;
    if (p) await p.disconnect().catch(() => {});
  }

  private async commit(group: EncodedBatch[]): Promise<void> {
    const producer = this.producer!;
    const byKind = new Map<TopicKind, Message[]>();
    const bytesByKind = new Map<TopicKind, number>();
    // Records of a slot share their key: hash each distinct key once per group.
    const slotKeyPartition = new Map<string, number>();
    for (const b of group) {
      for (const r of b.records) {
        let list = byKind.get(r.kind);
        if (!list) byKind.set(r.kind, (list = []));
        const n = this.partitions.get(r.kind)!;
        let partition: number;
        if (r.kind === 'accounts') partition = partitionForKey(r.key, n);
        else {
          const memo = `${r.kind}:${r.key.toString('hex')}`;
          partition = slotKeyPartition.get(memo) ?? partitionForKey(r.key, n);
          slotKeyPartition.set(memo, partition);
        }
        list.push({ key: r.key, value: r.value, partition });
        bytesByKind.set(r.kind, (bytesByKind.get(r.kind) ?? 0) + r.key.length + r.value.length);
      }
    }
    const sends: TopicMessages[][] = [];
    let current: TopicMessages[] = [];
    let room = MESSAGES_PER_SEND;
    for (const [kind, messages] of byKind) {
      for (let i = 0; i < messages.length; ) {
        const take = Math.min(room, messages.length - i);
        current.push({ topic: this.opts.topics[kind], messages: messages.slice(i, i + take) });
        i += take;
        room -= take;
        if (room === 0) {
          sends.push(current);
          current = [];
          room = MESSAGES_PER_SEND;
        }
      }
    }
    if (current.length > 0) sends.push(current);
    const started = process.hrtime.bigint();
    const t = await producer.transaction();
    try {
      for (const topicMessages of sends) await t.sendBatch({ acks: -1, topicMessages });
      await t.commit();
    } catch (err) {
      await t.abort().catch(() => {});
      throw err;
    }
    this.metrics.publishSeconds.observe(Number(process.hrtime.bigint() - started) / 1e9);
    this.metrics.transactions.inc();
    for (const [kind, messages] of byKind) {
      const topic = this.opts.topics[kind];
      this.metrics.records.inc({ topic }, messages.length);
      this.metrics.bytes.inc({ topic }, bytesByKind.get(kind) ?? 0);
    }
    for (const b of group) if (this.last === undefined || b.slot > this.last) this.last = b.slot;
    this.metrics.lastSlot.set(Number(this.last));
  }
}
