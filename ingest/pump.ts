// Pulls slot batches from a source and hands them to the publisher in groups: one batch per group
// when the source runs at chain speed (low latency), many when it runs as fast as it can (fewer
// Kafka transactions, more throughput). At most one group is being published while the next one
// fills, so memory stays bounded by two groups, and the source is pulled only as fast as Kafka
// accepts: backpressure without a queue.
import type { SlotBatch } from './source.js';
import { encodeBatch, type EncodedBatch } from './publisher.js';

export interface PumpOptions {
  /** Publish a group once it holds this many events ... */
  maxGroupEvents?: number;
  /** ... or this many key+value bytes (kept below the topics' max.message.bytes) ... */
  maxGroupBytes?: number;
  /** ... or when the source has no next batch ready within this time ... */
  lingerMs?: number;
  /** ... or when the group's first batch is this old. */
  maxGroupMs?: number;
  /** Stop pulling; the group in hand is still published. */
  signal?: AbortSignal;
}

export interface PumpResult {
  batches: number;
  events: number;
  lastSlot: bigint | undefined;
}

const TIMEOUT = Symbol('timeout');

function within<T>(p: Promise<T>, ms: number): Promise<T | typeof TIMEOUT> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<typeof TIMEOUT>((resolve) => (timer = setTimeout(() => resolve(TIMEOUT), ms)));
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

export async function pump(
  batches: AsyncIterable<SlotBatch>,
  publish: (group: EncodedBatch[]) => Promise<void>,
  opts: PumpOptions = {},
): Promise<PumpResult> {
  const maxEvents = opts.maxGroupEvents ?? 20_000;
  const maxBytes = opts.maxGroupBytes ?? 3 * 1024 * 1024;
  const lingerMs = opts.lingerMs ?? 10;
  const maxGroupMs = opts.maxGroupMs ?? 250;
  const result: PumpResult = { batches: 0, events: 0, lastSlot: undefined };

  let group: EncodedBatch[] = [];
  let groupEvents = 0;
  let groupBytes = 0;
  let groupStarted = 0;
  let inflight: Promise<void> | undefined;
  /** A publish is running (inflight has not settled). */
  let busy = false;
  let failure: unknown;

  const flush = async (): Promise<void> => {
    if (inflight) await inflight;
    if (group.length === 0) return;
    const g = group;
    group = [];
    groupEvents = 0;
    groupBytes = 0;
    const p = publish(g);
    inflight = p;
    busy = true;
    // Noticed at the next flush or loop turn; the handler keeps it from counting as unhandled.
    p.then(
      () => {
        if (inflight === p) busy = false;
      },
      (err: unknown) => {
        failure ??= err;
        if (inflight === p) busy = false;
      },
    );
  };

  const it = batches[Symbol.asyncIterator]();
  let next: Promise<IteratorResult<SlotBatch>> | undefined;
  let finished = false;
  try {
    for (;;) {
      if (failure !== undefined) throw failure;
      if (opts.signal?.aborted) break;
      next ??= it.next();
      let r: IteratorResult<SlotBatch> | typeof TIMEOUT;
      if (group.length === 0) {
        r = await next;
      } else if (busy) {
        // While a publish runs the group could not go out anyway: keep filling it (up to the size
        // limits) instead of blocking on its age, so a fast source gets large transactions rather
        // than one small transaction per commit round trip.
        const settled: Promise<typeof TIMEOUT> = inflight!.then(
          () => TIMEOUT,
          () => TIMEOUT,
        );
        r = await Promise.race([next, settled]);
        if (r === TIMEOUT) continue;
      } else {
        const wait = Math.max(0, Math.min(lingerMs, groupStarted + maxGroupMs - Date.now()));
        r = await within(next, wait);
        if (r === TIMEOUT) {
          await flush();
          continue;
        }
      }
      next = undefined;
      if (r.done) {
        finished = true;
        break;
      }
      const encoded = encodeBatch(r.value);
      if (group.length === 0) groupStarted = Date.now();
      group.push(encoded);
      groupEvents += encoded.records.length;
      groupBytes += encoded.bytes;
      result.batches++;
      result.events += encoded.records.length;
      result.lastSlot = r.value.slot;
      if (groupEvents >= maxEvents || groupBytes >= maxBytes) await flush();
    }
    await flush();
    if (inflight) await inflight;
  } finally {
    // Let the source release its resources (timers, files) when we stop early or fail.
    if (!finished) await it.return?.().catch(() => {});
  }
  return result;
}
