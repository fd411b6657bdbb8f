// Metrics of the rpc source, on the shared registry; created once per process (tests run several ingests).
import { Counter, Gauge } from 'prom-client';
import { registry } from '../../platform/metrics.js';

export interface RpcSourceMetrics {
  skipped: Counter;
  gaps: Counter;
  retries: Counter;
  lagSlots: Gauge;
  lagMs: Gauge;
}

let metrics: RpcSourceMetrics | undefined;

export function rpcSourceMetrics(): RpcSourceMetrics {
  metrics ??= {
    skipped: new Counter({ name: 'slotstream_ingest_rpc_skipped_slots_total', help: 'rpc source: slots published as skipped.', registers: [registry] }),
    gaps: new Counter({ name: 'slotstream_ingest_rpc_gap_slots_total', help: 'rpc source: slots not published (gap records), e.g. unconvertible blocks.', registers: [registry] }),
    retries: new Counter({ name: 'slotstream_ingest_rpc_retries_total', help: 'rpc source: JSON-RPC requests retried (429, timeouts, 5xx, block not available yet).', registers: [registry] }),
    lagSlots: new Gauge({ name: 'slotstream_ingest_rpc_lag_slots', help: "rpc source: slots between the node's tip (at the run's commitment) and the last slot handed to the publisher.", registers: [registry] }),
    lagMs: new Gauge({ name: 'slotstream_ingest_rpc_lag_ms', help: 'rpc source: now minus the block time of the last block handed to the publisher (block times are whole seconds).', registers: [registry] }),
  };
  return metrics;
}
