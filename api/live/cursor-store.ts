// Durable stream cursors (issue 23 item 2): the position of every named cursor, kept in a compacted Kafka topic
// (`<prefix>.cursors.v1`, schemas/topics.ts `cursorsTopic`; records: schemas/cursor-record.ts). Kafka rather
// than ClickHouse: every api replica already reads the same brokers, while ClickHouse may be an embedded chdb
// private to one process; a compacted topic keeps the newest position per name forever and an acknowledged
// write (acks from every in-sync replica) survives the api that made it.
// One store per process, opened on first use: a reader tails the topic from its start into a map, and every
// lookup first waits until the reader reached the topic's end as it is at the lookup, so a position stored by
// another replica just before is seen (read your writes across replicas). Saves are ordered per cursor and
// coalesced: while one is in flight only the newest next position waits.
import type { Logger } from 'pino';
import { OffsetMap, type Kafka, type PartitionReader, type Producer } from '../../platform/kafka/index.js';
import { decodeCursorRecord, encodeCursorRecord, type CursorPosition } from '../../schemas/cursor-record.js';

export type { CursorPosition } from '../../schemas/cursor-record.js';

export interface CursorStoreOptions {
  kafka: Kafka;
  topic: string;
  /** Replication of the topic when this store has to create it (the role wiring creates it first). */
  replicationFactor: number;
  log: Logger;
}

/** How long close() waits for positions still being stored. */
const CLOSE_WAIT_MS = 5_000;

interface Waiter {
  offset: bigint;
  resolve: () => void;
}

/** Per cursor: the save in flight and the newest position waiting behind it. */
interface Writer {
  inFlight: Promise<void>;
  next: bigint | undefined;
}

export class CursorStore {
  private readonly positions = new Map<string, CursorPosition>();
  private opening: Promise<void> | undefined;
  private reader: PartitionReader | undefined;
  private producer: Producer | undefined;
  /** The reader's next offset (partition 0: the topic has one). */
  private position = 0n;
  private waiters: Waiter[] = [];
  private readonly writers = new Map<string, Writer>();
  private closed = false;

  constructor(private readonly o: CursorStoreOptions) {}

  /** The cursor's stored position; undefined: no such cursor. */
  async get(name: string): Promise<CursorPosition | undefined> {
    await this.caughtUp();
    return this.positions.get(name);
  }

  /** Every cursor whose name starts with `prefix`, by name. */
  async list(prefix = ''): Promise<CursorPosition[]> {
    await this.caughtUp();
    return [...this.positions.values()]
      .filter((p) => p.name.startsWith(prefix))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Deletes a cursor (a record without value); false when there was none. */
  async delete(name: string): Promise<boolean> {
    await this.caughtUp();
    const had = this.positions.has(name);
    if (!had) return false;
    await this.writer(name)?.inFlight;
    await this.producer!.send([{ topic: this.o.topic, partition: 0, key: Buffer.from(name, 'utf8'), value: null }]);
    this.positions.delete(name);
    return true;
  }

  /**
   * Stores `slot` as the cursor's position, after the saves before it (never backwards within this process);
   * resolves once Kafka acknowledged it or a newer save replaced it. Failures are logged: the cursor then
   * keeps an older position (a resumed stream gets some slots again; nothing is lost).
   */
  save(name: string, slot: bigint): Promise<void> {
    const w = this.writers.get(name);
    if (w) {
      if (w.next === undefined || slot > w.next) w.next = slot;
      return w.inFlight;
    }
    const writer: Writer = { inFlight: Promise.resolve(), next: undefined };
    this.writers.set(name, writer);
    writer.inFlight = this.write(name, slot, writer);
    return writer.inFlight;
  }

  private writer(name: string): Writer | undefined {
    return this.writers.get(name);
  }

  private async write(name: string, first: bigint, w: Writer): Promise<void> {
    let slot: bigint | undefined = first;
    while (slot !== undefined && !this.closed) {
      try {
        await this.open();
        const p: CursorPosition = { name, slot, updatedAtMs: Date.now() };
        await this.producer!.send([{ topic: this.o.topic, partition: 0, ...encodeCursorRecord(p) }]);
        const known = this.positions.get(name);
        if (!known || known.slot <= slot) this.positions.set(name, p);
      } catch (err) {
        this.o.log.warn({ err, cursor: name, slot: slot.toString() }, 'cursor position not stored');
      }
      slot = w.next;
      w.next = undefined;
    }
    this.writers.delete(name);
  }

  /** Opens the reader and producer once; waits until the reader read everything the topic holds now. */
  private async caughtUp(): Promise<void> {
    await this.open();
    const end = (await this.o.kafka.admin().endOffsets([this.o.topic])).get(this.o.topic, 0) ?? 0n;
    if (this.position >= end) return;
    await new Promise<void>((resolve) => this.waiters.push({ offset: end, resolve }));
  }

  private open(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('cursor store closed'));
    return (this.opening ??= this.openOnce().catch((err: unknown) => {
      this.opening = undefined;
      throw err;
    }));
  }

  private async openOnce(): Promise<void> {
    const { kafka, topic, replicationFactor, log } = this.o;
    await kafka.admin().ensureCompactedTopic(topic, replicationFactor);
    this.producer = await kafka.producer();
    this.reader = await kafka.partitionReader({
      topics: [topic],
      start: OffsetMap.of([[topic, 0, 0n]]),
      purpose: 'api-cursors',
      onRecords: (records) => {
        for (const r of records) {
          if (r.key === null) continue;
          try {
            const p = decodeCursorRecord(r.key, r.value);
            const name = r.key.toString('utf8');
            if (p === undefined) this.positions.delete(name);
            else this.positions.set(name, p);
          } catch (err) {
            log.warn({ err, offset: r.offset.toString() }, 'cursors topic: skipping an unreadable record');
          }
        }
      },
      onPosition: (_t, _p, next) => this.advanced(next),
      onError: (err) => log.warn({ err }, 'cursors topic read failed'),
    });
  }

  private advanced(next: bigint): void {
    this.position = next;
    const ready = this.waiters.filter((w) => w.offset <= next);
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.offset > next);
    for (const w of ready) w.resolve();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // The positions being stored get a moment to land (a clean stop then loses none); Kafka away must not hold
    // the process's shutdown.
    let timer: NodeJS.Timeout | undefined;
    const bounded = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)));
    await Promise.race([Promise.all([...this.writers.values()].map((w) => w.inFlight)), bounded]);
    clearTimeout(timer);
    this.closed = true;
    for (const w of this.waiters) w.resolve();
    this.waiters = [];
    await this.reader?.stop();
    await this.producer?.close();
  }
}
