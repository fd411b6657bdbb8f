// Metrics of the yellowstone source on the shared registry, created once per process.
import { Counter, Gauge } from 'prom-client';
import { registry } from '../../../platform/metrics.js';

export interface YellowstoneMetrics {
  updates: Counter<'kind'>;
  reconnects: Counter;
  gapSlots: Counter;
  notices: Counter<'kind'>;
  upstreamSlot: Gauge;
  /** Batches handed over as pieces of a slot under way (--yellowstone-publish pieces). */
  pieces: Counter;
  /** Per upstream (label: its URL without query or credentials), with several merged (merged-loop.ts). */
  upstreamWon: Counter<'upstream'>;
  upstreamDuplicates: Counter<'upstream'>;
  upstreamLag: Gauge<'upstream'>;
  upstreamReconnects: Counter<'upstream'>;
  upstreamConnected: Gauge<'upstream'>;
}

let metrics: YellowstoneMetrics | undefined;

export function yellowstoneMetrics(): YellowstoneMetrics {
  metrics ??= { ...sourceMetrics(), ...upstreamMetrics() };
  return metrics;
}

type UpstreamMetrics = Pick<
  YellowstoneMetrics,
  'upstreamWon' | 'upstreamDuplicates' | 'upstreamLag' | 'upstreamReconnects' | 'upstreamConnected'
>;

/** The source's own, whichever upstreams it reads. */
function sourceMetrics(): Omit<YellowstoneMetrics, keyof UpstreamMetrics> {
  return {
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
    pieces: new Counter({
      name: 'slotstream_ingest_yellowstone_pieces_total',
      help: 'Batches handed to the publisher as pieces of a slot under way (--yellowstone-publish pieces); its last batch is not counted.',
      registers: [registry],
    }),
    upstreamSlot: new Gauge({
      name: 'slotstream_ingest_upstream_slot',
      help: 'Highest slot the upstream has reported (any status).',
      registers: [registry],
    }),
  };
}

/** Per upstream, labelled with its URL (merged-loop.ts). */
function upstreamMetrics(): UpstreamMetrics {
  return {
    upstreamWon: new Counter({
      name: 'slotstream_ingest_yellowstone_upstream_updates_won_total',
      help: 'Updates this upstream delivered first (published from it), with several upstreams merged.',
      labelNames: ['upstream'],
      registers: [registry],
    }),
    upstreamDuplicates: new Counter({
      name: 'slotstream_ingest_yellowstone_upstream_updates_duplicate_total',
      help: 'Updates this upstream delivered after another had (or of a slot already handed over): dropped.',
      labelNames: ['upstream'],
      registers: [registry],
    }),
    upstreamLag: new Gauge({
      name: 'slotstream_ingest_yellowstone_upstream_lag_slots',
      help: "Slots this upstream's tip trails the fastest upstream's by.",
      labelNames: ['upstream'],
      registers: [registry],
    }),
    upstreamReconnects: new Counter({
      name: 'slotstream_ingest_yellowstone_upstream_reconnects_total',
      help: 'Subscriptions to this upstream restarted after an error, its end, silence or lagging behind the fastest.',
      labelNames: ['upstream'],
      registers: [registry],
    }),
    upstreamConnected: new Gauge({
      name: 'slotstream_ingest_yellowstone_upstream_connected',
      help: '1 while a subscription to this upstream is open, 0 while it is being retried.',
      labelNames: ['upstream'],
      registers: [registry],
    }),
  };
}
