// Metrics of the yellowstone source on the shared registry, created once per process.
import { Counter, Gauge } from 'prom-client';
import { registry } from '../../../platform/metrics.js';

export interface YellowstoneMetrics {
  updates: Counter<'kind'>;
  reconnects: Counter;
  gapSlots: Counter;
  notices: Counter<'kind'>;
  upstreamSlot: Gauge;
}

let metrics: YellowstoneMetrics | undefined;

export function yellowstoneMetrics(): YellowstoneMetrics {
  metrics ??= {
    updates: new Counter({
      name: 'slotstream_ingest_yellowstone_updates_total',
      help: 'Yellowstone updates received, per kind.',
      labelNames: ['kind'],
      registers: [registry],
    }),
    reconnects: new Counter({
      name: 'slotstream_ingest_yellowstone_reconnects_total',
      help: 'Yellowstone subscriptions restarted after an error or end.',
      registers: [registry],
    }),
    gapSlots: new Counter({
      name: 'slotstream_ingest_gap_slots_total',
      help: 'Slots published as missing in gap records (the upstream could not reach back far enough).',
      registers: [registry],
    }),
    notices: new Counter({
      name: 'slotstream_ingest_yellowstone_notices_total',
      help: 'Slots or updates the yellowstone source could not take as they came (incomplete, abandoned, partial-at-start, before-start, late-data, unconvertible, gap).',
      labelNames: ['kind'],
      registers: [registry],
    }),
    upstreamSlot: new Gauge({
      name: 'slotstream_ingest_upstream_slot',
      help: 'Highest slot the upstream has reported (any status).',
      registers: [registry],
    }),
  };
  return metrics;
}
