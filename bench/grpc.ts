// npm run bench:grpc — the gRPC api under load, end to end through a real broker, api in its own process
// (its CPU measured), clients in separate processes (bench/grpc-worker.ts roles, bench/grpc-clients.ts).
// 0. Bare transaction: through the seam's transactionalProducer, begin, 100 records of ~300 B over 4
//    partitions, commit; BENCH_BARE_CYCLES (default 300) timed cycles, p50/p99 (the floor under any commit).
// 1. Ingest-driven e2e: the ingest role (own process) runs the simulator at BENCH_TPS (default 5,000) tx/s;
//    BENCH_STREAMS (default 100) Subscribe streams in two client processes, each with different account
//    filters (transactions including any of 20 keys, and account writes of the same keys; keys sampled from
//    the running chain). e2e = the client's receive callback minus the Kafka record timestamp, which the
//    ingest sets to the moment the source handed the event over (behaviour.md's e2e: the simulator hands a
//    slot over in pieces across its 400 ms, and a record waits in the ingest for the running commit),
//    joined by signature, split at the api's created_at.
// 2. Paced: the simulator's transactions from phase 1, re-published at exactly BENCH_TPS by a plain
//    producer (fresh signatures), same 100 streams (separate processes); latency = received minus send time.
//    The api alone at the target rate.
// 2b. Paced through geyser.Geyser: phase 2 again with the same filters as Yellowstone Subscribe requests
//    (bench/grpc-geyser-clients.ts in two client processes); both services' api-internal latency (the
//    api's read of the record, created_at, -> the client's receive callback) reported side by side.
// 3. Most updates/s delivered to 1 and to 100 streams with match-all filters: the api's live feed is
//    paused, a backlog of simulator transactions is published, the feed resumes, and the clients count
//    updates (without decoding) from the first to the last.
// Last two lines:
//   grpc_bare_tx cycles=<n> records=100 record_bytes=300 partitions=4 p50_ms=<p> p99_ms=<q>
//   grpc p50_ms=<x> p99_ms=<y> streams=100 tx_per_s=5000 max_delivered_per_s=<n> e2e_p50_ms=<a> e2e_p99_ms=<b> one_stream_per_s=<c>
//     internal_p50_ms=<i> internal_p99_ms=<j> geyser_p50_ms=<g> geyser_p99_ms=<h> geyser_sent_p50_ms=<s> geyser_sent_p99_ms=<t> geyser_tx_per_s=<r>
//   (p50/p99: phase 2; max_delivered: best of phase 3; e2e: phase 1; one_stream: phase 3, 1 stream;
//   internal_*: phase 2 api-internal; geyser_p50/p99: phase 2b api-internal; geyser_sent_*: 2b as p50/p99.)
// Env: BENCH_TPS, BENCH_STREAMS, BENCH_SECONDS (measured window, default 20), BENCH_WARMUP_S (default 5),
// BENCH_BACKLOG (records for the max runs, default 100,000), BENCH_BARE_CYCLES (300), BENCH_KAFKA_BROKERS,
// BENCH_SAMPLES_FILE (phase 3 alone: read its sample from this file, or record it there when absent, so two trees run the same records),
// BENCH_PHASE (`1`: only phases 0 and 1, the summary line then holds the e2e figures; `3`: only phase 3, on simulator transactions sampled from a short ingest run; `3.1`: only its
// one-stream run; the summary line then holds only what ran), BENCH_REPEAT (phase 3 runs, default 1; each
// reported, the summary takes the best), BENCH_API_PROFILE / BENCH_CLIENT_PROFILE (a folder: V8 CPU profiles
// of the api / the phase-3 client processes, written there when they stop), BENCH_API_NODE_ARGS (extra node
// flags for the api process, space-separated), BENCH_KEYS=1 (phase 3 only: the api checks keys from a keys file,
// `--keys-file`, one key with a streams and a streamBytesPerSecond limit it never reaches, and the counting streams
// present it as x-token: run with and without, same session, for the access check's per-update cost).
import { startWorker as startChild, stopWorker, type Worker } from './support/workers.js';
import { readSamplesFile, writeSamplesFile } from './support/samples-file.js';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import bs58 from 'bs58';
import { benchBrokers } from './support/brokers.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { TransactionEvent } from '../schemas/codec.js';
import { scanTransaction } from '../schemas/scan.js';
import { topicNames, type TopicNames } from '../schemas/topics.js';

const env = (name: string, def: number): number => (process.env[name] ? Number(process.env[name]) : def);
const TPS = env('BENCH_TPS', 5000);
const STREAMS = env('BENCH_STREAMS', 100);
const SECONDS = env('BENCH_SECONDS', 20);
const WARMUP_S = env('BENCH_WARMUP_S', 5);
const BACKLOG = env('BENCH_BACKLOG', 100_000);
const BARE_CYCLES = env('BENCH_BARE_CYCLES', 300);
const PHASE = process.env.BENCH_PHASE ?? 'all';
const REPEAT = env('BENCH_REPEAT', 1);
const KEYS_PER_FILTER = 20;
const say = (msg: string): void => void process.stderr.write(`[bench:grpc] ${msg}\n`);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// ---- child processes -------------------------------------------------------------------------------
function startWorker(
  role: 'api' | 'ingest' | 'clients' | 'filter-clients',
  envs: Record<string, string>,
): Promise<{ w: Worker; port?: number }> {
  const dir = role === 'api' ? process.env.BENCH_API_PROFILE : role === 'clients' ? process.env.BENCH_CLIENT_PROFILE : undefined;
  const profile = dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
  // BENCH_API_NODE_ARGS: extra node flags for the api process (experiments: GC sizing, tracing).
  if (role === 'api' && process.env.BENCH_API_NODE_ARGS) profile.push(...process.env.BENCH_API_NODE_ARGS.split(' ').filter(Boolean));
  return startChild(new URL('./grpc-worker.ts', import.meta.url), role, envs, profile);
}

async function cpuSeconds(w: Worker): Promise<number> {
  const c = await w.request<{ user: number; system: number }>({ cmd: 'cpu' }, 'cpu');
  return (c.user + c.system) / 1e6;
}

// ---- produced timestamps, key sampling ----------------------------------------------------------
class ProducedLog {
  readonly producedAt = new Map<string, number>();
  readonly keyCounts = new Map<string, number>();
  readonly samples: { key: Buffer; value: Buffer }[] = [];
  txCount = 0;
  sampling = true;

  static async start(kafka: Kafka, topics: TopicNames): Promise<{ log: ProducedLog; stop: () => Promise<void> }> {
    const log = new ProducedLog();
    // From the topic's current end: what the ingest publishes from now on.
    const reader = await kafka.partitionReader({
      topics: [topics.transactions],
      purpose: 'bench-produced',
      maxWaitMs: 50,
      onRecords: (records) => {
        for (const m of records) {
          if (!m.value) continue;
          // Scanned, not decoded: this reader shares the 2 cores with what it measures.
          const tx = scanTransaction(m.value);
          const sig = tx.signatures[0];
          if (!sig) continue;
          log.txCount++;
          log.producedAt.set(sig.toString('latin1'), m.timestamp);
          if (log.sampling) {
            for (const k of tx.accountKeys) {
              const id = k.toString('latin1');
              log.keyCounts.set(id, (log.keyCounts.get(id) ?? 0) + 1);
            }
            if (log.samples.length < 5_000) log.samples.push({ key: m.key ?? Buffer.alloc(8), value: m.value });
          }
        }
      },
    });
    return { log, stop: () => reader.stop() };
  }
}

// ---- clients ----------------------------------------------------------------------------------------
/** Which service the latency clients subscribe through: stream.Stream, or Yellowstone's geyser.Geyser
 * (bench/grpc-geyser-clients.ts: grpc-js with @triton-one/yellowstone-grpc's published codecs). */
type Service = 'stream' | 'geyser';

/** STREAMS streams, each with its own account filters (transactions including any of its 20 keys, and the
 * account writes of the same keys), in two client processes (filter-clients role), which decode and stamp
 * each update in the receive callback. */
class FilterClients {
  private constructor(private readonly workers: Worker[]) {}

  static async open(port: number, keys: Buffer[], service: Service = 'stream'): Promise<FilterClients> {
    const filters = Array.from({ length: STREAMS }, (_, i) =>
      Array.from({ length: KEYS_PER_FILTER }, (_, j) => bs58.encode(keys[(i * KEYS_PER_FILTER + j) % Math.max(1, keys.length)]!)),
    );
    const procs = STREAMS > 1 ? 2 : 1;
    const workers: Worker[] = [];
    let base = 0;
    for (let p = 0; p < procs; p++) {
      const n = Math.floor(STREAMS / procs) + (p < STREAMS % procs ? 1 : 0);
      const { w } = await startWorker('filter-clients', { BENCH_SERVICE: service });
      await w.request({ cmd: 'open', port, filters: filters.slice(base, base + n), base }, 'opened');
      workers.push(w);
      base += n;
    }
    return new FilterClients(workers);
  }

  async counting(on: boolean): Promise<void> {
    await Promise.all(this.workers.map((w) => w.request({ cmd: 'counting', on }, 'counting')));
  }

  /** Updates delivered since the last take, and the transaction updates: [signature (latin1), received, created_at]. */
  async take(): Promise<{ delivered: number; received: { sig: string; at: number; created: number }[] }> {
    const parts = await Promise.all(
      this.workers.map((w) => w.request<{ delivered: number; received: [string, number, number][] }>({ cmd: 'take' }, 'take')),
    );
    return {
      delivered: parts.reduce((a, p) => a + p.delivered, 0),
      received: parts.flatMap((p) =>
        p.received.map(([sig, at, created]) => ({ sig: Buffer.from(sig, 'base64').toString('latin1'), at, created })),
      ),
    };
  }

  async close(): Promise<void> {
    for (const w of this.workers) await stopWorker(w);
  }
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

// ---- phases -----------------------------------------------------------------------------------------
async function latencyPhase(kafka: Kafka, topics: TopicNames, brokers: string[], prefix: string, api: Worker, port: number) {
  const { log: produced, stop: stopProduced } = await ProducedLog.start(kafka, topics);
  say(`starting ingest: simulator at ${TPS} tx/s`);
  const { w: ingest } = await startWorker('ingest', { BENCH_BROKERS: brokers.join(','), BENCH_PREFIX: prefix, BENCH_TPS: String(TPS) });
  // Sample keys from the first few thousand transactions of the running chain.
  const sampleDeadline = Date.now() + 120_000;
  while (produced.txCount < 4_000) {
    if (Date.now() > sampleDeadline) throw new Error(`the chain produced only ${produced.txCount} transactions in 120 s`);
    await sleep(100);
  }
  produced.sampling = false;
  // Keys seen in fewer than 1% of transactions: wallets, mints, curves; not programs or sysvars.
  const limit = Math.max(2, produced.txCount / 100);
  const keys = [...produced.keyCounts].filter(([, n]) => n <= limit).map(([k]) => Buffer.from(k, 'latin1'));
  say(`sampled ${produced.txCount} transactions, ${keys.length} candidate keys; opening ${STREAMS} streams`);
  const clients = await FilterClients.open(port, keys);
  await sleep(WARMUP_S * 1000);
  const tx0 = produced.txCount;
  const cpu0 = await cpuSeconds(api);
  await clients.counting(true);
  const t0 = Date.now();
  await sleep(SECONDS * 1000);
  await clients.counting(false);
  const wall = (Date.now() - t0) / 1000;
  const cpu1 = await cpuSeconds(api);
  const txPerS = (produced.txCount - tx0) / wall;
  const { delivered, received } = await clients.take();
  await sleep(1_000); // let the produced log catch up with the last deliveries
  await clients.close();
  await stopWorker(ingest);
  await stopProduced();
  const known = received.filter((r) => produced.producedAt.has(r.sig));
  const sorted = (xs: number[]): number[] => xs.sort((a, b) => a - b);
  const lat = sorted(known.map((r) => r.at - produced.producedAt.get(r.sig)!));
  // Where the time goes: record timestamp -> built by the api (ingest transaction commit + Kafka + live
  // tail), and built by the api -> received by the client (match, queue, HTTP/2, client).
  const toApi = sorted(known.map((r) => r.created - produced.producedAt.get(r.sig)!));
  const toClient = sorted(known.map((r) => r.at - r.created));
  return {
    p50: percentile(lat, 50),
    p99: percentile(lat, 99),
    max: lat[lat.length - 1] ?? NaN,
    samples: lat.length,
    toApi: [percentile(toApi, 50), percentile(toApi, 99)],
    toClient: [percentile(toClient, 50), percentile(toClient, 99)],
    txPerS,
    deliveredPerS: delivered / wall,
    apiCpu: (cpu1 - cpu0) / wall,
    backlogSamples: produced.samples,
    keys,
  };
}

/**
 * The api at exactly TPS transactions/s, independent of how fast the ingest role can publish on this
 * machine: the simulator's own transactions (sampled in phase 1) are re-published paced, every 10 ms,
 * each with a fresh first signature, by a plain producer; latency = received minus send time.
 */
/** Where each sample's first signature sits in its encoded value, to stamp a fresh one in place (the live
 * tail reads uncommitted and takes a record whose signature it saw in the same slot for a re-published copy). */
function signatureTemplates(samples: { key: Buffer; value: Buffer }[]): { key: Buffer; value: Buffer; at: number }[] {
  return samples
    .map((r) => {
      const sig = TransactionEvent.decode(r.value).signatures[0]!;
      return { key: r.key, value: r.value, at: r.value.indexOf(sig) };
    })
    .filter((t) => t.at >= 0);
}

async function pacedPhase(
  kafka: Kafka,
  topics: TopicNames,
  api: Worker,
  port: number,
  keys: Buffer[],
  samples: { key: Buffer; value: Buffer }[],
  service: Service = 'stream',
) {
  const sentAt = new Map<string, number>();
  const clients = await FilterClients.open(port, keys, service);
  let counting = false;
  const templates = signatureTemplates(samples);
  const producer = await kafka.producer();
  await sleep(2_000);
  let total = 0;
  let i = 0;
  let sent = 0;
  const t0 = Date.now();
  const end = t0 + (WARMUP_S + SECONDS) * 1000;
  let cpu0 = 0;
  let tCount = 0;
  while (Date.now() < end) {
    if (!counting && Date.now() >= t0 + WARMUP_S * 1000) {
      counting = true;
      await clients.counting(true);
      cpu0 = await cpuSeconds(api);
      tCount = Date.now();
      sent = 0;
    }
    const now = Date.now();
    // Time-based: a slow send is caught up on the next tick, so the rate holds on average.
    let due = Math.floor(((now - t0) / 1000) * TPS) - total;
    const messages: { topic: string; key: Buffer; value: Buffer }[] = [];
    for (; due >= 1; due--) {
      const tpl = templates[i++ % templates.length]!;
      const value = Buffer.from(tpl.value);
      const sig = randomBytes(64);
      sig.copy(value, tpl.at);
      sentAt.set(sig.toString('latin1'), now);
      messages.push({ topic: topics.transactions, key: tpl.key, value });
    }
    if (messages.length > 0) await producer.send(messages);
    sent += messages.length;
    total += messages.length;
    const next = now + 10 - Date.now();
    if (next > 0) await sleep(next);
  }
  await clients.counting(false);
  const wall = (Date.now() - tCount) / 1000;
  const cpu1 = await cpuSeconds(api);
  const { delivered, received } = await clients.take();
  await producer.close();
  await clients.close();
  const lat: number[] = [];
  // api-internal (behaviour.md): created_at, the api's read of the record, -> the receive callback.
  const internal: number[] = [];
  for (const r of received) {
    const t = sentAt.get(r.sig);
    if (t !== undefined) {
      lat.push(r.at - t);
      internal.push(r.at - r.created);
    }
  }
  lat.sort((a, b) => a - b);
  internal.sort((a, b) => a - b);
  return {
    p50: percentile(lat, 50),
    p99: percentile(lat, 99),
    max: lat[lat.length - 1] ?? NaN,
    samples: lat.length,
    txPerS: sent / wall,
    deliveredPerS: delivered / wall,
    apiCpu: (cpu1 - cpu0) / wall,
    internal: { p50: percentile(internal, 50), p99: percentile(internal, 99), max: internal[internal.length - 1] ?? NaN },
  };
}

/** Phase 3 alone: the ingest runs the simulator just long enough to sample 5,000 of its transactions. */
async function sampleChain(brokers: string[], prefix: string, kafka: Kafka, topics: TopicNames): Promise<{ key: Buffer; value: Buffer }[]> {
  const file = process.env.BENCH_SAMPLES_FILE;
  const recorded = file ? readSamplesFile(file) : undefined;
  if (recorded) {
    say(`${recorded.length} transactions read from ${file}`);
    return recorded;
  }
  const { log, stop } = await ProducedLog.start(kafka, topics);
  say(`sampling the simulator's transactions: ingest at ${TPS} tx/s`);
  const { w: ingest } = await startWorker('ingest', { BENCH_BROKERS: brokers.join(','), BENCH_PREFIX: prefix, BENCH_TPS: String(TPS) });
  const deadline = Date.now() + 120_000;
  while (log.samples.length < 5_000) {
    if (Date.now() > deadline) throw new Error(`the chain produced only ${log.samples.length} transactions in 120 s`);
    await sleep(100);
  }
  await stopWorker(ingest);
  await stop();
  await sleep(1_000); // the api's live tail past what the ingest published
  if (file) writeSamplesFile(file, log.samples);
  return log.samples;
}

async function maxPhase(
  kafka: Kafka,
  topics: TopicNames,
  api: Worker,
  port: number,
  streamsN: number,
  samples: { key: Buffer; value: Buffer }[],
) {
  const records = Math.max(1, Math.floor(streamsN === 1 ? BACKLOG : BACKLOG / 10));
  // Clients in their own processes (two for many streams), so they use the other core, not the api's.
  const procs = streamsN === 1 ? 1 : 2;
  const workers: Worker[] = [];
  for (let p = 0; p < procs; p++) {
    const n = Math.floor(streamsN / procs) + (p < streamsN % procs ? 1 : 0);
    workers.push((await startWorker('clients', { BENCH_PORT: String(port), BENCH_N: String(n) })).w);
  }
  await sleep(500); // the workers answered once their streams were registered (a pong after the subscription)
  await api.request({ cmd: 'pause', paused: true }, 'paused');
  const producer = await kafka.producer();
  const templates = signatureTemplates(samples);
  for (let i = 0; i < records; i += 2_000) {
    const messages = Array.from({ length: Math.min(2_000, records - i) }, (_, j) => {
      // Every record a transaction of its own: a fresh first signature.
      const tpl = templates[(i + j) % templates.length]!;
      const value = Buffer.from(tpl.value);
      randomBytes(64).copy(value, tpl.at);
      return { topic: topics.transactions, key: tpl.key, value };
    });
    await producer.send(messages);
  }
  await producer.close();
  const cpu0 = await cpuSeconds(api);
  const clientCpu0 = await Promise.all(workers.map(cpuSeconds));
  await api.request({ cmd: 'pause', paused: false }, 'paused');
  const want = records * streamsN;
  // Given up when nothing more arrived for 30 s.
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
      const clientCpu1 = await Promise.all(workers.map(cpuSeconds));
      for (const w of workers) await stopWorker(w);
      const seconds = (Math.max(...stats.map((s) => s.last)) - Math.min(...stats.map((s) => s.first))) / 1000;
      // Client CPU includes the idle wait before the first update (small: a pause-resume takes ~100 ms).
      const clientCpuS = clientCpu1.reduce((a, c, i) => a + c - clientCpu0[i]!, 0);
      return { streams: streamsN, delivered: count, want, perS: count / seconds, seconds, apiCpuS: cpu1 - cpu0, clientCpuS };
    }
    await sleep(100);
  }
}

/**
 * A bare librdkafka transaction through the seam's transactionalProducer: begin, 100 records of ~300 B
 * spread over 4 partitions, commit; BARE_CYCLES timed cycles (after 20 untimed), begin to commit resolved.
 * Its own topic, so nothing reads it. The floor under any per-slot (or per-group) commit of the ingest.
 */
async function bareCyclePhase(kafka: Kafka, prefix: string) {
  const bare = topicNames(`${prefix}.bare`);
  await kafka.admin().ensureTopics(bare, { partitions: 4, retentionMs: -1, replicationFactor: 1 });
  const producer = await kafka.transactionalProducer({ transactionalId: `${prefix}.bare.tx` });
  const value = randomBytes(300);
  const ms: number[] = [];
  try {
    for (let c = 0; c < 20 + BARE_CYCLES; c++) {
      const t0 = performance.now();
      await producer.begin();
      for (let i = 0; i < 100; i++) {
        const key = Buffer.alloc(8);
        key.writeBigUInt64BE(BigInt(c * 100 + i));
        producer.send({ topic: bare.transactions, partition: i % 4, key, value });
      }
      await producer.commit();
      if (c >= 20) ms.push(performance.now() - t0);
    }
  } finally {
    await producer.close();
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p99: percentile(ms, 99), max: ms[ms.length - 1] ?? NaN, cycles: ms.length };
}

/** BENCH_KEYS=1: a keys file with one key, its path and the key in the environment the workers inherit. */
function keysFileForWorkers(): boolean {
  if (process.env.BENCH_KEYS !== '1') return false;
  if (!PHASE.startsWith('3')) throw new Error('BENCH_KEYS=1 runs with BENCH_PHASE=3 (only the counting clients present a key)');
  const key = randomBytes(24).toString('base64url');
  const file = join(mkdtempSync(join(tmpdir(), 'bench-grpc-keys-')), 'keys.json');
  // Limits that apply on every update (the byte bucket) and every stream, set far above what the run reaches.
  const limits = { streams: 10_000, streamBytesPerSecond: 1e15 };
  const sha256 = createHash('sha256').update(key).digest('hex');
  writeFileSync(file, JSON.stringify({ keys: [{ id: 'bench', sha256, limits }] }));
  process.env.BENCH_KEYS_FILE = file;
  process.env.BENCH_API_KEY = key;
  return true;
}

async function main(): Promise<void> {
  const keys = keysFileForWorkers();
  const { brokers, local } = await benchBrokers(say);
  const prefix = `bench.grpc.${Date.now().toString(36)}`;
  const topics = topicNames(prefix);
  const kafka = createKafka({ brokers, clientId: 'bench-grpc' });
  await kafka.admin().ensureTopics(topics, { partitions: 4, retentionMs: -1, replicationFactor: 1 });
  const { w: api, port } = await startWorker('api', { BENCH_BROKERS: brokers.join(','), BENCH_PREFIX: prefix });
  try {
    say(
      `machine at start: load avg ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    const maxRun = async (streamsN: number, samples: { key: Buffer; value: Buffer }[]) => {
      let best: Awaited<ReturnType<typeof maxPhase>> | undefined;
      for (let r = 0; r < REPEAT; r++) {
        const m = await maxPhase(kafka, topics, api, port!, streamsN, samples);
        say(
          `max to ${streamsN} stream${streamsN === 1 ? '' : 's'}: ${m.perS.toFixed(0)} updates/s${streamsN === 1 ? '' : ' total'} (${m.delivered}/${m.want} in ${m.seconds.toFixed(2)} s, ` +
            `api CPU ${m.apiCpuS.toFixed(2)} s = ${(m.delivered / m.apiCpuS).toFixed(0)} updates per api CPU s; client CPU ${m.clientCpuS.toFixed(2)} s = ` +
            `${((m.clientCpuS / m.seconds) * 100).toFixed(0)}% of a core over the run; load avg ${loadavg()
              .map((l) => l.toFixed(2))
              .join(' ')})`,
        );
        if (!best || m.perS > best.perS) best = m;
      }
      return best!;
    };
    if (PHASE.startsWith('3')) {
      // Phase 3 alone: simulator transactions sampled from a short ingest run, then the max runs.
      const samples = await sampleChain(brokers, prefix, kafka, topics);
      const one = PHASE === '3.100' ? undefined : await maxRun(1, samples);
      const many = PHASE === '3.1' ? undefined : await maxRun(100, samples);
      say(
        `machine at end: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load avg ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
      );
      // The api's CPU per update delivered to the 100 streams (or the one): what the access check adds per update.
      const cpuRun = many ?? one!;
      console.log(
        `grpc keys=${keys ? 'on' : 'off'}` +
          (many ? ` max_delivered_per_s=${Math.round(Math.max(many.perS, one?.perS ?? 0))}` : '') +
          (one ? ` one_stream_per_s=${Math.round(one.perS)}` : '') +
          ` api_cpu_us_per_update=${((cpuRun.apiCpuS / cpuRun.delivered) * 1e6).toFixed(2)}`,
      );
      return;
    }
    const bare = await bareCyclePhase(kafka, prefix);
    say(
      `bare transaction (100 x 300 B over 4 partitions, begin -> commit): p50 ${bare.p50.toFixed(1)} ms, p99 ${bare.p99.toFixed(1)} ms, max ${bare.max.toFixed(1)} ms over ${bare.cycles} cycles`,
    );
    const lat = await latencyPhase(kafka, topics, brokers, prefix, api, port!);
    say(
      `e2e split: record timestamp -> built by api p50/p99 ${lat.toApi.map((x) => x.toFixed(1)).join('/')} ms; built -> received p50/p99 ${lat.toClient.map((x) => x.toFixed(1)).join('/')} ms`,
    );
    say(
      `ingest-driven e2e (record timestamp -> client receive callback, clients in 2 processes): p50 ${lat.p50} ms, p99 ${lat.p99} ms, max ${lat.max} ms over ${lat.samples} transaction updates; ` +
        `chain ${lat.txPerS.toFixed(0)} tx/s; delivered ${lat.deliveredPerS.toFixed(0)} updates/s; api CPU ${(lat.apiCpu * 100).toFixed(0)}% of a core`,
    );
    if (PHASE === '1') {
      console.log(
        `grpc_bare_tx cycles=${bare.cycles} records=100 record_bytes=300 partitions=4 p50_ms=${bare.p50.toFixed(1)} p99_ms=${bare.p99.toFixed(1)}`,
      );
      console.log(`grpc e2e_p50_ms=${lat.p50} e2e_p99_ms=${lat.p99}`);
      return;
    }
    const paced = await pacedPhase(kafka, topics, api, port!, lat.keys, lat.backlogSamples);
    say(
      `paced simulator transactions: p50 ${paced.p50} ms, p99 ${paced.p99} ms, max ${paced.max} ms over ${paced.samples} transaction updates; ` +
        `${paced.txPerS.toFixed(0)} tx/s; delivered ${paced.deliveredPerS.toFixed(0)} updates/s; api CPU ${(paced.apiCpu * 100).toFixed(0)}% of a core`,
    );
    // The same paced run through geyser.Geyser (same filters, clients in 2 processes), beside stream.Stream's.
    const geyser = await pacedPhase(kafka, topics, api, port!, lat.keys, lat.backlogSamples, 'geyser');
    say(
      `paced through geyser.Geyser: p50 ${geyser.p50} ms, p99 ${geyser.p99} ms, max ${geyser.max} ms over ${geyser.samples} transaction updates; ` +
        `${geyser.txPerS.toFixed(0)} tx/s; delivered ${geyser.deliveredPerS.toFixed(0)} updates/s; api CPU ${(geyser.apiCpu * 100).toFixed(0)}% of a core`,
    );
    say(
      `paced api-internal (api read -> client receive callback) p50/p99/max: stream.Stream ${paced.internal.p50}/${paced.internal.p99}/${paced.internal.max} ms, ` +
        `geyser.Geyser ${geyser.internal.p50}/${geyser.internal.p99}/${geyser.internal.max} ms`,
    );
    const one = await maxRun(1, lat.backlogSamples);
    const many = await maxRun(100, lat.backlogSamples);
    say(
      `machine at end: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load avg ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    const maxDelivered = Math.max(one.perS, many.perS);
    // p50/p99: the paced run (the api alone at TPS); e2e: the ingest-driven run; one_stream: phase 3.
    console.log(
      `grpc_bare_tx cycles=${bare.cycles} records=100 record_bytes=300 partitions=4 p50_ms=${bare.p50.toFixed(1)} p99_ms=${bare.p99.toFixed(1)}`,
    );
    console.log(
      `grpc p50_ms=${paced.p50} p99_ms=${paced.p99} streams=${STREAMS} tx_per_s=${Math.round(paced.txPerS)} max_delivered_per_s=${Math.round(maxDelivered)} ` +
        `e2e_p50_ms=${lat.p50} e2e_p99_ms=${lat.p99} one_stream_per_s=${Math.round(one.perS)} ` +
        `internal_p50_ms=${paced.internal.p50} internal_p99_ms=${paced.internal.p99} geyser_p50_ms=${geyser.internal.p50} geyser_p99_ms=${geyser.internal.p99} ` +
        `geyser_sent_p50_ms=${geyser.p50} geyser_sent_p99_ms=${geyser.p99} geyser_tx_per_s=${Math.round(geyser.txPerS)}`,
    );
  } finally {
    await stopWorker(api);
    await kafka.close();
    await local?.stop();
  }
}

main().catch((err: Error) => {
  say(err.stack ?? err.message);
  process.exit(1);
});
