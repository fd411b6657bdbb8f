import { afterEach, expect, it } from 'vitest';
import { addHistorySource, startMetricsServer, type MetricsServer } from './metrics.js';

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
  expect(await busyShare()).toBeGreaterThan(0.5);
  await new Promise((r) => setTimeout(r, 300)); // idle
  expect(await busyShare()).toBeLessThan(0.5);
});
