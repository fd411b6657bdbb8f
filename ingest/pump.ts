// Pulls slot batches from a source, frames them (framer.ts) and hands the records to the publisher as
// they arrive: each is sent into the open Kafka transaction at once, so live streams (which read
// uncommitted) get it within the producer's linger, not after a commit. A transaction is committed once
// it has been open `commitIntervalMs` or reached its size bound; while that commit runs, arrivals wait and
// go into the next transaction when it returns (spec/behaviour.md, "Slot framing": no record waits for its
// slot to end). A source running as fast as it can fills transactions to the bound. At most one commit
// runs at a time, and arrivals beyond one transaction's worth make the pump wait for it: memory stays
// bounded and the source is pulled only as fast as Kafka accepts (backpressure without a queue).
import type { FramedRecord } from './framer.js';
import type { SlotBatch } from './source.js';

/** Where the pump puts records (the publisher). */
export interface PumpSink {
  /** Sends records into the open transaction now. */
  add(records: FramedRecord[]): Promise<void>;
  /** Commits everything added since the last commit. */
  commit(): Promise<void>;
}

export interface PumpOptions {
  /** A transaction holds at most this many records ... */
  maxGroupEvents?: number;
  /** ... and about this many key+value bytes (kept below the topics' max.message.bytes). */
  maxGroupBytes?: number;
  /** A transaction with records is committed this long after its first record (read_committed readers,
   * the projector and replays, see records no later than this plus the commit). */
  commitIntervalMs?: number;
  /** Stop pulling; the records in hand are still published. */
  signal?: AbortSignal;
}

export interface PumpResult {
  batches: number;
  events: number;
  lastSlot: bigint | undefined;
}

export const COMMIT_INTERVAL_MS = 50;

const SETTLED: unique symbol = Symbol('settled');
const DUE: unique symbol = Symbol('due');

export async function pump<B extends { slot: bigint } = SlotBatch>(
  batches: AsyncIterable<B>,
  frame: (batch: B) => FramedRecord[],
  sink: PumpSink,
  opts: PumpOptions = {},
): Promise<PumpResult> {
  const maxEvents = opts.maxGroupEvents ?? 20_000;
  const maxBytes = opts.maxGroupBytes ?? 3 * 1024 * 1024;
  const intervalMs = opts.commitIntervalMs ?? COMMIT_INTERVAL_MS;
  const result: PumpResult = { batches: 0, events: 0, lastSlot: undefined };

  /** Framed records not sent yet (they arrived while a commit ran). */
  let waiting: FramedRecord[] = [];
  let waitingBytes = 0;
  /** The open transaction: records sent, their bytes, when its first record went in. */
  let openEvents = 0;
  let openBytes = 0;
  let openedAt = 0;
  /** The running commit, settling to SETTLED either way (its failure is kept in `failure`). */
  let inflight: Promise<typeof SETTLED> | undefined;
  let failure: unknown;

  const full = (): boolean => openEvents >= maxEvents || openBytes >= maxBytes;

  const startCommit = (): void => {
    openEvents = 0;
    openBytes = 0;
    const p = sink.commit().then(
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

  /** Sends what waits into the open transaction, committing whenever it is full; stops while a commit runs. */
  const fill = async (): Promise<void> => {
    while (inflight === undefined && waiting.length > 0) {
      // A batch can be larger than a transaction may be: take a prefix within the bounds.
      let n = 0;
      let bytes = 0;
      while (n < waiting.length && openEvents + n < maxEvents && openBytes + bytes < maxBytes) bytes += waiting[n]!.key.length + waiting[n++]!.value.length;
      if (n > 0) {
        const part = n === waiting.length ? waiting : waiting.slice(0, n);
        waiting = n === waiting.length ? [] : waiting.slice(n);
        waitingBytes -= bytes;
        if (openEvents === 0) openedAt = performance.now();
        openEvents += n;
        openBytes += bytes;
        await sink.add(part);
      }
      if (full()) startCommit();
    }
  };

  const it = batches[Symbol.asyncIterator]();
  let next: Promise<IteratorResult<B>> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let finished = false;
  try {
    for (;;) {
      if (failure !== undefined) throw failure;
      if (opts.signal?.aborted) break;
      await fill();
      if (inflight === undefined && openEvents > 0 && performance.now() - openedAt >= intervalMs) startCommit();
      next ??= it.next();
      let due: Promise<typeof DUE> | undefined;
      if (inflight === undefined && openEvents > 0) {
        due = new Promise((resolve) => (timer = setTimeout(() => resolve(DUE), Math.max(0, openedAt + intervalMs - performance.now()))));
      }
      const r = await Promise.race(inflight ? [next, inflight] : due ? [next, due] : [next]);
      clearTimeout(timer);
      if (r === SETTLED || r === DUE) continue;
      next = undefined;
      if (r.done) {
        finished = true;
        break;
      }
      const handedAt = Date.now();
      const framed = frame(r.value);
      for (const rec of framed) {
        // A source framed on another thread stamped its hand-over there.
        rec.handedAt ??= handedAt;
        waiting.push(rec);
        waitingBytes += rec.key.length + rec.value.length;
      }
      result.batches++;
      // One record per event: a slot's own status record becomes its end marker.
      result.events += framed.length;
      result.lastSlot = r.value.slot;
      // A transaction's worth waiting while a commit runs: wait for it (the source waits with us).
      if ((waiting.length >= maxEvents || waitingBytes >= maxBytes) && inflight) await inflight;
    }
    // Publish what is in hand: the open transaction and everything waiting.
    for (;;) {
      if (inflight) await inflight;
      if (failure !== undefined) throw failure;
      await fill();
      if (inflight) continue;
      if (openEvents === 0 && waiting.length === 0) break;
      startCommit();
    }
  } finally {
    clearTimeout(timer);
    // Let the source release its resources (timers, files) when we stop early or fail.
    if (!finished) await it.return?.().catch(() => {});
  }
  return result;
}
