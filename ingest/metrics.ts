// Ingest metrics on the shared registry (platform/metrics.ts). Created once per process: a second
// ingest in the same process (tests) shares them instead of failing on duplicate names.
import { Counter, Gauge, Histogram } from 'prom-client';
import { registry } from '../platform/metrics.js';

export interface IngestMetrics {
  records: Counter<'topic'>;
  bytes: Counter<'topic'>;
  transactions: Counter;
  publishSeconds: Histogram;
  retries: Counter;
  lastSlot: Gauge;
  badLines: Counter;
  deadLetters: Counter<'topic'>;
  unconvertible: Counter<'kind'>;
  pumpUndecoded: Counter<'program' | 'entry' | 'kind'>;
  lagSlots: Gauge;
  lagMs: Gauge;
  behind: Gauge;
  active: Gauge;
  takeovers: Counter;
}

let metrics: IngestMetrics | undefined;

export function ingestMetrics(): IngestMetrics {
  metrics ??= { ...publishMetrics(), ...sourceMetrics() };
  return metrics;
}

/** What the publisher counts: records, bytes, transactions, retries, the last slot, dead letters. */
function publishMetrics() {
  return {
    records: new Counter({
      name: 'slotstream_ingest_records_total',
      help: 'Records published, per topic.',
      labelNames: ['topic'],
      registers: [registry],
    }),
    bytes: new Counter({
      name: 'slotstream_ingest_bytes_total',
      help: 'Key and value bytes published, per topic.',
      labelNames: ['topic'],
      registers: [registry],
    }),
    pumpUndecoded: new Counter({
      name: 'slotstream_ingest_pump_undecoded_total',
      help: 'pump.fun / PumpSwap / Pump Fees instructions and events no loaded decoder table decodes (delivered as unknown), by program, entry (instruction/event) and kind (unknown discriminator, truncated, invalid). A rise of unknown is a program upgrade the tables do not have yet: load its IDL (--pump-idl & co.).',
      labelNames: ['program', 'entry', 'kind'],
      registers: [registry],
    }),
    transactions: new Counter({
      name: 'slotstream_ingest_kafka_transactions_total',
      help: 'Kafka transactions committed.',
      registers: [registry],
    }),
    publishSeconds: new Histogram({
      name: 'slotstream_ingest_publish_seconds',
      help: 'Time to send and commit one Kafka transaction (one or more slot batches).',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    retries: new Counter({
      name: 'slotstream_ingest_publish_retries_total',
      help: 'Failed publish attempts that were retried.',
      registers: [registry],
    }),
    lastSlot: new Gauge({
      name: 'slotstream_ingest_last_slot',
      help: 'Highest slot committed to Kafka by this process.',
      registers: [registry],
    }),
    deadLetters: new Counter({
      name: 'slotstream_ingest_dead_letters_total',
      help: 'Records sent to the dead-letter topic instead of their own (too large), per intended topic.',
      labelNames: ['topic'],
      registers: [registry],
    }),
  };
}

/** What the sources and the name claim report: bad input, lag, the name's holder. */
function sourceMetrics() {
  return {
    badLines: new Counter({
      name: 'slotstream_ingest_file_bad_lines_total',
      help: 'File source lines skipped as bad.',
      registers: [registry],
    }),
    unconvertible: new Counter({
      name: 'slotstream_ingest_unconvertible_total',
      help: 'Upstream updates the source could not convert, sent to the dead-letter topic, per kind (transaction, account, block, ...).',
      labelNames: ['kind'],
      registers: [registry],
    }),
    lagSlots: new Gauge({
      name: 'slotstream_ingest_lag_slots',
      help: "yellowstone and rpc sources: the upstream's tip minus the last slot handed to the publisher.",
      registers: [registry],
    }),
    lagMs: new Gauge({
      name: 'slotstream_ingest_lag_ms',
      help: 'yellowstone and rpc sources: ms since the upstream announced the oldest slot not handed to the publisher yet (0: caught up).',
      registers: [registry],
    }),
    behind: new Gauge({
      name: 'slotstream_ingest_behind',
      help: "1 while /health says behind for the ingest (upstream's tip stalled, or lag over --ingest-max-lag-slots), else 0.",
      registers: [registry],
    }),
    active: new Gauge({
      name: 'slotstream_ingest_active',
      help: '1 while this ingest holds its name and publishes, 0 while it stands by for another copy of the same name.',
      registers: [registry],
    }),
    takeovers: new Counter({
      name: 'slotstream_ingest_takeovers_total',
      help: 'Times this ingest took over its name from a copy that stopped beating (killed, cut off from Kafka or fenced).',
      registers: [registry],
    }),
  };
}
