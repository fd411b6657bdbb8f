// The simulator's worker thread (thread.ts starts it): builds, paces and frames the chain here, so the
// ingest's main thread only publishes. Building a 400 ms slot takes tens of milliseconds of synchronous
// work; on the main thread it held every record waiting to be sent for that long, and with the encoding it
// capped the full ingest at half the simulator's speed.
// Each framed batch goes out as one message: the records' key and value bytes packed in one transferred
// buffer, their fields in plain arrays. Credits from the main thread bound the batches in flight.
// The thread is started ahead of its resume point (thread.ts SimThread): it loads its modules and builds the chain
// first, says `ready`, then waits for the start message (where to resume, the partitions and topics to frame for).
import { parentPort, workerData } from 'node:worker_threads';
import { SlotFramer, type FramedRecord } from '../../publish/framer.js';
import { prepareSimSource } from './createSimSource.js';
import { addCachedKeypairs, cachedKeypairs } from './keys.js';
import type { SimThreadInit, SimThreadMessage, SimThreadStart } from './thread.js';

const init = workerData as SimThreadInit;
const port = parentPort!;
let credits = 0;
let started: ((s: SimThreadStart) => void) | undefined;
const start = new Promise<SimThreadStart>((resolve) => (started = resolve));
let wake: (() => void) | undefined;
let advance: ((slot: bigint) => Promise<void>) | undefined;
port.on('message', (m: { credit: number } | { advance: bigint } | SimThreadStart) => {
  if ('start' in m) return started?.(m);
  if ('advance' in m) return void advance?.(m.advance);
  credits += m.credit;
  wake?.();
});
function post(slot: bigint, handedAt: number, records: FramedRecord[]): void {
  let bytes = 0;
  for (const r of records) bytes += r.key.length + r.value.length;
  const packed = new Uint8Array(bytes);
  const fields: SimThreadMessage & { kind: 'batch' } = {
    kind: 'batch',
    slot,
    handedAt,
    packed,
    kinds: [],
    partitions: [],
    keyLengths: [],
    valueLengths: [],
    ends: [],
    dead: [],
  };
  let at = 0;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    packed.set(r.key, at);
    packed.set(r.value, at + r.key.length);
    at += r.key.length + r.value.length;
    fields.kinds.push(r.kind);
    fields.partitions.push(r.partition);
    fields.keyLengths.push(r.key.length);
    fields.valueLengths.push(r.value.length);
    if (r.ends !== undefined) fields.ends.push([i, r.ends]);
    if (r.dead !== undefined) fields.dead.push([i, r.dead]);
  }
  port.postMessage(fields, [packed.buffer]);
}

try {
  addCachedKeypairs(init.keys);
  const prepared = prepareSimSource(init.sim);
  advance = (slot) => prepared.advance(slot);
  port.postMessage({ kind: 'keys', entries: cachedKeypairs() } satisfies SimThreadMessage);
  port.postMessage({ kind: 'ready' } satisfies SimThreadMessage);
  const { afterSlot, partitions, topics } = await start;
  await prepared.advance(-1n); // the fast-forwards asked for so far are done (this one adds nothing)
  const source = prepared.source;
  const framer = new SlotFramer(new Map(partitions), topics);
  for await (const batch of source.batches({ afterSlot })) {
    // Where end-to-end latency starts (spec/behaviour.md): the source handing the batch over, here.
    const handedAt = Date.now();
    while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
    credits--;
    post(batch.slot, handedAt, framer.frame(batch));
  }
  port.postMessage({ kind: 'done' } satisfies SimThreadMessage);
} catch (err) {
  port.postMessage({ kind: 'failed', message: (err as Error).message, name: (err as Error).name } satisfies SimThreadMessage);
}
