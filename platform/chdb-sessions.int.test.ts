// Several sessions of the real embedded engine behind one client: a read or an insert does not wait for a long
// query already running on another session, as it does when the process has a single session.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOrder, selectOne } from '../test/support/clickhouse/query-order.js';
import { createClickHouse, insertTabSeparated, type ClickHouseClient } from './clickhouse.js';

const DB = 'sessions_test';
let dir: string;
let one: ClickHouseClient;
let four: ClickHouseClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slotstream-sessions-'));
  one = await createClickHouse({ dataDir: dir, database: DB, sessions: 1 });
  four = await createClickHouse({ dataDir: dir, database: DB, sessions: 4 });
  await four.command({ query: `CREATE TABLE ${DB}.t (k UInt64, v String) ENGINE = MergeTree ORDER BY k` });
});
afterAll(async () => {
  await one?.close();
  await four?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('chdb sessions', () => {
  it('with one session, a short read waits for the long query before it', async () => {
    expect(await answerOrder(one, selectOne(one))).toEqual(['long', 'short']);
  });

  it('with four, a short read and an insert are answered while the long query runs', async () => {
    expect(await answerOrder(four, selectOne(four))).toEqual(['short', 'long']);
    const insert = () => insertTabSeparated(four, { table: `${DB}.t`, columns: ['k', 'v'], body: Buffer.from('1\tone\n2\ttwo\n') });
    expect(await answerOrder(four, insert)).toEqual(['short', 'long']);
    const rs = await four.query({ query: `SELECT k, v FROM ${DB}.t ORDER BY k`, format: 'JSONEachRow' });
    expect(await rs.json()).toEqual([
      { k: '1', v: 'one' },
      { k: '2', v: 'two' },
    ]);
  });

  it('refuses a session count that is not a whole number of at least 1', async () => {
    await expect(createClickHouse({ dataDir: dir, database: DB, sessions: 0 })).rejects.toThrow(/at least 1 \(got 0\)/);
  });
});
