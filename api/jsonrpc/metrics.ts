// JSON-RPC metrics on the shared registry: latency per method and answers per code.
import { Counter, Histogram } from 'prom-client';
import { registry } from '../../platform/metrics.js';

const existing = <T>(name: string): T | undefined => registry.getSingleMetric(name) as T | undefined;

export const rpcDuration =
  existing<Histogram<'method'>>('slotstream_jsonrpc_request_seconds') ??
  new Histogram({
    name: 'slotstream_jsonrpc_request_seconds',
    help: 'JSON-RPC call duration by method (unknown methods as "other").',
    labelNames: ['method'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });

export const rpcAnswers =
  existing<Counter<'method' | 'code'>>('slotstream_jsonrpc_answers_total') ??
  new Counter({
    name: 'slotstream_jsonrpc_answers_total',
    help: 'JSON-RPC answers by method and code (0 = result).',
    labelNames: ['method', 'code'],
    registers: [registry],
  });

export const headAnswers =
  existing<Counter<'method' | 'outcome'>>('slotstream_jsonrpc_head_cache_total') ??
  new Counter({
    name: 'slotstream_jsonrpc_head_cache_total',
    help: 'JSON-RPC calls of methods the head cache serves, by method and outcome: hit (answered from memory) or miss (asked the views).',
    labelNames: ['method', 'outcome'],
    registers: [registry],
  });
