// Live-layer metrics on the shared registry; created once per process (several servers in one test process
// share them). Transport metrics (open streams per method, cut-offs) live with each transport.
import { Counter, Gauge } from 'prom-client';
import { registry } from '../../platform/metrics.js';

export const undecodableRecords = new Counter({
  name: 'slotstream_live_undecodable_records_total',
  help: 'Kafka records the api live layer could not decode (skipped, logged).',
  labelNames: ['topic'] as const,
  registers: [registry],
});

export const recordCopies = new Counter({
  name: 'slotstream_live_record_copies_total',
  help: 'Second copies of records the live tail read uncommitted (an aborted record re-published by the ingest), by topic kind.',
  labelNames: ['kind'] as const,
  registers: [registry],
});

export const replaysRunning = new Gauge({
  name: 'slotstream_live_replays_running',
  help: 'from_slot replays running in this api process (each with its own Kafka reader); bounded by --max-replays.',
  registers: [registry],
});

export const replaysRefused = new Counter({
  name: 'slotstream_live_replays_refused_total',
  help: 'from_slot replays refused because --max-replays were already running (answered RESOURCE_EXHAUSTED).',
  registers: [registry],
});
