// Kafka's record batch codecs on mainnet-shaped records (issue 22, item 3): for each codec, the same records
// published as the ingest publishes them (one Kafka transaction per 10 slots, keyed and partitioned as the
// topics are), then read back from the start as the projector and the live layer read (read_committed):
//   disk:     bytes of the topics' log segments on the broker (*.log files), per event;
//   producer: CPU of this process (librdkafka's threads included) from the first send to the last commit, per event;
//   consumer: CPU of the read back from offset 0 to the end, per event;
//   e2e:      a paced run (one transaction per slot at 400 ms) read by a tailing reader: receive time minus the
//             record's CreateTime, p50/p99 (includes the transaction commit, as for the live layer).
// Two record sets: the simulator's chain (its default mix at BENCH_TPS transactions per second, fast mode) and the
// recorded mainnet stream under ../shared/data/mainnet (its entries, ~800 a slot, converted as the yellowstone
// source converts them: the stream holds no transactions or accounts).
// Usage: npm run bench:compression  (env BENCH_SLOTS sim slots, default 20; BENCH_TPS, default 4000). One short
// run; prints a Markdown table for bench/README.md with the machine's load.
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimSource, DEFAULT_SIM_OPTIONS } from '../ingest/sources/sim/index.js';
import { SubscribeUpdateCodec } from '../ingest/sources/yellowstone/geyser-service.js';
import { createKafka, kafkaCompression, OffsetMap, partitionForKey, type KafkaCompression } from '../platform/kafka/index.js';
import { startLocalKafka } from '../platform/local-kafka/launcher.js';
import { encodeRecord, type ChainEvent } from '../schemas/codec.js';
import { topicNames, type TopicNames } from '../schemas/topics.js';
import { entryFromYellowstone } from '../schemas/yellowstone/index.js';
import { readMainnetStream } from '../test/support/mainnet/data.js';

interface Slot {
  events: { kind: ChainEvent['kind']; key: Buffer; value: Buffer }[];
}

interface Row {
  set: string;
  codec: string;
  events: number;
  rawBytes: number;
  diskBytes: number;
  producerUsPerEvent: number;
  consumerUsPerEvent: number;
  e2eP50: number;
  e2eP99: number;
}

const env = (name: string, def: number): number => (process.env[name] ? Number(process.env[name]) : def);
const CODECS: { name: string; c: KafkaCompression }[] = [
  { name: 'none', c: kafkaCompression('none') },
  { name: 'lz4', c: kafkaCompression('lz4') },
  { name: 'zstd(1)', c: kafkaCompression('zstd', 1) },
  { name: 'zstd(3)', c: kafkaCompression('zstd', 3) },
  { name: 'zstd(6)', c: kafkaCompression('zstd', 6) },
];

const toSlot = (events: readonly ChainEvent[]): Slot => ({
  events: events.map((e) => {
    const { key, value } = encodeRecord(e);
    return { kind: e.kind, key: Buffer.from(key), value: Buffer.from(value) };
  }),
});

async function simSlots(slots: number, tps: number): Promise<Slot[]> {
  const sim = createSimSource({ ...DEFAULT_SIM_OPTIONS, seed: 22, slotMs: 0, tps, fast: true, maxSlots: slots });
  const out: Slot[] = [];
  for await (const b of sim.batches({})) out.push(toSlot(b.events));
  return out;
}

/** The recorded mainnet stream's entries (its only per-slot records: it has no transactions or accounts), one
 * slot each, converted as the yellowstone source converts them. */
function mainnetSlots(): Slot[] {
  const bySlot = new Map<bigint, ChainEvent[]>();
  for (const w of readMainnetStream()) {
    const u = SubscribeUpdateCodec.decode(w);
    if (!u.entry) continue;
    const event = entryFromYellowstone(u.entry);
    const list = bySlot.get(event.slot) ?? [];
    list.push({ kind: 'entries', event });
    bySlot.set(event.slot, list);
  }
  return [...bySlot.values()].map(toSlot);
}

const cpuSeconds = (): (() => number) => {
  const c0 = process.cpuUsage();
  return () => {
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1e6;
  };
};

/** Bytes of the topics' log segments under the broker's data folder. */
async function logBytes(dir: string, topics: TopicNames): Promise<number> {
  const names = new Set(Object.values(topics));
  let total = 0;
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.name.endsWith('.log') && names.has(d.split('/').pop()!.replace(/-\d+$/, ''))) total += (await stat(p)).size;
    }
  };
  await walk(dir);
  return total;
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

async function run(brokers: string[], dataDir: string, set: string, slots: Slot[], codec: (typeof CODECS)[number]): Promise<Row> {
  const topics = topicNames(`bench-compress-${set}-${codec.name.replace(/\W/g, '')}-${Date.now().toString(36)}`);
  const kafka = createKafka({ brokers, clientId: 'bench-compression', compression: codec.c });
  try {
    await kafka.admin().ensureTopics(topics, { partitions: 4, retentionMs: -1, replicationFactor: 1 });
    const parts = new Map<string, number>();
    for (const t of Object.values(topics) as string[]) parts.set(t, await kafka.admin().partitionCount(t));
    const producer = await kafka.transactionalProducer({ transactionalId: `bench-compression-${topics.slots}` });
    const publish = async (group: readonly Slot[]) => {
      await producer.begin();
      for (const s of group)
        for (const e of s.events) {
          const topic = topics[e.kind];
          producer.send({ topic, partition: partitionForKey(e.key, parts.get(topic)!), key: e.key, value: e.value });
        }
      await producer.commit();
    };
    const events = slots.reduce((n, s) => n + s.events.length, 0);
    const rawBytes = slots.reduce((n, s) => n + s.events.reduce((m, e) => m + e.key.length + e.value.length, 0), 0);

    // Throughput: as fast as it goes, 10 slots a transaction.
    const stopProduce = cpuSeconds();
    for (let i = 0; i < slots.length; i += 10) await publish(slots.slice(i, i + 10));
    const producerCpu = stopProduce();
    const diskBytes = await logBytes(dataDir, topics);

    console.error(`${set} ${codec.name}: published ${events} events`);
    // Read back from the start, read_committed, until every record is in.
    const ends = await kafka.admin().endOffsets(Object.values(topics));
    let want = 0n;
    const start: [string, number, bigint][] = [];
    for (const [t, p, o] of ends) {
      want += o;
      start.push([t, p, 0n]);
    }
    let got = 0n;
    const at = new Map<string, bigint>();
    let done!: () => void;
    const all = new Promise<void>((r) => (done = r));
    const stopConsume = cpuSeconds();
    const reader = await kafka.partitionReader({
      topics: Object.values(topics),
      start: OffsetMap.of(start),
      purpose: 'bench-compression',
      isolation: 'read_committed',
      onRecords: () => {},
      onPosition: (topic, partition, next) => {
        const k = `${topic}/${partition}`;
        got += next - (at.get(k) ?? 0n);
        at.set(k, next);
        if (got >= want) done();
      },
    });
    await Promise.race([
      all,
      new Promise((_, reject) => setTimeout(() => reject(new Error(`read back: ${got} of ${want} records in 5 minutes`)), 300_000)),
    ]);
    const consumerCpu = stopConsume();

    // Latency: a tailing reader while 15 slots go out one transaction each at 400 ms.
    const latencies: number[] = [];
    const tail = await kafka.partitionReader({
      topics: Object.values(topics),
      start: await kafka.admin().endOffsets(Object.values(topics)),
      purpose: 'bench-compression-tail',
      isolation: 'read_committed',
      onRecords: (records) => {
        const now = Date.now();
        for (const r of records) latencies.push(now - r.timestamp);
      },
    });
    // The reader is live once a first slot reaches it; only the slots after that are measured.
    await publish([slots[0]!]);
    for (let waited = 0; latencies.length === 0 && waited < 60_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    console.error(`${set} ${codec.name}: read back, tail live`);
    latencies.length = 0;
    for (const s of slots.slice(1, 16)) {
      const t0 = Date.now();
      await publish([s]);
      await new Promise((r) => setTimeout(r, Math.max(0, 400 - (Date.now() - t0))));
    }
    await new Promise((r) => setTimeout(r, 1000));
    await tail.stop();
    await reader.stop();
    await producer.close();
    return {
      set,
      codec: codec.name,
      events,
      rawBytes,
      diskBytes,
      producerUsPerEvent: (producerCpu * 1e6) / events,
      consumerUsPerEvent: (consumerCpu * 1e6) / events,
      e2eP50: pct(latencies, 50),
      e2eP99: pct(latencies, 99),
    };
  } finally {
    await kafka.close();
  }
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-compression-'));
  const kafka = await startLocalKafka({ nodes: 1, dataDir, keepData: false });
  const rows: Row[] = [];
  const load0 = loadavg()[0]!;
  try {
    // BENCH_SETS: sim, mainnet or both (default).
    const which = process.env.BENCH_SETS ?? 'sim,mainnet';
    const sets: [string, Slot[]][] = [];
    if (which.includes('sim'))
      sets.push([`sim ${env('BENCH_TPS', 4000)} tps`, await simSlots(env('BENCH_SLOTS', 20), env('BENCH_TPS', 4000))]);
    if (which.includes('mainnet')) {
      const slots = mainnetSlots();
      console.error(`mainnet stream: ${slots.length} slots, ${slots.reduce((n, s) => n + s.events.length, 0)} events`);
      sets.push(['mainnet stream', slots]);
    }
    for (const [set, slots] of sets) {
      for (const codec of CODECS) {
        const row = await run(kafka.brokers, dataDir, set.split(' ')[0]!, slots, codec);
        row.set = set;
        rows.push(row);
        console.error(JSON.stringify(row));
      }
    }
  } finally {
    await kafka.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  const load1 = loadavg()[0]!;
  console.log(`\n${cpus().length} cores, load average ${load0.toFixed(1)} at start, ${load1.toFixed(1)} at end\n`);
  console.log(
    '| records | codec | events | raw B/event | disk B/event | ratio | producer µs CPU/event | consumer µs CPU/event | e2e p50 ms | e2e p99 ms |',
  );
  console.log('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const r of rows) {
    console.log(
      `| ${r.set} | ${r.codec} | ${r.events} | ${(r.rawBytes / r.events).toFixed(0)} | ${(r.diskBytes / r.events).toFixed(0)} | ${(r.rawBytes / r.diskBytes).toFixed(2)} | ${r.producerUsPerEvent.toFixed(1)} | ${r.consumerUsPerEvent.toFixed(1)} | ${r.e2eP50} | ${r.e2eP99} |`,
    );
  }
}

await main();
