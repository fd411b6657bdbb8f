// Pulls slot batches from a source, frames them (framer.ts) and hands the records to the publisher:
// a Kafka transaction starts as soon as the previous one has committed, holding whatever arrived
// meanwhile (spec/behaviour.md, "Slot framing"), so no record waits for its slot to end or for a
// timer. A chain-speed source gets small transactions at the commit round trip; a source running as
// fast as it can gets large ones, bounded by size. At most one transaction is being published while
// the next one fills, and a full one waits for the commit: memory stays bounded and the source is
// pulled only as fast as Kafka accepts (backpressure without a queue).
import type { FramedRecord } from './framer.js';
import type { SlotBatch } from './source.js';

export interface PumpOptions {
  /** A transaction holds at most this many records ... */
  maxGroupEvents?: number;
  /** ... and about this many key+value bytes (kept below the topics' max.message.bytes). */
  maxGroupBytes?: number;
  /** Stop pulling; the records in hand are still published. */
  signal?: AbortSignal;
}

export interface PumpResult {
  batches: number;
  events: number;
  lastSlot: bigint | undefined;
}

const SETTLED: unique symbol = Symbol('settled');

export async function pump(
  batches: AsyncIterable<SlotBatch>,
  frame: (batch: SlotBatch) => FramedRecord[],
  publish: (records: FramedRecord[]) => Promise<void>,
  opts: PumpOptions = {},
): Promise<PumpResult> {
  const maxEvents = opts.maxGroupEvents ?? 20_000;
  const maxBytes = opts.maxGroupBytes ?? 3 * 1024 * 1024;
  const result: PumpResult = { batches: 0, events: 0, lastSlot: undefined };

  let group: FramedRecord[] = [];
  let groupBytes = 0;
  /** The running publish, settling to SETTLED either way (its failure is kept in `failure`). */
  let inflight: Promise<typeof SETTLED> | undefined;
  let failure: unknown;

  const start = (): void => {
    // A batch can be larger than a transaction may be: take a prefix within the bounds.
    let n = 0;
    let bytes = 0;
    while (n < group.length && n < maxEvents && bytes < maxBytes) bytes += group[n]!.key.length + group[n++]!.value.length;
    const g = n === group.length ? group : group.slice(0, n);
    group = n === group.length ? [] : group.slice(n);
    groupBytes -= bytes;
    const p = publish(g).then(
      (): typeof SETTLED => SETTLED,
      (err: unknown): typeof SETTLED => {
        failure ??= err;
        return SETTLED;
      },
    );
    inflight = p;
    void p.then(() => {
      if (inflight === p) inflight = undefined;
    });
  };

  const it = batches[Symbol.asyncIterator]();
  let next: Promise<IteratorResult<SlotBatch>> | undefined;
  let finished = false;
  try {
    for (;;) {
      if (failure !== undefined) throw failure;
      if (opts.signal?.aborted) break;
      if (group.length > 0 && inflight === undefined) start();
      next ??= it.next();
      const r = inflight ? await Promise.race([next, inflight]) : await next;
      if (r === SETTLED) continue;
      next = undefined;
      if (r.done) {
        finished = true;
        break;
      }
      const handedAt = Date.now();
      for (const rec of frame(r.value)) {
        rec.handedAt = handedAt;
        group.push(rec);
        groupBytes += rec.key.length + rec.value.length;
      }
      result.batches++;
      result.events += r.value.events.length;
      result.lastSlot = r.value.slot;
      // Full while the previous transaction commits: wait for it (the source waits with us).
      if ((group.length >= maxEvents || groupBytes >= maxBytes) && inflight) await inflight;
    }
    if (inflight) await inflight;
    while (failure === undefined && group.length > 0) {
      start();
      await inflight;
    }
    if (failure !== undefined) throw failure;
  } finally {
    // Let the source release its resources (timers, files) when we stop early or fail.
    if (!finished) await it.return?.().catch(() => {});
  }
  return result;
}
