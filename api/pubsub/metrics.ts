// PubSub metrics on the shared registry (several servers in one test process share them). The gauges
// count what is open now, so they return to zero when every client has gone.
import { Counter, Gauge } from 'prom-client';
import { registry } from '../../platform/metrics.js';

const existing = <T>(name: string): T | undefined => registry.getSingleMetric(name) as T | undefined;

export const openConnections =
  existing<Gauge>('slotstream_pubsub_connections') ??
  new Gauge({ name: 'slotstream_pubsub_connections', help: 'Open PubSub WebSocket connections.', registers: [registry] });

export const openSubscriptions =
  existing<Gauge<'kind'>>('slotstream_pubsub_subscriptions') ??
  new Gauge({
    name: 'slotstream_pubsub_subscriptions',
    help: 'Open PubSub subscriptions by kind (account, program, logs, signature, slot, root).',
    labelNames: ['kind'] as const,
    registers: [registry],
  });

export const slowClientCloses =
  existing<Counter>('slotstream_pubsub_slow_client_closes_total') ??
  new Counter({
    name: 'slotstream_pubsub_slow_client_closes_total',
    help: 'PubSub connections closed because the client did not read what it was sent.',
    registers: [registry],
  });

export const requestErrors =
  existing<Counter<'code'>>('slotstream_pubsub_request_errors_total') ??
  new Counter({
    name: 'slotstream_pubsub_request_errors_total',
    help: 'PubSub requests answered with an error, by JSON-RPC code.',
    labelNames: ['code'] as const,
    registers: [registry],
  });
