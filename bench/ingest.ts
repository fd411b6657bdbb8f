// npm run bench:ingest — the ingest's parts and the whole, in one run against one local broker:
//   S  the simulator alone (fast mode, no encoding, no Kafka),
//   F  the full ingest role in fast mode (simulator → encoding → pump → publisher → Kafka),
//   P  the publisher alone: records simulated, framed and encoded before timing, then published through
//      the real Publisher in transactions of 20,000 records (slots span transactions, as in the ingest),
//   M  Kafka's own ProducerPerformance from the broker's jars with P's average record size (key +
//      value) and ~20,000-record transactions (transactional, idempotent, acks=all).
// Every rate counts records committed to Kafka (S: records generated). The last line is the summary:
//   ingest events_per_s=<F> sim_events_per_s=<S> publisher_events_per_s=<P> raw_kafka_events_per_s=<M> ratio=<P/M> convert_events_per_cpu_s=<C>
// C is the yellowstone source's conversion alone (bench/yellowstone-convert.ts, also `npm run bench:convert`).
// Env: BENCH_SECONDS (F, default 20), BENCH_SIM_SECONDS (S, default 10), BENCH_TPS (chain tps, default
// 4000, about mainnet), BENCH_PUBLISH_EVENTS (P, default 600,000), BENCH_TXN_RECORDS (P and M, default
// 20,000), BENCH_RAW_RECORDS (M, default 2,000,000 after a calibration run of half that),
// BENCH_WARMUP_SECONDS (a discarded ingest run on the fresh broker first, default 8),
// BENCH_SIGNED_SECONDS (an extra ingest run with real ed25519 signatures, default 0 = skipped).
import { cpus, loadavg, totalmem } from 'node:os';
import { connectKafka } from '../cli/infrastructure.js';
import { startLocalKafka } from '../platform/local-kafka/launcher.js';
import { ingestMetrics } from '../ingest/metrics.js';
import { SlotFramer, type FramedRecord } from '../ingest/publish/framer.js';
import { Publisher } from '../ingest/publish/publisher.js';
import { createSource, startIngest } from '../ingest/run.js';
import { makeConfig, type Config } from '../cli/config.js';
import { createLogger } from '../platform/log.js';
import { topicNames } from '../schemas/topics.js';
import { calibratedProducerPerformance } from './producer-performance.js';
import { describeConversion, yellowstoneConversionPhase } from './yellowstone-convert.js';
import { ingestSection } from '../cli/config-sections.js';

const env = (name: string, def: number): number => (process.env[name] ? Number(process.env[name]) : def);
const FAST_S = env('BENCH_SECONDS', 20);
const SIM_S = env('BENCH_SIM_SECONDS', 10);
const SIGNED_S = env('BENCH_SIGNED_SECONDS', 0);
const TPS = env('BENCH_TPS', 4000);
const PUBLISH_EVENTS = env('BENCH_PUBLISH_EVENTS', 600_000);
const TXN_RECORDS = env('BENCH_TXN_RECORDS', 20_000);
const RAW_RECORDS = env('BENCH_RAW_RECORDS', 2_000_000);
const WARMUP_S = env('BENCH_WARMUP_SECONDS', 8);
const PARTITIONS = 4;
const log = createLogger(process.env.LOG_LEVEL ?? 'warn', 'bench-ingest');
const say = (msg: string) => process.stderr.write(`[bench:ingest] ${msg}\n`);
const load = (): string => loadavg()[0]!.toFixed(1);
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

/** The ingest role's config for one phase: its own topics, the simulator unpaced. */
function benchConfig(phase: string, fast: boolean, brokers: string[] = []): Config {
  return makeConfig('ingest', {
    kafkaBrokers: brokers,
    topicPrefix: `bench-ingest-${phase}-${Date.now().toString(36)}`,
    partitions: PARTITIONS,
    slotMs: 0,
    tps: TPS,
    fast,
    retentionMs: 3_600_000,
    logLevel: 'warn',
  });
}

interface Timed {
  events: number;
  seconds: number;
  /** CPU seconds of this process (user + system, every thread: librdkafka's too). */
  cpuSeconds: number;
}

function timer(): () => { seconds: number; cpuSeconds: number } {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  return () => {
    const c = process.cpuUsage(c0);
    return { seconds: (performance.now() - t0) / 1000, cpuSeconds: (c.user + c.system) / 1e6 };
  };
}

const rates = (r: Timed): string =>
  `${fmt(r.events)} events in ${r.seconds.toFixed(1)} s = ${fmt(r.events / r.seconds)}/s (${fmt(r.events / r.cpuSeconds)} per CPU second)`;

async function sum(name: 'records' | 'bytes' | 'transactions'): Promise<number> {
  const m = await ingestMetrics()[name].get();
  return m.values.reduce((n, v) => n + v.value, 0);
}

/** S: the ingest's source (same config as F) for a fixed time, its batches counted and dropped. */
async function simulatorAlone(seconds: number): Promise<Timed> {
  const source = createSource(ingestSection(benchConfig('sim', true)), log);
  let events = 0;
  const stop = timer();
  const until = performance.now() + seconds * 1000;
  for await (const b of source.batches({})) {
    events += b.events.length;
    if (performance.now() >= until) break;
  }
  return { events, ...stop() };
}

/** F: the ingest role wired as cli/roles.ts does, for a fixed time; rates from its metrics. */
async function fullIngest(brokers: string[], fast: boolean, seconds: number): Promise<Timed & { bytes: number; transactions: number }> {
  const config = benchConfig(fast ? 'fast' : 'signed', fast, brokers);
  const { kafka, topics } = await connectKafka(config, log, 'bench-ingest');
  try {
    const handle = await startIngest(ingestSection(config), log, { kafka, topics });
    const [r0, b0, t0] = [await sum('records'), await sum('bytes'), await sum('transactions')];
    const stop = timer();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    await handle.stop();
    const time = stop();
    return {
      ...time,
      events: (await sum('records')) - r0,
      bytes: (await sum('bytes')) - b0,
      transactions: (await sum('transactions')) - t0,
    };
  } finally {
    await kafka.close();
  }
}

/** P: slots simulated and framed first (untimed), then published through the Publisher in transactions
 * of TXN_RECORDS records (slots span transactions, as in the ingest). */
async function publisherAlone(brokers: string[], events: number): Promise<Timed & { recordSize: number; transactions: number }> {
  const config = benchConfig('publish', true, brokers);
  const { kafka, topics } = await connectKafka(config, log, 'bench-publish');
  try {
    const publisher = new Publisher({ kafka, topics, transactionalId: `${config.topicPrefix}-txn`, log });
    await publisher.open();
    try {
      const framer = new SlotFramer(publisher.partitionCounts, topics);
      const records: FramedRecord[] = [];
      let bytes = 0;
      // Untimed for P, but worth a line: what the ingest's own thread does per event besides publishing.
      const prepared = timer();
      for await (const b of createSource(ingestSection(config), log).batches({})) {
        for (const r of framer.frame(b)) {
          records.push(r);
          bytes += r.key.length + r.value.length;
        }
        if (records.length >= events) break;
      }
      say(`P preparation (untimed for P), simulator + framing and encoding: ${rates({ events: records.length, ...prepared() })}`);
      const groups: FramedRecord[][] = [];
      for (let i = 0; i < records.length; i += TXN_RECORDS) groups.push(records.slice(i, i + TXN_RECORDS));
      const stop = timer();
      for (const g of groups) await publisher.publish(g);
      return { events: records.length, ...stop(), recordSize: bytes / records.length, transactions: groups.length };
    } finally {
      await publisher.close();
    }
  } finally {
    await kafka.close();
  }
}

const local = await startLocalKafka({ nodes: 1 });
try {
  const brokers = [...local.brokers];
  say(
    `machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, load ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  say(`broker ${brokers.join(',')}; sim tps ${TPS}, ${PARTITIONS} partitions`);
  // A fresh broker (and this process's JIT) is slow for its first seconds; M runs last on a warm broker.
  if (WARMUP_S > 0) {
    const warm = await fullIngest(brokers, true, WARMUP_S);
    say(`warm-up (discarded): ${rates(warm)}`);
  }

  say(`S (load ${load()}) ...`);
  const sim = await simulatorAlone(SIM_S);
  say(`S simulator alone, fast mode: ${rates(sim)}`);
  const conv = await yellowstoneConversionPhase();
  say(`C yellowstone conversion (load ${load()}): ${describeConversion(conv)}`);

  say(`F (load ${load()}) ...`);
  const fast = await fullIngest(brokers, true, FAST_S);
  say(
    `F full ingest, fast mode: ${rates(fast)}; avg record ${Math.round(fast.bytes / fast.events)} B, ${fast.transactions} Kafka transactions (${fmt(fast.events / fast.transactions)} records, ${((fast.seconds * 1000) / fast.transactions).toFixed(0)} ms each); F/S ${(fast.events / fast.seconds / (sim.events / sim.seconds)).toFixed(2)}`,
  );

  let signedRate: number | undefined;
  if (SIGNED_S > 0) {
    const signed = await fullIngest(brokers, false, SIGNED_S);
    signedRate = signed.events / signed.seconds;
    say(`full ingest, signed (ed25519): ${rates(signed)}`);
  }

  say(`P (load ${load()}) ...`);
  const pub = await publisherAlone(brokers, PUBLISH_EVENTS);
  say(
    `P publisher alone, pre-encoded: ${rates(pub)}; avg record ${pub.recordSize.toFixed(0)} B, ${pub.transactions} transactions of ${fmt(pub.events / pub.transactions)} records`,
  );

  say(`M (load ${load()}) ...`);
  const recordSize = Math.round(pub.recordSize);
  // The same topic layout as P's (4 partitions), created up front rather than by the broker's defaults.
  const rawConfig = benchConfig('raw', true, brokers);
  await (await connectKafka(rawConfig, log, 'bench-raw')).kafka.close();
  const raw = await calibratedProducerPerformance({
    brokers,
    topic: topicNames(rawConfig.topicPrefix).transactions,
    transactionalId: `${rawConfig.topicPrefix}-txn`,
    records: RAW_RECORDS,
    calibrationRecords: Math.max(100_000, Math.round(RAW_RECORDS / 2)),
    recordSize,
    recordsPerTransaction: TXN_RECORDS,
    guessPerSecond: 200_000,
  });
  say(`M calibration: ${raw.calibration.line} (${raw.calibration.transactionMs} ms transactions)`);
  if (raw.runs.length > 1)
    for (const r of raw.runs)
      say(`M run with ${r.transactionMs} ms transactions (~${fmt(r.recordsPerTransaction)} records each): ${r.line}`);
  say(
    `M ProducerPerformance, ${recordSize} B records, ${raw.run.transactionMs} ms transactions (~${fmt(raw.run.recordsPerTransaction)} records each): ${raw.run.line}`,
  );
  say(
    `load at the end ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );

  const f = fast.events / fast.seconds;
  const s = sim.events / sim.seconds;
  const p = pub.events / pub.seconds;
  const m = raw.run.perSecond;
  if (signedRate !== undefined) say(`signed_events_per_s=${Math.round(signedRate)}`);
  process.stdout.write(
    `ingest events_per_s=${Math.round(f)} sim_events_per_s=${Math.round(s)} publisher_events_per_s=${Math.round(p)} raw_kafka_events_per_s=${Math.round(m)} ratio=${(p / m).toFixed(3)} convert_events_per_cpu_s=${Math.round(conv.eventsPerCpuSecond)}\n`,
  );
} finally {
  await local.stop();
}
