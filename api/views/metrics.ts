// Metrics of reading the views, on the shared registry: the admission outcome of each ClickHouse query of
// JSON-RPC methods and PubSub look-ups.
import { Counter } from 'prom-client';
import { registry } from '../../platform/metrics.js';

export const queryAdmissions =
  (registry.getSingleMetric('slotstream_query_admissions_total') as Counter<'outcome'> | undefined) ??
  new Counter({
    name: 'slotstream_query_admissions_total',
    help: 'ClickHouse queries of JSON-RPC and PubSub look-ups by admission outcome: run, cancelled (while waiting), refused (client over its share).',
    labelNames: ['outcome'],
    registers: [registry],
  });
