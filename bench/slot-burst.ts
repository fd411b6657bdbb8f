// How long Kafka alone takes to hand a whole slot, produced in one burst into one transaction, to a reader
// that reads uncommitted, as the api's live tail does. This is the floor under PubSub's account and
// program notifications in `npm run bench:pubsub`: they wait for their slot's last record.
//   npx tsx bench/slot-burst.ts [--slots 40] [--records 4000] [--bytes 400] [--chunk 256] [--gap-ms 400]
// Per slot: the produce calls' time, when the commit returned and when the first and the last record were
// read (ms after the first produce call); over all records: read time minus the record's timestamp.
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startLocalKafka } from '../platform/local-kafka/launcher.js';
import { createKafka } from '../platform/kafka/index.js';
import { topicNames, u64Key } from '../schemas/topics.js';

const { values } = parseArgs({
  options: {
    slots: { type: 'string', default: '40' },
    records: { type: 'string', default: '4000' },
    bytes: { type: 'string', default: '400' },
    chunk: { type: 'string', default: '256' },
    'gap-ms': { type: 'string', default: '400' },
  },
});
const SLOTS = Number(values.slots);
const RECORDS = Number(values.records);
const PARTITIONS = 4;

const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

const local = await startLocalKafka({ nodes: 1 });
const kafka = createKafka({ brokers: local.brokers, clientId: 'bench-slot-burst' });
try {
  const topics = topicNames(`bench.burst.${Date.now().toString(36)}`);
  await kafka.admin().ensureTopics(topics, { partitions: PARTITIONS, retentionMs: -1, replicationFactor: 1 });
  const topic = topics.transactions;
  const lags: number[] = [];
  let first = -1;
  let last = -1;
  const reader = await kafka.partitionReader({
    topics: [topic],
    purpose: 'bench-burst',
    isolation: 'read_uncommitted',
    maxWaitMs: 50,
    chunk: Number(values.chunk),
    onRecords(records) {
      const at = performance.now();
      if (first < 0) first = at;
      last = at;
      const now = Date.now();
      for (const r of records) lags.push(now - r.timestamp);
    },
  });
  const producer = await kafka.transactionalProducer({ transactionalId: `${topic}.tx` });
  const value = Buffer.alloc(Number(values.bytes), 1);
  const keys = Array.from({ length: RECORDS }, (_, i) => u64Key(BigInt(i)));
  const spans: { sends: number; commit: number; first: number; last: number }[] = [];
  // The first quarter warms the broker's JIT and the connections up; it is not reported.
  const warm = Math.floor(SLOTS / 4);
  for (let slot = 0; slot < SLOTS; slot++) {
    if (slot === warm) lags.length = 0;
    first = -1;
    await producer.begin();
    const t0 = performance.now();
    for (let i = 0; i < RECORDS; i++) producer.send({ topic, partition: i % PARTITIONS, key: keys[i]!, value });
    const sends = performance.now() - t0;
    await producer.commit();
    const commit = performance.now() - t0;
    await new Promise((r) => setTimeout(r, Number(values['gap-ms'])));
    if (slot >= warm) spans.push({ sends, commit, first: first - t0, last: last - t0 });
  }
  await producer.close();
  await reader.stop();
  const med = (k: keyof (typeof spans)[number]) =>
    pct(
      spans.map((s) => s[k]).sort((a, b) => a - b),
      0.5,
    ).toFixed(1);
  const worst = (k: keyof (typeof spans)[number]) => Math.max(...spans.map((s) => s[k])).toFixed(1);
  lags.sort((a, b) => a - b);
  console.log(`machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, node ${process.version}, load ${load()}`);
  console.log(
    `${spans.length} slots of ${RECORDS} records of ${values.bytes} B over ${PARTITIONS} partitions, chunk ${values.chunk}; ms after the first produce call, median (worst):`,
  );
  console.log(
    `  produce calls ${med('sends')} (${worst('sends')}), commit returned ${med('commit')} (${worst('commit')}), first read ${med('first')} (${worst('first')}), last read ${med('last')} (${worst('last')})`,
  );
  console.log(
    `slot_burst records=${lags.length} lag_p50_ms=${pct(lags, 0.5)} lag_p90_ms=${pct(lags, 0.9)} lag_p99_ms=${pct(lags, 0.99)} lag_max_ms=${lags[lags.length - 1]}`,
  );
} finally {
  await local.stop();
}
