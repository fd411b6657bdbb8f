// The yellowstone source's conversion, alone: a recording of Yellowstone SubscribeUpdates (transactions with
// meta, account writes, slot statuses, block meta, entries) made from the simulator through
// schemas/yellowstone's *ToYellowstone side (what geyser.Geyser emits), then fed through the source's
// assembler (ingest/sources/yellowstone/assembler.ts: each update converted once, slots assembled) as the source
// does after grpc-js decoded the message. Rates are events out per CPU second of this process
// (process.cpuUsage); the wire decode (Yellowstone's codec, grpc-js's job in the source) is measured apart.
// Run alone with `npm run bench:convert`; bench/ingest.ts runs it as its phase C.
// Env: BENCH_CONVERT_SLOTS (slots recorded, default 40: ~230,000 updates), BENCH_TPS (chain tps, default 4000), BENCH_CONVERT_ROUNDS
// (passes over the recording, default 5; the best is reported, the first warms the JIT up).
import { pathToFileURL } from 'node:url';
import { createSimSource, DEFAULT_SIM_OPTIONS } from '../ingest/sources/sim/index.js';
import { SlotAssembler } from '../ingest/sources/yellowstone/assembler.js';
import { SubscribeUpdateCodec } from '../ingest/sources/yellowstone/geyser-service.js';
import { subscribeUpdatesOf } from '../test/support/yellowstone/updates-of.js';
import {
  accountFromYellowstone,
  entryFromYellowstone,
  transactionFromYellowstone,
  type SubscribeUpdate,
} from '../schemas/yellowstone/index.js';

export interface ConvertResult {
  updates: number;
  events: number;
  /** Of the recording: update kind -> count. */
  kinds: Record<string, number>;
  wireBytes: number;
  /** Events out per CPU second of the conversion (best round). */
  eventsPerCpuSecond: number;
  /** The same for decode (Yellowstone's codec) + conversion. */
  withDecodePerCpuSecond: number;
  /** Per kind, the conversion function alone (schemas/yellowstone), updates per CPU second (best round). */
  perKind: Record<string, number>;
  cpuSeconds: number;
}

const env = (name: string, def: number): number => (process.env[name] ? Number(process.env[name]) : def);

const cpu = (): (() => number) => {
  const c0 = process.cpuUsage();
  return () => {
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1e6;
  };
};

/** The simulator's chain as the wire bytes of a Yellowstone subscription (untimed). */
export async function yellowstoneRecording(slots: number, tps: number): Promise<{ wire: Uint8Array[]; kinds: Record<string, number> }> {
  const sim = createSimSource({ ...DEFAULT_SIM_OPTIONS, seed: 7, slotMs: 0, tps, fast: true, maxSlots: slots });
  const wire: Uint8Array[] = [];
  const kinds: Record<string, number> = {};
  for await (const b of sim.batches({})) {
    for (const u of subscribeUpdatesOf(b)) {
      const kind = u.transaction ? 'transaction' : u.account ? 'account' : u.entry ? 'entry' : u.blockMeta ? 'block_meta' : 'slot';
      kinds[kind] = (kinds[kind] ?? 0) + 1;
      wire.push(SubscribeUpdateCodec.encode(u).finish());
    }
  }
  return { wire, kinds };
}

/** Each kind's conversion function alone over its updates: updates per CPU second. */
function perKindRates(updates: readonly SubscribeUpdate[]): Record<string, number> {
  const out: Record<string, number> = {};
  const time = (kind: string, f: (u: SubscribeUpdate) => unknown, pick: (u: SubscribeUpdate) => boolean) => {
    const mine = updates.filter(pick);
    const stop = cpu();
    for (const u of mine) f(u);
    out[kind] = mine.length / stop();
  };
  time(
    'transaction',
    (u) => transactionFromYellowstone(u.transaction!),
    (u) => u.transaction !== undefined,
  );
  time(
    'account',
    (u) => accountFromYellowstone(u.account!),
    (u) => u.account !== undefined,
  );
  time(
    'entry',
    (u) => entryFromYellowstone(u.entry!),
    (u) => u.entry !== undefined,
  );
  return out;
}

/** One pass: a fresh assembler (as a replaying subscription) over the decoded updates; events out. */
function convert(updates: readonly SubscribeUpdate[]): number {
  const asm = new SlotAssembler({ countTransactions: true, countEntries: true });
  asm.startSubscription({ resumeFrom: 0n, replayFrom: 0n });
  let events = 0;
  for (const u of updates) for (const b of asm.push(u)) events += b.events.length;
  return events;
}

export async function yellowstoneConversionPhase(): Promise<ConvertResult> {
  const { wire, kinds } = await yellowstoneRecording(env('BENCH_CONVERT_SLOTS', 40), env('BENCH_TPS', 4000));
  const rounds = Math.max(2, env('BENCH_CONVERT_ROUNDS', 5));
  let best = 0;
  let bestWithDecode = 0;
  let events = 0;
  let cpuSeconds = 0;
  const perKind: Record<string, number> = {};
  for (let r = 0; r < rounds; r++) {
    // Decoded afresh each round, as each update arrives once in the source.
    const stopDecode = cpu();
    const updates = wire.map((w) => SubscribeUpdateCodec.decode(w));
    const decodeCpu = stopDecode();
    const stop = cpu();
    events = convert(updates);
    const c = stop();
    cpuSeconds += c + decodeCpu;
    best = Math.max(best, events / c);
    bestWithDecode = Math.max(bestWithDecode, events / (c + decodeCpu));
    for (const [k, v] of Object.entries(perKindRates(updates))) perKind[k] = Math.max(perKind[k] ?? 0, v);
  }
  return {
    updates: wire.length,
    events,
    kinds,
    wireBytes: wire.reduce((n, w) => n + w.length, 0),
    eventsPerCpuSecond: best,
    withDecodePerCpuSecond: bestWithDecode,
    perKind,
    cpuSeconds,
  };
}

export function describeConversion(r: ConvertResult): string {
  const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
  const kinds = Object.entries(r.kinds)
    .map(([k, n]) => `${k} ${fmt(n)}`)
    .join(', ');
  return (
    `${fmt(r.updates)} updates (${kinds}; ${fmt(r.wireBytes / r.updates)} B average) -> ${fmt(r.events)} events: ` +
    `${fmt(r.eventsPerCpuSecond)} events per CPU second converting (target 100,000), ${fmt(r.withDecodePerCpuSecond)} with the wire decode; ` +
    `conversion functions alone per CPU second: ${Object.entries(r.perKind)
      .map(([k, n]) => `${k} ${fmt(n)}`)
      .join(', ')}`
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { loadavg } = await import('node:os');
  const r = await yellowstoneConversionPhase();
  process.stderr.write(`[bench:convert] ${describeConversion(r)}; load ${loadavg()[0]!.toFixed(1)}\n`);
  console.log(
    `convert events_per_cpu_s=${Math.round(r.eventsPerCpuSecond)} with_decode_per_cpu_s=${Math.round(r.withDecodePerCpuSecond)} events=${r.events} updates=${r.updates}`,
  );
}
