// npm run bench:ingest — ingest throughput against a local broker, next to the broker's raw
// throughput measured with Kafka's own ProducerPerformance from the same jars, same record size and
// the same acks / idempotence / transactions. The last line is the machine-readable summary:
//   ingest events_per_s=<N> signed_events_per_s=<S> raw_kafka_events_per_s=<M> ratio=<N/M>
// Env: BENCH_SECONDS (fast run, default 20), BENCH_SIGNED_SECONDS (default 15), BENCH_TPS (chain tps,
// default 4000, about mainnet), BENCH_RAW_RECORDS (ProducerPerformance records, default 2,000,000),
// BENCH_WARMUP_SECONDS (discarded ingest run on the fresh broker first, default 8).
import { execFile } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { connectKafka } from '../cli/infrastructure.js';
import { ensureKafkaJars, startLocalKafka } from '../deploy/kafka/launcher.js';
import { startIngest } from '../ingest/run.js';
import { ingestMetrics } from '../ingest/metrics.js';
import { Publisher } from '../ingest/publisher.js';
import { pump } from '../ingest/pump.js';
import { createSimSource } from '../ingest/sim/index.js';
import type { SlotBatch } from '../ingest/source.js';
import { makeConfig } from '../platform/config.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { createLogger } from '../platform/log.js';
import { topicNames, type TopicNames } from '../schemas/topics.js';

const execFileP = promisify(execFile);
const env = (name: string, def: number): number => (process.env[name] ? Number(process.env[name]) : def);
const FAST_S = env('BENCH_SECONDS', 20);
const SIGNED_S = env('BENCH_SIGNED_SECONDS', 15);
const TPS = env('BENCH_TPS', 4000);
const RAW_RECORDS = env('BENCH_RAW_RECORDS', 2_000_000);
const WARMUP_S = env('BENCH_WARMUP_SECONDS', 8);
const PARTITIONS = 4;
const log = createLogger(process.env.LOG_LEVEL ?? 'warn', 'bench-ingest');
const say = (msg: string) => process.stderr.write(`[bench:ingest] ${msg}\n`);

async function sum(name: 'records' | 'bytes' | 'transactions'): Promise<number> {
  const m = await ingestMetrics()[name].get();
  return m.values.reduce((n, v) => n + v.value, 0);
}

interface RunResult {
  events: number;
  bytes: number;
  seconds: number;
  transactions: number;
  /** CPU seconds this process used (user + system): on a busy machine wall time says little. */
  cpuSeconds: number;
}

const cpuSince = (start: NodeJS.CpuUsage): number => {
  const u = process.cpuUsage(start);
  return (u.user + u.system) / 1e6;
};

async function runIngest(brokers: string[], fast: boolean, seconds: number): Promise<RunResult> {
  const config = makeConfig('ingest', {
    kafkaBrokers: brokers,
    topicPrefix: `bench-ingest-${fast ? 'fast' : 'signed'}-${Date.now().toString(36)}`,
    partitions: PARTITIONS,
    slotMs: 0,
    tps: TPS,
    fast,
    retentionMs: 3_600_000,
    logLevel: 'warn',
  });
  // Wired as the ingest role is (cli/roles.ts): one Kafka client set with the topics created.
  const { kafka, topics } = await connectKafka(config, log, 'bench-ingest');
  let elapsed: number;
  let cpu: NodeJS.CpuUsage;
  let r0: number, b0: number, t0: number;
  try {
    const handle = await startIngest(config, log, { kafka, topics });
    [r0, b0, t0] = [await sum('records'), await sum('bytes'), await sum('transactions')];
    const started = performance.now();
    cpu = process.cpuUsage();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    await handle.stop();
    elapsed = (performance.now() - started) / 1000;
  } finally {
    await kafka.close();
  }
  return {
    cpuSeconds: cpuSince(cpu),
    events: (await sum('records')) - r0,
    bytes: (await sum('bytes')) - b0,
    seconds: elapsed,
    transactions: (await sum('transactions')) - t0,
  };
}

/** The publisher alone: slots simulated into memory first, then published as fast as it goes. */
async function publishOnly(brokers: string[], events: number): Promise<{ events: number; seconds: number; cpuSeconds: number; simPerSecond: number; simPerCpuSecond: number }> {
  const sim = createSimSource({ seed: 2, slotMs: 0, tps: TPS, skipRate: 0.05, slotsPerEpoch: 8192, validators: 50, fast: true, maxSlots: 0 });
  const batches: SlotBatch[] = [];
  let n = 0;
  let simStarted = 0;
  let simEvents = 0;
  let simCpu = process.cpuUsage();
  for await (const b of sim.batches({})) {
    // Genesis (slot 0) is a one-off snapshot; time the steady state.
    if (batches.length === 1) {
      simStarted = performance.now();
      simCpu = process.cpuUsage();
    }
    if (batches.length >= 1) simEvents += b.events.length;
    batches.push(b);
    n += b.events.length;
    if (n >= events) break;
  }
  const simPerSecond = simEvents / ((performance.now() - simStarted) / 1000);
  const simPerCpuSecond = simEvents / cpuSince(simCpu);
  const prefix = `bench-publish-${Date.now().toString(36)}`;
  const topics = topicNames(prefix);
  const kafka = await kafkaWithTopics(brokers, 'bench-publish', topics);
  let r: { events: number };
  let seconds: number;
  let cpuSeconds: number;
  try {
    const publisher = new Publisher({ kafka, topics, transactionalId: `${prefix}-txn`, log });
    await publisher.open();
    async function* replay(): AsyncIterable<SlotBatch> {
      yield* batches;
    }
    const started = performance.now();
    const cpu = process.cpuUsage();
    try {
      r = await pump(replay(), (g) => publisher.publish(g));
    } finally {
      await publisher.close();
    }
    seconds = (performance.now() - started) / 1000;
    cpuSeconds = cpuSince(cpu);
  } finally {
    await kafka.close();
  }
  return { events: r.events, seconds, cpuSeconds, simPerSecond, simPerCpuSecond };
}

/** Kafka clients for the brokers, with the bench's topics created (the same layout the roles get). */
async function kafkaWithTopics(brokers: string[], clientId: string, topics: TopicNames): Promise<Kafka> {
  const kafka = createKafka({ brokers, clientId });
  try {
    await kafka.admin().ensureTopics(topics, { partitions: PARTITIONS, retentionMs: 3_600_000, replicationFactor: 1 });
  } catch (err) {
    await kafka.close();
    throw err;
  }
  return kafka;
}

async function rawKafka(brokers: string[], recordSize: number, txnMs: number): Promise<{ perSecond: number; line: string }> {
  const prefix = `bench-raw-${Date.now().toString(36)}`;
  const topics = topicNames(prefix);
  await (await kafkaWithTopics(brokers, 'bench-raw', topics)).close();
  const libs = await ensureKafkaJars();
  const args = [
    '-Xmx512m',
    '-cp',
    join(libs, '*'),
    'org.apache.kafka.tools.ProducerPerformance',
    '--topic',
    topics.transactions,
    '--num-records',
    String(RAW_RECORDS),
    '--record-size',
    String(recordSize),
    '--throughput',
    '-1',
    '--transactional-id',
    `${prefix}-txn`,
    '--transaction-duration-ms',
    String(Math.max(10, Math.round(txnMs))),
    '--producer-props',
    `bootstrap.servers=${brokers.join(',')}`,
    'acks=all',
    'enable.idempotence=true',
    'compression.type=none',
  ];
  const { stdout } = await execFileP('java', args, { maxBuffer: 64 * 1024 * 1024 });
  const line = stdout.trim().split('\n').filter((l) => / records sent, /.test(l)).at(-1) ?? '';
  const m = /^(\d+) records sent, ([\d.]+) records\/sec/.exec(line);
  if (!m) throw new Error(`ProducerPerformance printed no summary:\n${stdout.slice(-2000)}`);
  return { perSecond: Number(m[2]), line };
}

const kafka = await startLocalKafka({ nodes: 1 });
try {
  say(`machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GiB, load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  say(`broker ${kafka.brokers.join(',')}; sim tps ${TPS}, ${PARTITIONS} partitions`);
  // A fresh broker is slow for its first seconds (coordinator loading, JIT): ProducerPerformance
  // runs last on a warm broker, so ingest gets a discarded warm-up run first.
  if (WARMUP_S > 0) {
    const warm = await runIngest(kafka.brokers, true, WARMUP_S);
    say(`warm-up (discarded): ${warm.events} events in ${warm.seconds.toFixed(1)} s = ${Math.round(warm.events / warm.seconds)}/s`);
  }
  const fast = await runIngest(kafka.brokers, true, FAST_S);
  const fastRate = fast.events / fast.seconds;
  const recordSize = Math.max(1, Math.round(fast.bytes / Math.max(1, fast.events)));
  const txnMs = (fast.seconds * 1000) / Math.max(1, fast.transactions);
  say(`fast:   ${fast.events} events in ${fast.seconds.toFixed(1)} s = ${Math.round(fastRate)}/s, ${(fast.bytes / fast.seconds / 2 ** 20).toFixed(1)} MiB/s, avg record ${recordSize} B, ${fast.transactions} Kafka transactions (${txnMs.toFixed(0)} ms each), ${Math.round(fast.events / fast.cpuSeconds)} events per CPU second of this process`);
  const signed = await runIngest(kafka.brokers, false, SIGNED_S);
  const signedRate = signed.events / signed.seconds;
  say(`signed: ${signed.events} events in ${signed.seconds.toFixed(1)} s = ${Math.round(signedRate)}/s, ${Math.round(signed.events / signed.cpuSeconds)} events per CPU second`);
  const alone = await publishOnly(kafka.brokers, 200_000);
  say(
    `parts:  simulator alone (fast mode, no Kafka) ${Math.round(alone.simPerSecond)} events/s (${Math.round(alone.simPerCpuSecond)} per CPU second); ` +
      `publisher alone (pre-simulated slots) ${alone.events} events in ${alone.seconds.toFixed(1)} s = ${Math.round(alone.events / alone.seconds)}/s ` +
      `(${Math.round(alone.events / alone.cpuSeconds)} per CPU second)`,
  );
  const raw = await rawKafka(kafka.brokers, recordSize, txnMs);
  say(`raw:    ProducerPerformance ${raw.line}`);
  const ratio = fastRate / raw.perSecond;
  process.stdout.write(
    `ingest events_per_s=${Math.round(fastRate)} signed_events_per_s=${Math.round(signedRate)} raw_kafka_events_per_s=${Math.round(raw.perSecond)} ratio=${ratio.toFixed(3)}\n`,
  );
} finally {
  await kafka.stop();
}
