// `all` on embedded ClickHouse: the projector's client is not the api's, so its inserts do not wait for a read
// the api has running (chdb runs one query at a time per session); the other roles keep their one client.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouse, insertTabSeparated, type ClickHouseClient } from '../platform/clickhouse.js';
import { createLogger } from '../platform/log.js';
import { answerOrder } from '../test/support/clickhouse/query-order.js';
import { StopList } from './stop-list.js';
import { projectorClickHouse } from './wire-clickhouse.js';

const DB = 'wire_ch';
let dir: string;
let api: ClickHouseClient;
const stops = new StopList(createLogger('silent'));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slotstream-wire-ch-'));
  api = await createClickHouse({ dataDir: dir, database: DB });
  await api.command({ query: `CREATE TABLE ${DB}.t (k UInt64) ENGINE = MergeTree ORDER BY k` });
});
afterAll(async () => {
  await stops.stopAll();
  await api?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('projectorClickHouse', () => {
  it("all, embedded: a client of its own, whose insert is answered while the api's long read runs", async () => {
    const section = { dataDir: dir, database: DB };
    const projector = await projectorClickHouse(section, 'all', api, stops);
    expect(projector).not.toBe(api);
    const insert = () => insertTabSeparated(projector, { table: `${DB}.t`, columns: ['k'], body: Buffer.from('7\n') });
    expect(await answerOrder(api, insert)).toEqual(['short', 'long']);
    const rs = await api.query({ query: `SELECT k FROM ${DB}.t`, format: 'JSONEachRow' });
    expect(await rs.json()).toEqual([{ k: '7' }]);
  });

  it('the projector role alone, or a ClickHouse server: the one client', async () => {
    expect(await projectorClickHouse({ dataDir: dir, database: DB }, 'projector', api, stops)).toBe(api);
    expect(await projectorClickHouse({ url: 'http://ch:8123', dataDir: dir, database: DB }, 'all', api, stops)).toBe(api);
  });
});
