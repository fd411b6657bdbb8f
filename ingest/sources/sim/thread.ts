// The simulator in a worker thread (thread-worker.ts), handing the ingest framed batches: the slot's
// records with their partitions, encoded, as framer.ts makes them. The main thread keeps only the
// publishing, so a slot being built never holds records that wait to be sent, and building, encoding and
// publishing use two cores.
import { Worker } from 'node:worker_threads';
import { asBuffer } from '../../../schemas/bytes.js';
import type { TopicNames, RecordKind } from '../../../schemas/topics.js';
import type { DeadLetterRecord } from '../../publish/dead-letter.js';
import type { FramedRecord } from '../../publish/framer.js';
import type { SimOptions } from './options.js';

/** Batches built ahead of the publisher: enough to cover a hand-over, few enough to bound memory. */
const BATCHES_IN_FLIGHT = 4;

export interface FramedBatch {
  slot: bigint;
  records: FramedRecord[];
}

/** What the worker starts with (structured-cloned). */
export interface SimThreadInit {
  entry: string;
  sim: SimOptions;
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
 * The simulator's slots after `afterSlot`, framed for `partitions` and `topics`. Stops the worker when the
 * caller stops iterating or `signal` aborts.
 */
export async function* simFramedBatches(o: {
  sim: SimOptions;
  afterSlot: bigint | undefined;
  partitions: ReadonlyMap<RecordKind, number>;
  topics: TopicNames;
  signal?: AbortSignal;
}): AsyncGenerator<FramedBatch> {
  const init: SimThreadInit = {
    entry: new URL('./thread-worker.ts', import.meta.url).href,
    sim: o.sim,
    afterSlot: o.afterSlot,
    partitions: [...o.partitions],
    topics: o.topics,
  };
  const worker = new Worker(new URL('./thread-boot.mjs', import.meta.url), { workerData: init });
  const queue: SimThreadMessage[] = [];
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const wakeUp = () => {
    wake?.();
    wake = undefined;
  };
  worker.on('message', (m: SimThreadMessage) => {
    queue.push(m);
    wakeUp();
  });
  worker.on('error', (err) => {
    failure ??= new SimThreadError(`simulator thread failed: ${err.message}`);
    wakeUp();
  });
  worker.on('exit', (code) => {
    failure ??= new SimThreadError(`simulator thread exited (code ${code}) before the chain ended`);
    wakeUp();
  });
  const onAbort = () => wakeUp();
  o.signal?.addEventListener('abort', onAbort);
  worker.postMessage({ credit: BATCHES_IN_FLIGHT });
  try {
    for (;;) {
      if (o.signal?.aborted) return;
      const m = queue.shift();
      if (m === undefined) {
        if (failure) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      if (m.kind === 'done') return;
      if (m.kind === 'failed') throw new SimThreadError(`simulator thread: ${m.name}: ${m.message}`);
      worker.postMessage({ credit: 1 });
      yield unpack(m);
    }
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
    worker.removeAllListeners('exit');
    await worker.terminate();
  }
}
