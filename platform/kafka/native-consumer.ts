// Connecting a librdkafka consumer and the fetch loop shared by the partition reader and the group
// consumer: consume calls handed over in order (optionally the next one issued while the last one's
// records are handled), records handed over per call, and partition EOF offsets
// reported so positions reach the end of the log even past transaction markers (which are never
// delivered as records).
import KafkaJs from '@confluentinc/kafka-javascript';
import type { ConsumerGlobalConfig, KafkaConsumer, Message } from '@confluentinc/kafka-javascript';
import { baseConfig, bridgeLogs, call, kafkaError, type KafkaOptions } from './client.js';
import { CLIENT_MAX_MESSAGE_BYTES } from './topics.js';

export type Isolation = 'read_committed' | 'read_uncommitted';

/** A record as the roles see it. */
export interface InRecord {
  topic: string;
  partition: number;
  offset: bigint;
  key: Buffer | null;
  value: Buffer | null;
  /** Broker or producer timestamp, ms. */
  timestamp: number;
  /** Record headers as text (absent when the record has none). */
  headers?: Record<string, string>;
}

export interface ConsumerSettings {
  groupId: string;
  isolation?: Isolation;
  /** Longest a fetch waits for records when there are none (latency when idle is not affected). */
  maxWaitMs?: number;
  /** Bytes fetched per partition per request: smaller keeps a pipeline fine-grained. */
  maxBytesPerPartition?: number;
  extra?: ConsumerGlobalConfig;
}

export function consumerConfig(o: KafkaOptions, s: ConsumerSettings): ConsumerGlobalConfig {
  return {
    ...baseConfig(o),
    'group.id': s.groupId,
    'isolation.level': s.isolation ?? 'read_committed',
    'enable.auto.commit': false,
    'enable.auto.offset.store': false,
    'enable.partition.eof': true,
    'fetch.wait.max.ms': s.maxWaitMs ?? 100,
    'fetch.min.bytes': 1,
    // A single record may be as large as the largest topic allows.
    'fetch.message.max.bytes': Math.max(s.maxBytesPerPartition ?? 1024 * 1024, 1024 * 1024),
    'fetch.max.bytes': CLIENT_MAX_MESSAGE_BYTES * 2,
    'queued.max.messages.kbytes': 256 * 1024,
    ...s.extra,
  };
}

export async function connectConsumer(o: KafkaOptions, conf: ConsumerGlobalConfig): Promise<KafkaConsumer> {
  // A group without commits (and a reader whose offset fell out of retention) starts at the log's start.
  // A topic-level setting: librdkafka ignores it in the global configuration the binding passes.
  const consumer = new KafkaJs.KafkaConsumer(conf, { 'auto.offset.reset': 'earliest' });
  bridgeLogs(consumer, o);
  await call('connect consumer', (cb) => consumer.connect({ timeout: 30_000 }, (err) => cb(err)));
  consumer.setDefaultConsumeTimeout(Number(conf['fetch.wait.max.ms'] ?? 100));
  // Return as soon as the records already fetched are handed over: waiting for a full chunk would
  // add the timeout to every record's latency.
  // (Present in the library, missing from its type declarations.)
  (consumer as unknown as { setDefaultIsTimeoutOnlyForFirstMessage(v: boolean): void }).setDefaultIsTimeoutOnlyForFirstMessage(true);
  return consumer;
}

export function disconnectConsumer(c: KafkaConsumer): Promise<void> {
  return new Promise((resolve) => {
    try {
      c.disconnect(() => resolve());
    } catch {
      resolve();
    }
  });
}

/** Commits offsets (the next offset to read, per partition) for the consumer's group off the event loop: the
 * binding's commitCb waits for the broker in a libuv thread, where commitSync would hold the JavaScript thread for
 * the round trip (and for seconds while Kafka is away). The binding's types leave commitCb out. */
export function commitOffsets(c: KafkaConsumer, offsets: readonly { topic: string; partition: number; offset: bigint }[]): Promise<void> {
  if (offsets.length === 0) return Promise.resolve();
  const tps = offsets.map((o) => ({ topic: o.topic, partition: o.partition, offset: Number(o.offset) }));
  const withCb = c as unknown as {
    commitCb(tps: { topic: string; partition: number; offset: number }[], cb: (err: unknown) => void): void;
  };
  return call('commit offsets', (cb) => withCb.commitCb(tps, (err) => cb(err)));
}

/** Called for every record read (the live tail's hot path): one object, headers only when present. */
export function toInRecord(m: Message, offset = BigInt(m.offset)): InRecord {
  const r: InRecord = {
    topic: m.topic,
    partition: m.partition,
    offset,
    key: (m.key as Buffer | null | undefined) ?? null,
    value: m.value,
    timestamp: m.timestamp ?? 0,
  };
  if (m.headers && m.headers.length > 0) {
    r.headers = Object.fromEntries(m.headers.flatMap((h) => Object.entries(h).map(([k, v]) => [k, v.toString()])));
  }
  return r;
}

export interface FetchLoop {
  stop(): Promise<void>;
}

export interface FetchHandlers<T = void> {
  /** Records of one consume call, in fetch order, with what `onCall` returned for that call; a promise
   * pauses the loop until it settles. */
  onMessages(messages: Message[], eofs: { topic: string; partition: number; offset: number }[], call: T): void | Promise<void>;
  onError(err: Error): void;
  /** Called just before each consume call is issued. */
  onCall?(): T;
  /**
   * Whether the next consume call may be issued before the records of the one that just returned are
   * handled (`call` is what `onCall` returned for it). Default: never, one call at a time. The consume
   * call runs on libuv's thread pool, so with it in flight the main thread handles one chunk while the
   * next is taken off librdkafka's queue; without it the main thread waits for every call (17% of the
   * live tail's time at full speed, bench/README "One stream").
   */
  prefetch?(call: T): boolean;
}

type Consumed = { messages: Message[] } | { err: unknown };
type Eof = { topic: string; partition: number; offset: number };
type Issued<T> = { call: T; result: Promise<Consumed> };

/** After a failed consume call, the loop waits this long before the next (librdkafka reconnects meanwhile). */
const AFTER_ERROR_MS = 100;

/** Consumes in a loop until stopped: one consume call in flight at a time, handled in call order. */
export function startFetchLoop<T = void>(consumer: KafkaConsumer, chunk: number, h: FetchHandlers<T>): FetchLoop {
  return new ConsumeLoop(consumer, chunk, h);
}

class ConsumeLoop<T> implements FetchLoop {
  // Set once by `stop`; the loop ends at its next turn (a call in flight is answered first).
  private stopped = false;
  // End-of-partition events of the call in flight: the binding emits a call's events just before its
  // callback, so `loop` takes them (and starts a new list) as each call returns. Only the 'partition.eof'
  // listener adds to it.
  private eofs: Eof[] = [];
  // The loop's promise: settles once stopped and the last call issued is answered.
  private readonly done: Promise<void>;

  constructor(
    private readonly consumer: KafkaConsumer,
    private readonly chunk: number,
    private readonly h: FetchHandlers<T>,
  ) {
    consumer.on('partition.eof', (e) => this.eofs.push({ topic: e.topic, partition: e.partition, offset: e.offset }));
    this.done = this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
  }

  /** Issues a consume call (after telling the handlers, whose marks go with it). */
  private issue(): Issued<T> {
    const call = this.h.onCall?.() as T;
    const result = new Promise<Consumed>((resolve) =>
      this.consumer.consume(this.chunk, (err, m) => resolve(err ? { err } : { messages: m ?? [] })),
    );
    return { call, result };
  }

  private async loop(): Promise<void> {
    // A call issued ahead (prefetch) while the previous call's records are handled.
    let next: Issued<T> | undefined;
    while (!this.stopped) {
      const current = next ?? this.issue();
      next = undefined;
      const got = await current.result;
      const eofs = this.takeEofs();
      if (this.stopped) break;
      if ('err' in got) {
        this.h.onError(kafkaError('consume', got.err));
        await new Promise((r) => setTimeout(r, AFTER_ERROR_MS));
        continue;
      }
      if (this.h.prefetch?.(current.call)) next = this.issue();
      const handed = this.hand(got.messages, eofs, current.call);
      if (handed) await handed;
    }
    // A call issued ahead is answered before the consumer may be disconnected.
    if (next) await next.result;
  }

  /** The end-of-partition events of the call that just returned. */
  private takeEofs(): Eof[] {
    const e = this.eofs;
    this.eofs = [];
    return e;
  }

  /** Hands one call's records over; a handler's failure is reported, and the loop goes on. (A promise only
   * when the handler returned one: most calls are handled synchronously, and the loop goes on at once.) */
  private hand(messages: Message[], eofs: Eof[], call: T): void | Promise<void> {
    try {
      const r = this.h.onMessages(messages, eofs, call);
      if (r) return r.catch((err: unknown) => this.h.onError(err as Error));
    } catch (err) {
      this.h.onError(err as Error);
    }
  }
}
