// Metrics of the rpc source, on the shared registry; created once per process (tests run several ingests).
import { Counter } from 'prom-client';
import { registry } from '../../../platform/metrics.js';

export interface RpcSourceMetrics {
  skipped: Counter;
  gaps: Counter;
  retries: Counter;
}

let metrics: RpcSourceMetrics | undefined;

export function rpcSourceMetrics(): RpcSourceMetrics {
  metrics ??= {
    skipped: new Counter({
      name: 'slotstream_ingest_rpc_skipped_slots_total',
      help: 'rpc source: slots published as skipped.',
      registers: [registry],
    }),
    gaps: new Counter({
      name: 'slotstream_ingest_rpc_gap_slots_total',
      help: 'rpc source: slots not published (gap records), e.g. unconvertible blocks.',
      registers: [registry],
    }),
    retries: new Counter({
      name: 'slotstream_ingest_rpc_retries_total',
      help: 'rpc source: JSON-RPC requests retried (429, timeouts, 5xx, block not available yet).',
      registers: [registry],
    }),
  };
  return metrics;
}
