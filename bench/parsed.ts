// npm run bench:parsed — SubscribeParsed's costs (issue 20), on the simulator's current-layout pump.fun and
// PumpSwap traffic (create_v2, buy_v2, buy_exact_sol_in, routed trades as inner instructions, migrations,
// PumpSwap pools; every event as a self-CPI):
// 1. decode: CPU µs per transaction (bench/parsed-decode.ts): the real mainnet pump transactions (what
//    bench/pump-decode.ts prints; target ≤ 5 µs) and the simulator's pump transactions: the decode alone, the
//    parsed content (decode + proto messages) and its encoding (what the ingest builds once per transaction).
// 2. max: the most parsed updates/s delivered to 1 and to 100 SubscribeParsed streams (default request, as an
//    old client sends), as bench/grpc.ts phase 3 measures Subscribe: the api (bench/grpc-worker.ts `api`, gRPC
//    only) in its own process with its CPU measured, counting clients in their own processes (`parsed-clients`,
//    updates counted undecoded); the api's live feed is paused, a backlog is published (the simulator's pump
//    transactions and the curve/pool writes each made, copied with fresh signatures and slots, each slot framed
//    whole by the ingest's framer so its parsed records follow), the feed resumes, and the clients count from the
//    first update to the last.
// 3. replay: one stream replaying such a backlog (from_slot its first slot) once the api's live tail has read it:
//    the replay reads the slots and parsed topics only (api/live/read-kinds.ts).
// 4. floor: the same backlog read by the api with no stream open: its CPU per record and per pump transaction
//    (what reading the records costs before any stream); and the ingest's cost of the parsed updates (the backlog
//    framed with the parsed topic and without, timed here).
// Last line: parsed real_decode_us=<r> sim_decode_us=<d> sim_parsed_us=<s> sim_encode_us=<e> floor_us_per_tx=<f>
//   floor_us_per_record=<g> ingest_parsed_us=<i> one_stream_replay_per_s=<p> one_stream_per_s=<o> streams100_per_s=<h>
// Env: BENCH_PHASE (`decode`, `max`, `max.1`, `max.100`, `replay`, `floor`; default all), BENCH_SIM_SLOTS (simulated
// slots the templates come from, default 30), BENCH_SIM_TPS (their rate, default 1,000), BENCH_SIM_PUMP_MIX (the
// simulator's pump mix, --sim-pump-mix syntax; default today's), BENCH_BACKLOG (pump
// transactions for one stream, default 100,000; a tenth of it for 100 streams), BENCH_REPEAT (max and replay runs,
// default 1; the best is reported), BENCH_PUMP_ROUNDS (7), BENCH_PUMP_PASSES (real: 20,000 passes over the 19
// transactions per round; sim: as many transactions per round), BENCH_KAFKA_BROKERS, BENCH_API_PROFILE (a folder:
// the api's V8 CPU profile), BENCH_API_NODE_ARGS, BENCH_LIVE_TOPICS (the api's --live-topics: `parsed` for a replica
// serving only SubscribeParsed, whose live tail then reads the slots and parsed topics alone).
import { randomBytes } from 'node:crypto';
import { cpus, loadavg, totalmem } from 'node:os';
import { PUMP_PROGRAMS } from '../schemas/pumpfun/decoder.js';
import { SlotFramer, type FramedRecord } from '../ingest/publish/framer.js';
import { frameSlotRuns } from '../test/support/ingest/framed-slot.js';
import { scanParsedTransaction } from '../schemas/pumpfun/parsed-scan.js';
import { benchBrokers } from './support/brokers.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import type { AccountEvent, ChainEvent, TransactionEvent } from '../schemas/codec.js';
import { topicNames, type TopicNames, RECORD_KINDS, type RecordKind } from '../schemas/topics.js';
import { collect } from '../test/support/sim/checks.js';
import { parsePumpMix } from '../ingest/sources/sim/pump-mix.js';
import { realDecodeCost, simDecodeCost } from './parsed-decode.js';
import { startWorker as startChild, stopWorker, type Worker } from './support/workers.js';

const env = (name: string, def: number): number => (process.env[name] ? Number(process.env[name]) : def);
const PHASE = process.env.BENCH_PHASE ?? 'all';
const SIM_SLOTS = env('BENCH_SIM_SLOTS', 30);
const SIM_TPS = env('BENCH_SIM_TPS', 1_000);
/** The simulator's pump mix (--sim-pump-mix syntax; '' today's default; `curve_v3=0,pool_v2=0,sweep=0,graduate=0`: the traffic before October 2026). */
const SIM_PUMP_MIX = process.env.BENCH_SIM_PUMP_MIX ?? '';
const BACKLOG = env('BENCH_BACKLOG', 100_000);
const REPEAT = env('BENCH_REPEAT', 1);
const ROUNDS = env('BENCH_PUMP_ROUNDS', 7);
const PASSES = env('BENCH_PUMP_PASSES', 20_000);
/** Slots between two copies of the templates (more than the simulated chain spans). */
const SLOT_SHIFT = 100_000n;
const say = (msg: string): void => void process.stderr.write(`[bench:parsed] ${msg}\n`);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** A pump transaction of the simulator that a default SubscribeParsed stream gets (failed ones are left out:
 * the default request does not ask for them), and the pump-owned account writes it made (the stream's join). */
interface Template {
  tx: TransactionEvent;
  writes: AccountEvent[];
}

async function simTemplates(): Promise<Template[]> {
  // At 1,000 tx/s curves complete within a few slots: PumpSwap pools are created and traded in the sample too.
  const batches = await collect({ seed: 7, maxSlots: SIM_SLOTS, fast: true, tps: SIM_TPS, pumpMix: parsePumpMix(SIM_PUMP_MIX) });
  const events = batches.flatMap((b) => b.events);
  const bySig = new Map<string, Template>();
  for (const e of events) {
    if (e.kind !== 'transactions') continue;
    const s = scanParsedTransaction(e.event);
    if (!s.failed && s.instructions.length > 0) bySig.set(e.event.signatures[0]!.toString('latin1'), { tx: e.event, writes: [] });
  }
  const owned = (owner: Buffer): boolean => PUMP_PROGRAMS.some((p) => p.programIdBytes.equals(owner));
  for (const e of events) {
    if (e.kind !== 'accounts' || !e.event.txnSignature || !owned(e.event.owner)) continue;
    bySig.get(Buffer.from(e.event.txnSignature).toString('latin1'))?.writes.push(e.event);
  }
  return [...bySig.values()];
}

/** `n` pump transactions as records: copies of the templates, each with a fresh signature (in its writes too)
 * and its copy's own slots. */
function backlog(templates: readonly Template[], n: number, firstCopy: number): ChainEvent[] {
  const out: ChainEvent[] = [];
  for (let i = 0; i < n; i++) {
    const t = templates[i % templates.length]!;
    const shift = BigInt(firstCopy + Math.floor(i / templates.length) + 1) * SLOT_SHIFT;
    const sig = randomBytes(64);
    out.push({ kind: 'transactions', event: { ...t.tx, slot: t.tx.slot + shift, signatures: [sig, ...t.tx.signatures.slice(1)] } });
    for (const w of t.writes) out.push({ kind: 'accounts', event: { ...w, slot: w.slot + shift, txnSignature: sig } });
  }
  return out;
}

function startWorker(role: 'api' | 'parsed-clients', envs: Record<string, string>): Promise<{ w: Worker; port?: number }> {
  const dir = role === 'api' ? process.env.BENCH_API_PROFILE : undefined;
  const extra = dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
  if (role === 'api' && process.env.BENCH_API_NODE_ARGS) extra.push(...process.env.BENCH_API_NODE_ARGS.split(' ').filter(Boolean));
  return startChild(new URL('./grpc-worker.ts', import.meta.url), role, envs, extra);
}

async function cpuSeconds(w: Worker): Promise<number> {
  const c = await w.request<{ user: number; system: number }>({ cmd: 'cpu' }, 'cpu');
  return (c.user + c.system) / 1e6;
}

async function parsedStreams(api: Worker): Promise<number> {
  return (await api.request<Record<string, number>>({ cmd: 'streams' }, 'streams')).SubscribeParsed ?? 0;
}

let copies = 0;

/** The next `txs` pump transactions' records: copies of the templates no earlier phase published. */
function nextBacklog(templates: readonly Template[], txs: number): ChainEvent[] {
  const records = backlog(templates, txs, copies);
  copies += Math.ceil(txs / templates.length);
  return records;
}

async function maxPhase(kafka: Kafka, topics: TopicNames, api: Worker, port: number, streamsN: number, templates: readonly Template[]) {
  const txs = Math.max(1, Math.floor(streamsN === 1 ? BACKLOG : BACKLOG / 10));
  const records = nextBacklog(templates, txs);
  const procs = streamsN === 1 ? 1 : 2;
  const workers: Worker[] = [];
  for (let p = 0; p < procs; p++) {
    const n = Math.floor(streamsN / procs) + (p < streamsN % procs ? 1 : 0);
    workers.push((await startWorker('parsed-clients', { BENCH_PORT: String(port), BENCH_N: String(n) })).w);
  }
  const deadline0 = Date.now() + 60_000;
  while ((await parsedStreams(api)) !== streamsN) {
    if (Date.now() > deadline0) throw new Error(`the api has ${await parsedStreams(api)} SubscribeParsed streams, not ${streamsN}`);
    await sleep(100);
  }
  await api.request({ cmd: 'pause', paused: true }, 'paused');
  await publish(kafka, topics, records);
  const cpu0 = await cpuSeconds(api);
  await api.request({ cmd: 'pause', paused: false }, 'paused');
  const want = txs * streamsN;
  let deadline = Date.now() + 30_000;
  let seen = 0;
  for (;;) {
    const stats = await Promise.all(workers.map((w) => w.request<{ n: number; first: number; last: number }>({ cmd: 'count' }, 'count')));
    const count = stats.reduce((a, s) => a + s.n, 0);
    if (count > seen) {
      seen = count;
      deadline = Date.now() + 30_000;
    }
    if (count >= want || Date.now() > deadline) {
      const cpu1 = await cpuSeconds(api);
      for (const w of workers) await stopWorker(w);
      const seconds = (Math.max(...stats.map((s) => s.last)) - Math.min(...stats.map((s) => s.first))) / 1000;
      return { streams: streamsN, delivered: count, want, perS: count / seconds, seconds, apiCpuS: cpu1 - cpu0 };
    }
    await sleep(100);
  }
}

/** The backlog's records as the ingest frames them (each slot's events whole, ingest/publish/framer.ts; its parsed
 * records, with `parsed`, after its data), and the CPU seconds the framing took here. */
function frameBacklog(
  partitions: ReadonlyMap<RecordKind, number>,
  topics: TopicNames,
  events: readonly ChainEvent[],
): { records: FramedRecord[]; cpuS: number } {
  const cpu0 = process.cpuUsage();
  const records = frameSlotRuns(new SlotFramer(partitions, topics), events);
  const cpu = process.cpuUsage(cpu0);
  return { records, cpuS: (cpu.user + cpu.system) / 1e6 };
}

/** Publishes the backlog as the ingest does (frameBacklog). Returns the records published and the framing's CPU;
 * `withoutParsed`: the same framing without the parsed topic is timed too, so the difference is the ingest's cost of
 * the parsed updates (decode, join, encoding, facts). */
async function publish(
  kafka: Kafka,
  topics: TopicNames,
  events: readonly ChainEvent[],
  withoutParsed = false,
): Promise<{ records: number; frameCpuS: number; plainCpuS?: number }> {
  const partitions = new Map(await Promise.all(RECORD_KINDS.map(async (k) => [k, await kafka.admin().partitionCount(topics[k])] as const)));
  const plain = withoutParsed ? frameBacklog(new Map([...partitions].filter(([k]) => k !== 'parsed')), topics, events) : undefined;
  const { records, cpuS } = frameBacklog(partitions, topics, events);
  const producer = await kafka.producer();
  for (let i = 0; i < records.length; i += 2_000) {
    await producer.send(
      records.slice(i, i + 2_000).map((r) => ({ topic: topics[r.kind], partition: r.partition, key: r.key, value: r.value })),
    );
  }
  await producer.close();
  return { records: records.length, frameCpuS: cpuS, plainCpuS: plain?.cpuS };
}

/** The api's CPU per second while nothing is published (measured over 3 seconds). */
async function idleRate(api: Worker): Promise<number> {
  const idle0 = await cpuSeconds(api);
  await sleep(3_000);
  return ((await cpuSeconds(api)) - idle0) / 3;
}

/** Waits until the api's CPU rate is back to `idlePerS` (3 seconds in a row within 50 ms of it); returns its CPU
 * seconds at the last busy second. */
async function untilIdle(api: Worker, idlePerS: number, cpu0: number): Promise<number> {
  let busy = cpu0;
  for (let prev = cpu0, quiet = 0; quiet < 3;) {
    await sleep(1_000);
    const now = await cpuSeconds(api);
    if (now - prev < idlePerS + 0.05) quiet++;
    else [quiet, busy] = [0, now];
    prev = now;
  }
  return busy;
}

/** The api's CPU to read `txs` pump transactions' records with no stream open: the live feed paused, the
 * backlog published, the feed resumed, and the api's CPU taken once its rate is back to what it was idle
 * (a profiler's own CPU is in both). */
async function floorPhase(kafka: Kafka, topics: TopicNames, api: Worker, templates: readonly Template[], txs: number) {
  const records = nextBacklog(templates, txs);
  if ((await parsedStreams(api)) !== 0) throw new Error('the floor is measured with no stream open');
  const idlePerS = await idleRate(api);
  await api.request({ cmd: 'pause', paused: true }, 'paused');
  const published = await publish(kafka, topics, records, true);
  const cpu0 = await cpuSeconds(api);
  await api.request({ cmd: 'pause', paused: false }, 'paused');
  const busy = await untilIdle(api, idlePerS, cpu0);
  return { records: published.records, txs, cpuS: busy - cpu0, parsedCpuS: published.frameCpuS - published.plainCpuS! };
}

/** One SubscribeParsed stream replaying `txs` pump transactions from their first slot (from_slot): the backlog is
 * published and read by the api's live tail first (no stream open), then the stream opens and counts from its first
 * update to its last. The replay reads the slots and parsed topics only (api/live/read-kinds.ts). */
async function replayPhase(kafka: Kafka, topics: TopicNames, api: Worker, port: number, templates: readonly Template[], txs: number) {
  const records = nextBacklog(templates, txs);
  let first: bigint | undefined;
  for (const e of records) if (e.kind === 'transactions' && (first === undefined || e.event.slot < first)) first = e.event.slot;
  const idlePerS = await idleRate(api);
  const cpuBefore = await cpuSeconds(api);
  await publish(kafka, topics, records);
  await untilIdle(api, idlePerS, cpuBefore);
  const cpu0 = await cpuSeconds(api);
  const { w } = await startWorker('parsed-clients', { BENCH_PORT: String(port), BENCH_N: '1', BENCH_FROM_SLOT: String(first) });
  let deadline = Date.now() + 60_000;
  let seen = 0;
  try {
    for (;;) {
      const s = await w.request<{ n: number; first: number; last: number }>({ cmd: 'count' }, 'count');
      if (s.n > seen) [seen, deadline] = [s.n, Date.now() + 30_000];
      if (s.n >= txs || Date.now() > deadline) {
        const cpu1 = await cpuSeconds(api);
        const seconds = (s.last - s.first) / 1000;
        return { delivered: s.n, want: txs, perS: s.n / seconds, seconds, apiCpuS: cpu1 - cpu0 };
      }
      await sleep(100);
    }
  } finally {
    await stopWorker(w);
  }
}

async function main(): Promise<void> {
  say(`machine at start: load avg ${load()}`);
  say(`simulating ${SIM_SLOTS} slots at ${SIM_TPS} tx/s (seed 7) for the pump traffic`);
  const templates = await simTemplates();
  const simTxs = templates.map((t) => t.tx);
  const figures: Record<string, string> = {};
  if (PHASE === 'all' || PHASE === 'decode') {
    const real = realDecodeCost(ROUNDS, PASSES);
    say(
      `real: ${real.transactions} mainnet pump/PumpSwap transactions (${real.instructions} instructions, ${real.events} events): ` +
        `decode ${real.pumpMicros.toFixed(2)} µs per transaction (target ≤ 5: ${real.pumpMicros <= 5 ? 'met' : 'NOT met'}); ` +
        `${real.otherMicros.toFixed(2)} µs per transaction of neither program`,
    );
    // As many transactions per round as the real part decodes (passes × 19).
    const sim = simDecodeCost(simTxs, ROUNDS, Math.max(1, Math.round((PASSES * real.transactions) / simTxs.length)));
    say(
      `sim: ${sim.transactions} simulated pump/PumpSwap transactions (${sim.instructions} instructions, ${sim.inner} of them inner, ${sim.events} events): ` +
        `decode ${sim.extractMicros.toFixed(2)} µs (target ≤ 5: ${sim.extractMicros <= 5 ? 'met' : 'NOT met'}), ` +
        `parsed content (decode + proto messages) ${sim.scanMicros.toFixed(2)} µs, encoding ${sim.encodeMicros.toFixed(2)} µs per transaction; load avg ${load()}`,
    );
    figures.real_decode_us = real.pumpMicros.toFixed(2);
    figures.sim_decode_us = sim.extractMicros.toFixed(2);
    figures.sim_parsed_us = sim.scanMicros.toFixed(2);
    figures.sim_encode_us = sim.encodeMicros.toFixed(2);
  }
  if (PHASE === 'all' || PHASE.startsWith('max') || PHASE === 'floor' || PHASE === 'replay') {
    const { brokers, local } = await benchBrokers(say);
    const prefix = `bench.parsed.${Date.now().toString(36)}`;
    const topics = topicNames(prefix);
    const kafka = createKafka({ brokers, clientId: 'bench-parsed' });
    await kafka.admin().ensureTopics(topics, { partitions: 4, retentionMs: -1, replicationFactor: 1 });
    const { w: api, port } = await startWorker('api', { BENCH_BROKERS: brokers.join(','), BENCH_PREFIX: prefix });
    try {
      const writes = templates.reduce((a, t) => a + t.writes.length, 0);
      say(`${templates.length} templates (pump transactions) with ${writes} curve/pool writes`);
      if (PHASE === 'all' || PHASE === 'floor') {
        const f = await floorPhase(kafka, topics, api, templates, BACKLOG);
        const perTx = (f.cpuS / f.txs) * 1e6;
        const perRecord = (f.cpuS / f.records) * 1e6;
        say(
          `floor: ${f.records} records (${f.txs} pump transactions and their writes) read with no stream open: api CPU ${f.cpuS.toFixed(2)} s = ` +
            `${perTx.toFixed(1)} µs per pump transaction (at most ${Math.round(1e6 / perTx)} per api CPU s), ${perRecord.toFixed(1)} µs per record; ` +
            `the ingest's parsed updates (framing with the parsed topic minus without) ${((f.parsedCpuS / f.txs) * 1e6).toFixed(1)} µs per pump transaction; load avg ${load()}`,
        );
        figures.floor_us_per_tx = perTx.toFixed(1);
        figures.floor_us_per_record = perRecord.toFixed(1);
        figures.ingest_parsed_us = ((f.parsedCpuS / f.txs) * 1e6).toFixed(1);
      }
      if (PHASE === 'all' || PHASE === 'replay') {
        let best: Awaited<ReturnType<typeof replayPhase>> | undefined;
        for (let r = 0; r < REPEAT; r++) {
          const m = await replayPhase(kafka, topics, api, port!, templates, BACKLOG);
          say(
            `replay to 1 SubscribeParsed stream (from_slot): ${m.perS.toFixed(0)} updates/s (${m.delivered}/${m.want} in ${m.seconds.toFixed(2)} s, ` +
              `api CPU ${m.apiCpuS.toFixed(2)} s = ${(m.delivered / m.apiCpuS).toFixed(0)} updates per api CPU s; load avg ${load()})`,
          );
          if (!best || m.perS > best.perS) best = m;
        }
        figures.one_stream_replay_per_s = best!.perS.toFixed(0);
        say(`one stream, replaying: target ≥ 50,000 updates/s ${best!.perS >= 50_000 ? 'met' : 'NOT met'}`);
      }
      for (const n of PHASE === 'floor' || PHASE === 'replay' ? [] : PHASE === 'max.1' ? [1] : PHASE === 'max.100' ? [100] : [1, 100]) {
        let best: Awaited<ReturnType<typeof maxPhase>> | undefined;
        for (let r = 0; r < REPEAT; r++) {
          const m = await maxPhase(kafka, topics, api, port!, n, templates);
          say(
            `max to ${n} SubscribeParsed stream${n === 1 ? '' : 's'}: ${m.perS.toFixed(0)} updates/s${n === 1 ? '' : ' total'} ` +
              `(${m.delivered}/${m.want} in ${m.seconds.toFixed(2)} s, api CPU ${m.apiCpuS.toFixed(2)} s = ${(m.delivered / m.apiCpuS).toFixed(0)} updates per api CPU s; load avg ${load()})`,
          );
          if (!best || m.perS > best.perS) best = m;
        }
        figures[n === 1 ? 'one_stream_per_s' : 'streams100_per_s'] = best!.perS.toFixed(0);
        if (n === 1) say(`one stream: target ≥ 50,000 updates/s ${best!.perS >= 50_000 ? 'met' : 'NOT met'}`);
      }
    } finally {
      await stopWorker(api);
      await kafka.close();
      await local?.stop();
    }
  }
  say(
    `machine at end: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load avg ${load()}`,
  );
  console.log(
    `parsed ${Object.entries(figures)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
}

main().catch((err: Error) => {
  say(err.stack ?? err.message);
  process.exit(1);
});
