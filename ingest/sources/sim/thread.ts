// The simulator in a worker thread (thread-worker.ts), handing the ingest framed batches: the slot's
// records with their partitions, encoded, as framer.ts makes them. The main thread keeps only the
// publishing, so a slot being built never holds records that wait to be sent, and building, encoding and
// publishing use two cores.
import { Worker } from 'node:worker_threads';
import { asBuffer } from '../../../schemas/bytes.js';
import type { TopicNames, RecordKind } from '../../../schemas/topics.js';
import type { DeadLetterRecord } from '../../publish/dead-letter.js';
import type { FramedRecord } from '../../publish/framer.js';
import { addCachedKeypairs, cachedKeypairs, type Keypair } from './keys.js';
import type { SimOptions } from './options.js';

/** Batches built ahead of the publisher: enough to cover a hand-over, few enough to bound memory. */
const BATCHES_IN_FLIGHT = 4;

export interface FramedBatch {
  slot: bigint;
  records: FramedRecord[];
}

/** What the worker starts with (structured-cloned): it loads its modules and builds the chain, then waits for
 * a `SimThreadStart`. */
export interface SimThreadInit {
  entry: string;
  sim: SimOptions;
  /** The keypairs this process derived so far (keys.ts cachedKeypairs): the thread's genesis need not derive them. */
  keys: [string, Keypair][];
}

/** What the worker is told to produce, once the resume point is known (posted once). */
export interface SimThreadStart {
  start: true;
  afterSlot: bigint | undefined;
  partitions: [RecordKind, number][];
  topics: TopicNames;
}

export type SimThreadMessage =
  | {
      kind: 'batch';
      slot: bigint;
      /** When the simulator handed the batch over (ms since the epoch): the records' Kafka timestamp. */
      handedAt: number;
      /** Every record's key then value, back to back. */
      packed: Uint8Array;
      kinds: RecordKind[];
      partitions: number[];
      keyLengths: number[];
      valueLengths: number[];
      /** [record index, slot] of the end marker. */
      ends: [number, bigint][];
      /** [record index, dead letter] of records too large for their topic. */
      dead: [number, DeadLetterRecord][];
    }
  | { kind: 'ready' }
  /** The thread's keypairs once its chain is built, for the next thread of this process (keys.ts). */
  | { kind: 'keys'; entries: [string, Keypair][] }
  | { kind: 'done' }
  | { kind: 'failed'; name: string; message: string };

function unpack(m: SimThreadMessage & { kind: 'batch' }): FramedBatch {
  const buf = asBuffer(m.packed);
  const records: FramedRecord[] = new Array(m.kinds.length);
  let at = 0;
  for (let i = 0; i < records.length; i++) {
    const k = m.keyLengths[i]!;
    const v = m.valueLengths[i]!;
    records[i] = {
      kind: m.kinds[i]!,
      partition: m.partitions[i]!,
      key: buf.subarray(at, at + k),
      value: buf.subarray(at + k, at + k + v),
      batchSlot: m.slot,
      handedAt: m.handedAt,
    };
    at += k + v;
  }
  for (const [i, slot] of m.ends) records[i]!.ends = slot;
  // Buffers arrive as plain Uint8Arrays.
  for (const [i, d] of m.dead) records[i]!.dead = { key: asBuffer(d.key), value: asBuffer(d.value), headers: d.headers };
  return { slot: m.slot, records };
}

export class SimThreadError extends Error {
  override name = 'SimThreadError';
}

/**
 * The simulator's worker thread, started ahead of the resume point: from `start` on, it loads its modules and
 * builds the chain (seconds on a busy machine) and then waits, idle, for `batches` to say where to resume. A
 * standby ingest starts one while it stands by, so that a takeover does not wait for that. One `batches` call
 * per thread; `close` (or the end of `batches`) stops it.
 */
export class SimThread {
  private readonly worker: Worker;
  private readonly queue: SimThreadMessage[] = [];
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private used = false;
  private closing: Promise<void> | undefined;
  /** Resolves once the modules are loaded and the chain built (or the thread failed: `batches` says how). */
  readonly ready: Promise<void>;
  private onReady!: () => void;

  private constructor(sim: SimOptions) {
    this.ready = new Promise((resolve) => (this.onReady = resolve));
    const init: SimThreadInit = { entry: new URL('./thread-worker.ts', import.meta.url).href, sim, keys: cachedKeypairs() };
    this.worker = new Worker(new URL('./thread-boot.mjs', import.meta.url), { workerData: init });
    this.worker.on('message', (m: SimThreadMessage) => {
      if (m.kind === 'ready') return this.onReady();
      if (m.kind === 'keys') return addCachedKeypairs(m.entries);
      this.queue.push(m);
      this.wakeUp();
    });
    this.worker.on('error', (err) => {
      this.failure ??= new SimThreadError(`simulator thread failed: ${err.message}`);
      this.wakeUp();
    });
    this.worker.on('exit', (code) => {
      this.failure ??= new SimThreadError(`simulator thread exited (code ${code}) before the chain ended`);
      this.wakeUp();
    });
  }

  static start(sim: SimOptions): SimThread {
    return new SimThread(sim);
  }

  private wakeUp(): void {
    this.onReady(); // a failure is ready too: `batches` reports it
    this.wake?.();
    this.wake = undefined;
  }

  /** The slots after `afterSlot`, framed for `partitions` and `topics`; stops the thread when the caller stops
   * iterating or `signal` aborts. */
  async *batches(o: {
    afterSlot: bigint | undefined;
    partitions: ReadonlyMap<RecordKind, number>;
    topics: TopicNames;
    signal?: AbortSignal;
  }): AsyncGenerator<FramedBatch> {
    if (this.used) throw new Error('SimThread.batches: one run per thread');
    this.used = true;
    const onAbort = (): void => this.wakeUp();
    o.signal?.addEventListener('abort', onAbort);
    try {
      const start: SimThreadStart = { start: true, afterSlot: o.afterSlot, partitions: [...o.partitions], topics: o.topics };
      this.worker.postMessage(start);
      this.worker.postMessage({ credit: BATCHES_IN_FLIGHT });
      for (;;) {
        if (o.signal?.aborted) return;
        const m = this.queue.shift();
        if (m === undefined) {
          if (this.failure) throw this.failure;
          await new Promise<void>((resolve) => (this.wake = resolve));
          continue;
        }
        if (m.kind === 'done') return;
        if (m.kind === 'failed') throw new SimThreadError(`simulator thread: ${m.name}: ${m.message}`);
        if (m.kind !== 'batch') continue;
        this.worker.postMessage({ credit: 1 });
        yield unpack(m);
      }
    } finally {
      o.signal?.removeEventListener('abort', onAbort);
      await this.close();
    }
  }

  /** While it waits for `batches`: fast-forward the chain through `slot`, which must be a slot the resume point
   * cannot precede (one whose end marker Kafka holds in committed records). */
  advance(slot: bigint): void {
    if (!this.used) this.worker.postMessage({ advance: slot });
  }

  /** Stops the thread (idempotent). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.worker.removeAllListeners('exit');
      await this.worker.terminate();
    })();
    return this.closing;
  }
}

/**
 * The simulator's slots after `afterSlot`, framed for `partitions` and `topics`, from a thread started now. Stops
 * the worker when the caller stops iterating or `signal` aborts.
 */
export function simFramedBatches(o: {
  sim: SimOptions;
  afterSlot: bigint | undefined;
  partitions: ReadonlyMap<RecordKind, number>;
  topics: TopicNames;
  signal?: AbortSignal;
}): AsyncGenerator<FramedBatch> {
  return SimThread.start(o.sim).batches(o);
}
