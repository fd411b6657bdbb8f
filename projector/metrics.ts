// Projector metrics on the shared registry (platform/metrics.ts), created once per process (tests and a rebuild run
// several view writers in one). Labelled by the views' database, so a rebuild's shadow writer (`<db>_rebuild`) does
// not move the live views' figures. What the alert rules and dashboards in deploy/ read for "projector lag" and
// "views behind".
import { Counter, Gauge, Histogram } from 'prom-client';
import { registry } from '../platform/metrics.js';

const existing = <T>(name: string): T | undefined => registry.getSingleMetric(name) as T | undefined;

/** Heads the projector published (heads.ts): the newest slot the views answer in full, per commitment. */
export const headSlot =
  existing<Gauge<'database' | 'commitment'>>('slotstream_projector_head_slot') ??
  new Gauge({
    name: 'slotstream_projector_head_slot',
    help: 'Newest slot the views answer in full, per commitment (the heads table), by views database.',
    labelNames: ['database', 'commitment'],
    registers: [registry],
  });

/** The group's lag: end offsets minus committed offsets over every record topic (the heads table's kafka_lag). */
export const kafkaLag =
  existing<Gauge<'database'>>('slotstream_projector_kafka_lag_records') ??
  new Gauge({
    name: 'slotstream_projector_kafka_lag_records',
    help: "Records the projector group has still to store: end minus committed offsets, summed over the record topics' partitions.",
    labelNames: ['database'],
    registers: [registry],
  });

export const eventsStored =
  existing<Counter<'database'>>('slotstream_projector_events_total') ??
  new Counter({
    name: 'slotstream_projector_events_total',
    help: 'Events stored into the views (committed batches).',
    labelNames: ['database'],
    registers: [registry],
  });

export const deadLettered =
  existing<Counter<'database'>>('slotstream_projector_dead_letters_total') ??
  new Counter({
    name: 'slotstream_projector_dead_letters_total',
    help: 'Records the projector could not decode or validate, sent to the dead-letter topic.',
    labelNames: ['database'],
    registers: [registry],
  });

export const batchSeconds =
  existing<Histogram<'database'>>('slotstream_projector_batch_seconds') ??
  new Histogram({
    name: 'slotstream_projector_batch_seconds',
    help: 'Time to store one batch: the inserts of every table, its dead letters and the offsets commit.',
    labelNames: ['database'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
