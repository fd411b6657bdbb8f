// Live-layer metrics on the shared registry; created once per process (several servers in one test process
// share them). Transport metrics (open streams per method, cut-offs) live with each transport.
import { Counter } from 'prom-client';
import { registry } from '../../platform/metrics.js';

export const undecodableRecords = new Counter({
  name: 'slotstream_live_undecodable_records_total',
  help: 'Kafka records the api live layer could not decode (skipped, logged).',
  labelNames: ['topic'] as const,
  registers: [registry],
});
