// How much history each store holds (issue 22, item 4), for /health/history and /metrics: per ClickHouse store
// (account history, blocks and transactions) the first slot it answers in full, its rows and bytes on disk
// (active parts), and per Kafka topic the records it holds and the first slot of the slots topic still in it
// (from the replay index, slot_offsets). Read when asked, at most every `maxAgeMs`: the figures come from
// system.parts and the offsets' watermarks, cheap on any table size.
import type { ClickHouseClient } from '@clickhouse/client';
import { Gauge } from 'prom-client';
import type { KafkaAdmin } from '../platform/kafka/index.js';
import { registry } from '../platform/metrics.js';
import { RECORD_KINDS, type TopicNames } from '../schemas/topics.js';
import { ACCOUNT_HISTORY_TABLES, TRANSACTION_TABLES } from './retention.js';

export interface StoreHistory {
  store: string;
  /** First slot answered in full; undefined when nothing is held. */
  firstSlot: bigint | undefined;
  rows: number;
  /** Bytes on disk; undefined where the store does not say (Kafka: the brokers' disks). */
  bytes: number | undefined;
}

interface PartsRow {
  table: string;
  rows: string;
  bytes: string;
}

/**
 * The first slots the views answer in full: the api's views state (api/views/state.ts readViewsState), handed
 * in by the wiring so that the projector never imports the api.
 */
export type ViewsWindowReader = (
  ch: ClickHouseClient,
  database: string,
) => Promise<{ oldestBlock: bigint | undefined; accountHistoryFrom?: bigint | undefined }>;

/** The figures of the two ClickHouse stores and, with an admin, of the Kafka topics. */
export async function readStoreHistory(
  ch: ClickHouseClient,
  database: string,
  readViewsWindow: ViewsWindowReader,
  kafka?: { admin: KafkaAdmin; topics: TopicNames },
): Promise<StoreHistory[]> {
  const tables = [...Object.keys(ACCOUNT_HISTORY_TABLES), ...TRANSACTION_TABLES];
  const rs = await ch.query({
    query: `SELECT table, sum(rows) AS rows, sum(bytes_on_disk) AS bytes FROM system.parts
            WHERE database = {db:String} AND active AND table IN {tables:Array(String)} GROUP BY table`,
    query_params: { db: database, tables },
    format: 'JSONEachRow',
  });
  const parts = new Map((await rs.json<PartsRow>()).map((r) => [r.table, r]));
  const sum = (names: readonly string[], k: 'rows' | 'bytes') => names.reduce((n, t) => n + Number(parts.get(t)?.[k] ?? 0), 0);
  const state = await readViewsWindow(ch, database);
  const accountTables = Object.keys(ACCOUNT_HISTORY_TABLES);
  const out: StoreHistory[] = [
    {
      store: 'clickhouse.account_history',
      firstSlot: state.accountHistoryFrom ?? state.oldestBlock,
      rows: sum(accountTables, 'rows'),
      bytes: sum(accountTables, 'bytes'),
    },
    {
      store: 'clickhouse.transactions',
      firstSlot: state.oldestBlock,
      rows: sum(TRANSACTION_TABLES, 'rows'),
      bytes: sum(TRANSACTION_TABLES, 'bytes'),
    },
  ];
  if (kafka) out.push(...(await kafkaHistory(ch, database, kafka.admin, kafka.topics)));
  return out;
}

async function kafkaHistory(ch: ClickHouseClient, database: string, admin: KafkaAdmin, topics: TopicNames): Promise<StoreHistory[]> {
  const out: StoreHistory[] = [];
  for (const kind of RECORD_KINDS) {
    const topic = topics[kind];
    const ranges = await admin.offsetRanges(topic);
    let rows = 0;
    for (const r of ranges.values()) rows += Number(r.high - r.low);
    // The slots topic: the oldest slot whose record every partition still holds (per partition the first slot
    // at or past its low watermark in the replay index, then the newest of those).
    let firstSlot: bigint | undefined;
    if (kind === 'slots') {
      for (const [partition, r] of ranges) {
        if (r.high <= r.low) continue;
        const rs = await ch.query({
          query: `SELECT min(slot) AS first, count() AS n FROM {db:Identifier}.slot_offsets
           WHERE topic = {topic:String} AND partition = {partition:UInt32} AND first_offset >= {low:UInt64}`,
          query_params: { db: database, topic, partition, low: r.low },
          format: 'JSONEachRow',
        });
        const [row] = await rs.json<{ first: string; n: string }>();
        // UInt64 cells come quoted (platform/clickhouse.ts): exact text.
        if (row === undefined || BigInt(row.n) === 0n) continue;
        const first = BigInt(row.first);
        if (firstSlot === undefined || first > firstSlot) firstSlot = first;
      }
    }
    out.push({ store: `kafka.${kind}`, firstSlot, rows, bytes: undefined });
  }
  return out;
}

const GAUGES = {
  firstSlot: gauge(
    'slotstream_store_history_first_slot',
    'First slot each store answers in full (ClickHouse) or still holds (Kafka slots topic).',
  ),
  rows: gauge(
    'slotstream_store_history_rows',
    'Rows (ClickHouse active parts) or records (Kafka, between the watermarks) each store holds.',
  ),
  bytes: gauge('slotstream_store_history_bytes', 'Bytes on disk of each ClickHouse store (active parts).'),
};

function gauge(name: string, help: string): Gauge<'store'> {
  return (
    (registry.getSingleMetric(name) as Gauge<'store'> | undefined) ??
    new Gauge({ name, help, labelNames: ['store'], registers: [registry] })
  );
}

/** Pure: the gauges' values of a reading. */
export function setHistoryGauges(history: readonly StoreHistory[]): void {
  for (const h of history) {
    if (h.firstSlot !== undefined) GAUGES.firstSlot.set({ store: h.store }, Number(h.firstSlot));
    GAUGES.rows.set({ store: h.store }, h.rows);
    if (h.bytes !== undefined) GAUGES.bytes.set({ store: h.store }, h.bytes);
  }
}

/** A reader of the history that asks the stores at most every `maxAgeMs` (scrapes and /health/history share it). */
export function historyReader(read: () => Promise<StoreHistory[]>, maxAgeMs = 10_000): () => Promise<StoreHistory[]> {
  let last: { at: number; value: Promise<StoreHistory[]> } | undefined;
  return () => {
    const now = performance.now();
    if (last === undefined || now - last.at > maxAgeMs) {
      const value = read().then((h) => (setHistoryGauges(h), h));
      value.catch(() => undefined);
      last = { at: now, value };
      value.catch(() => {
        if (last?.value === value) last = undefined;
      });
    }
    return last.value;
  };
}
