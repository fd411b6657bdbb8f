import { Counter, Gauge, Registry } from 'prom-client';
import { afterEach, expect, it } from 'vitest';
import { addHistorySource, addMetricsSource, registry, startMetricsServer, type MetricsServer } from './metrics.js';

let server: MetricsServer | undefined;
const removes: (() => void)[] = [];
afterEach(async () => {
  for (const r of removes.splice(0)) r();
  await server?.close();
});

it('answers /health/history with every source’s stores (u64 slots as strings), leaving out a source that fails', async () => {
  removes.push(addHistorySource(() => Promise.resolve([{ store: 'clickhouse.transactions', firstSlot: 2n ** 63n, rows: 3, bytes: 4 }])));
  removes.push(addHistorySource(() => Promise.reject(new Error('ClickHouse away'))));
  server = await startMetricsServer('127.0.0.1', 0);
  const r = await fetch(`http://127.0.0.1:${server.port}/health/history`);
  expect(r.headers.get('content-type')).toBe('application/json');
  expect(await r.json()).toEqual({ stores: [{ store: 'clickhouse.transactions', firstSlot: '9223372036854775808', rows: 3, bytes: 4 }] });
  // /health keeps its one-word answer.
  expect(await (await fetch(`http://127.0.0.1:${server.port}/health`)).text()).toBe('ok');
});

it("reports the main thread's busy share since the previous scrape: near 1 after a busy spell, near 0 after an idle one", async () => {
  server = await startMetricsServer('127.0.0.1', 0);
  const busyShare = async (): Promise<number> => {
    const text = await (await fetch(`http://127.0.0.1:${server!.port}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith('slotstream_event_loop_utilization '));
    return Number(line!.split(' ')[1]);
  };
  await busyShare();
  const until = performance.now() + 300;
  while (performance.now() < until); // the main thread busy, the loop blocked
  const busy = await busyShare();
  await new Promise((r) => setTimeout(r, 300)); // idle
  const idle = await busyShare();
  // Each window also holds its scrape's own round trip (and, in a shared test worker, whatever else ran), so the
  // figures are compared with each other rather than with fixed bounds: a busy spell reads busier than an idle one.
  expect(busy).toBeGreaterThan(0.5);
  expect(idle).toBeLessThan(busy);
});

it("merges the registered sources' metrics into /metrics: summed per label set, the event-loop share the busiest", async () => {
  // Here and in two other "processes" (a primary's stream processes send what getMetricsAsJSON gives).
  const streams = (r: Registry) =>
    new Gauge({ name: 'test_merge_streams', help: 'open streams', labelNames: ['method'] as const, registers: [r] });
  const sent = (r: Registry) => new Counter({ name: 'test_merge_sent_total', help: 'sent', registers: [r] });
  streams(registry).set({ method: 'Subscribe' }, 1);
  sent(registry).inc(10);
  const other = (open: number, elu: number) => {
    const r = new Registry();
    const g = streams(r);
    g.set({ method: 'Subscribe' }, open);
    g.set({ method: 'SubscribeParsed' }, 1);
    sent(r).inc(5);
    new Gauge({ name: 'slotstream_event_loop_utilization', help: 'busy share', registers: [r], aggregator: 'max' }).set(elu);
    return r;
  };
  const workers = [other(2, 0.97), other(3, 0.2)];
  removes.push(addMetricsSource(() => Promise.all(workers.map((w) => w.getMetricsAsJSON()))));
  removes.push(addMetricsSource(() => Promise.reject(new Error('a worker gone'))));
  removes.push(() => ['test_merge_streams', 'test_merge_sent_total'].forEach((n) => registry.removeSingleMetric(n)));
  server = await startMetricsServer('127.0.0.1', 0);
  const text = await (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text();
  expect(text).toMatch(/^test_merge_streams\{method="Subscribe"\} 6$/m);
  expect(text).toMatch(/^test_merge_streams\{method="SubscribeParsed"\} 2$/m);
  expect(text).toMatch(/^test_merge_sent_total 20$/m);
  // The busiest of the three (this one's own share is whatever the test run left: at most 1); summed it would be over 1.
  const elu = Number(/^slotstream_event_loop_utilization (\S+)$/m.exec(text)?.[1]);
  expect(elu).toBeGreaterThanOrEqual(0.97);
  expect(elu).toBeLessThanOrEqual(1);
});
