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
