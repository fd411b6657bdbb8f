// npm run bench:grpc — the gRPC api under load, end to end through a real broker, api in its own process
// (its CPU measured), clients in this one.
// 1. Ingest-driven: the ingest role (own process) runs the simulator at BENCH_TPS (default 5,000) tx/s;
//    BENCH_STREAMS (default 100) Subscribe streams each hold different account filters (transactions
//    including any of 20 keys, and account writes of the same keys; keys sampled from the running chain).
//    Latency = received minus the Kafka record timestamp (set by the ingest producer), joined by
//    signature, split at the api's created_at.
// 2. Paced: the simulator's transactions from phase 1, re-published at exactly BENCH_TPS by a plain
//    producer (fresh signatures), same 100 streams; latency = received minus send time. This is the run
//    that holds the target rate on a small machine where the ingest publisher cannot.
// 3. Most updates/s delivered to 1 and to 100 streams with match-all filters: the api's live feed is
//    paused, a backlog of simulator transactions is published, the feed resumes, and the clients count
//    updates (without decoding) from the first to the last.
// Last line (phase 2, max of 3): grpc p50_ms=<x> p99_ms=<y> streams=100 tx_per_s=5000 max_delivered_per_s=<n>
// Env: BENCH_TPS, BENCH_STREAMS, BENCH_SECONDS (measured window, default 20), BENCH_WARMUP_S (default 5),
// BENCH_BACKLOG (records for the max runs, default 100,000), BENCH_KAFKA_BROKERS (reuse a broker).
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import bs58 from 'bs58';
import { startLocalKafka, type LocalKafka } from '../deploy/kafka/launcher.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { StreamService, SubscribeRequest, SubscribeUpdate } from '../proto/gen/stream.js';
import { TransactionEvent } from '../schemas/codec.js';
import { topicNames, type TopicNames } from '../schemas/topics.js';

const env = (name: string, def: number): number => (process.env[name] ? Number(process.env[name]) : def);
const TPS = env('BENCH_TPS', 5000);
const STREAMS = env('BENCH_STREAMS', 100);
const SECONDS = env('BENCH_SECONDS', 20);
const WARMUP_S = env('BENCH_WARMUP_S', 5);
const BACKLOG = env('BENCH_BACKLOG', 100_000);
const KEYS_PER_FILTER = 20;
const say = (msg: string): void => void process.stderr.write(`[bench:grpc] ${msg}\n`);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// ---- child processes -------------------------------------------------------------------------------
interface Worker {
  proc: ChildProcess;
  request<T>(msg: object, key: string): Promise<T>;
}

function startWorker(role: 'api' | 'ingest' | 'clients', envs: Record<string, string>): Promise<{ w: Worker; port?: number }> {
  const proc = fork(fileURLToPath(new URL('./grpc-worker.ts', import.meta.url)), [role], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...envs },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const w: Worker = {
    proc,
    request: <T>(msg: object, key: string) =>
      new Promise<T>((resolve) => {
        const on = (m: Record<string, unknown>): void => {
          if (key in m) {
            proc.off('message', on);
            resolve(m[key] as T);
          }
        };
        proc.on('message', on);
        proc.send(msg);
      }),
  };
  return new Promise((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`${role} worker exited with ${code}`)));
    proc.on('message', (m: { ready?: boolean; port?: number }) => {
      if (m.ready) resolve({ w, port: m.port });
    });
  });
}

async function stopWorker(w: Worker): Promise<void> {
  if (w.proc.exitCode !== null) return;
  const exited = new Promise<void>((r) => w.proc.once('exit', () => r()));
  w.proc.send({ cmd: 'stop' });
  const timer = setTimeout(() => w.proc.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
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
          const tx = TransactionEvent.decode(m.value);
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
const DecodingClient = grpc.makeGenericClientConstructor(StreamService as unknown as grpc.ServiceDefinition, 'stream.Stream');

interface BenchStream {
  call: grpc.ClientDuplexStream<SubscribeRequest, unknown>;
  client: grpc.Client;
}

function openStream(Ctor: typeof DecodingClient, port: number, req: Partial<SubscribeRequest>, onData: (m: unknown) => void): BenchStream {
  const client = new Ctor(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
    'grpc.use_local_subchannel_pool': 1,
    'grpc.max_receive_message_length': -1,
  });
  const call = (client as unknown as { subscribe(): grpc.ClientDuplexStream<SubscribeRequest, unknown> }).subscribe();
  call.on('data', onData);
  call.on('error', (e: grpc.ServiceError) => {
    if (e.code !== grpc.status.CANCELLED) say(`stream error: ${e.message}`);
  });
  call.write(SubscribeRequest.fromPartial(req));
  return { call, client };
}

function closeStreams(streams: BenchStream[]): void {
  for (const s of streams) {
    s.call.cancel();
    s.client.close();
  }
}

/** STREAMS streams, each with its own account filters: transactions including any of its 20 keys, and
 * the account writes of the same keys. */
function openFilterStreams(port: number, keys: Buffer[], onUpdate: (u: SubscribeUpdate, at: number) => void): BenchStream[] {
  const streams: BenchStream[] = [];
  for (let i = 0; i < STREAMS; i++) {
    const mine = Array.from({ length: KEYS_PER_FILTER }, (_, j) => bs58.encode(keys[(i * KEYS_PER_FILTER + j) % Math.max(1, keys.length)]!));
    streams.push(
      openStream(DecodingClient, port, {
        transactions: { [`tx${i}`]: { accountInclude: mine, accountExclude: [], accountRequired: [] } },
        accounts: { [`acc${i}`]: { account: mine, owner: [], filters: [] } },
      }, (m) => onUpdate(m as SubscribeUpdate, Date.now())),
    );
  }
  return streams;
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

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
  const received: { sig: string; at: number; created: number }[] = [];
  let delivered = 0;
  let counting = false;
  const streams = openFilterStreams(port, keys, (u, at) => {
    if (!counting) return;
    delivered++;
    if (u.updateOneof?.$case === 'transaction') {
      const c = u.createdAt!;
      received.push({ sig: u.updateOneof.value.transaction!.signature.toString('latin1'), at, created: Number(c.seconds) * 1000 + c.nanos / 1e6 });
    }
  });
  await sleep(WARMUP_S * 1000);
  const tx0 = produced.txCount;
  const cpu0 = await cpuSeconds(api);
  const t0 = Date.now();
  counting = true;
  await sleep(SECONDS * 1000);
  counting = false;
  const wall = (Date.now() - t0) / 1000;
  const cpu1 = await cpuSeconds(api);
  const txPerS = (produced.txCount - tx0) / wall;
  await sleep(1_000); // let the produced log catch up with the last deliveries
  closeStreams(streams);
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
async function pacedPhase(kafka: Kafka, topics: TopicNames, api: Worker, port: number, keys: Buffer[], samples: { key: Buffer; value: Buffer }[]) {
  const sentAt = new Map<string, number>();
  const lat: number[] = [];
  let delivered = 0;
  let counting = false;
  const streams = openFilterStreams(port, keys, (u, at) => {
    if (!counting) return;
    delivered++;
    if (u.updateOneof?.$case === 'transaction') {
      const t = sentAt.get(u.updateOneof.value.transaction!.signature.toString('latin1'));
      if (t !== undefined) lat.push(at - t);
    }
  });
  // Where each sample's first signature sits in its encoded value, to stamp a fresh one in place.
  const templates = samples.map((r) => {
    const sig = TransactionEvent.decode(r.value).signatures[0]!;
    return { key: r.key, value: r.value, at: r.value.indexOf(sig) };
  }).filter((t) => t.at >= 0);
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
  const wall = (Date.now() - tCount) / 1000;
  const cpu1 = await cpuSeconds(api);
  counting = false;
  await producer.close();
  await sleep(500);
  closeStreams(streams);
  lat.sort((a, b) => a - b);
  return { p50: percentile(lat, 50), p99: percentile(lat, 99), max: lat[lat.length - 1] ?? NaN, samples: lat.length, txPerS: sent / wall, deliveredPerS: delivered / wall, apiCpu: (cpu1 - cpu0) / wall };
}

async function maxPhase(kafka: Kafka, topics: TopicNames, api: Worker, port: number, streamsN: number, samples: { key: Buffer; value: Buffer }[]) {
  const records = Math.max(1, Math.floor(streamsN === 1 ? BACKLOG : BACKLOG / 10));
  // Clients in their own processes (two for many streams), so they use the other core, not the api's.
  const procs = streamsN === 1 ? 1 : 2;
  const workers: Worker[] = [];
  for (let p = 0; p < procs; p++) {
    const n = Math.floor(streamsN / procs) + (p < streamsN % procs ? 1 : 0);
    workers.push((await startWorker('clients', { BENCH_PORT: String(port), BENCH_N: String(n) })).w);
  }
  await sleep(3_000); // streams registered
  await api.request({ cmd: 'pause', paused: true }, 'paused');
  const producer = await kafka.producer();
  for (let i = 0; i < records; i += 2_000) {
    const messages = Array.from({ length: Math.min(2_000, records - i) }, (_, j) => ({ topic: topics.transactions, ...samples[(i + j) % samples.length]! }));
    await producer.send(messages);
  }
  await producer.close();
  const cpu0 = await cpuSeconds(api);
  await api.request({ cmd: 'pause', paused: false }, 'paused');
  const want = records * streamsN;
  const deadline = Date.now() + 300_000;
  for (;;) {
    const stats = await Promise.all(workers.map((w) => w.request<{ n: number; first: number; last: number }>({ cmd: 'count' }, 'count')));
    const count = stats.reduce((a, s) => a + s.n, 0);
    if (count >= want || Date.now() > deadline) {
      const cpu1 = await cpuSeconds(api);
      for (const w of workers) await stopWorker(w);
      const seconds = (Math.max(...stats.map((s) => s.last)) - Math.min(...stats.map((s) => s.first))) / 1000;
      return { streams: streamsN, delivered: count, want, perS: count / seconds, seconds, apiCpuS: cpu1 - cpu0 };
    }
    await sleep(100);
  }
}

async function main(): Promise<void> {
  let local: LocalKafka | undefined;
  let brokers = (process.env.BENCH_KAFKA_BROKERS ?? '').split(',').filter(Boolean);
  if (brokers.length === 0) {
    say('starting a local Kafka broker');
    local = await startLocalKafka({ nodes: 1 });
    brokers = local.brokers;
  }
  const prefix = `bench.grpc.${Date.now().toString(36)}`;
  const topics = topicNames(prefix);
  const kafka = createKafka({ brokers, clientId: 'bench-grpc' });
  await kafka.admin().ensureTopics(topics, { partitions: 4, retentionMs: -1, replicationFactor: 1 });
  const { w: api, port } = await startWorker('api', { BENCH_BROKERS: brokers.join(','), BENCH_PREFIX: prefix });
  try {
    const lat = await latencyPhase(kafka, topics, brokers, prefix, api, port!);
    say(`latency split: produced -> built by api p50/p99 ${lat.toApi.map((x) => x.toFixed(1)).join('/')} ms; built -> received p50/p99 ${lat.toClient.map((x) => x.toFixed(1)).join('/')} ms`);
    say(`ingest-driven latency: p50 ${lat.p50} ms, p99 ${lat.p99} ms, max ${lat.max} ms over ${lat.samples} transaction updates; ` +
      `chain ${lat.txPerS.toFixed(0)} tx/s; delivered ${lat.deliveredPerS.toFixed(0)} updates/s; api CPU ${(lat.apiCpu * 100).toFixed(0)}% of a core`);
    const paced = await pacedPhase(kafka, topics, api, port!, lat.keys, lat.backlogSamples);
    say(`paced simulator transactions: p50 ${paced.p50} ms, p99 ${paced.p99} ms, max ${paced.max} ms over ${paced.samples} transaction updates; ` +
      `${paced.txPerS.toFixed(0)} tx/s; delivered ${paced.deliveredPerS.toFixed(0)} updates/s; api CPU ${(paced.apiCpu * 100).toFixed(0)}% of a core`);
    const one = await maxPhase(kafka, topics, api, port!, 1, lat.backlogSamples);
    say(`max to 1 stream: ${one.perS.toFixed(0)} updates/s (${one.delivered}/${one.want} in ${one.seconds.toFixed(2)} s, api CPU ${one.apiCpuS.toFixed(1)} s = ${(one.delivered / one.apiCpuS).toFixed(0)} updates per api CPU s)`);
    const many = await maxPhase(kafka, topics, api, port!, 100, lat.backlogSamples);
    say(`max to 100 streams: ${many.perS.toFixed(0)} updates/s total (${many.delivered}/${many.want} in ${many.seconds.toFixed(2)} s, api CPU ${many.apiCpuS.toFixed(1)} s = ${(many.delivered / many.apiCpuS).toFixed(0)} updates per api CPU s)`);
    say(`machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load avg ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    const maxDelivered = Math.max(one.perS, many.perS);
    // The last line reports the paced run: the only one that holds TPS on this machine (see bench/README.md).
    console.log(`grpc p50_ms=${paced.p50} p99_ms=${paced.p99} streams=${STREAMS} tx_per_s=${Math.round(paced.txPerS)} max_delivered_per_s=${Math.round(maxDelivered)}`);
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
