// Several sessions of the real embedded engine behind one client: a read or an insert does not wait for a long
// query already running on another session, as it does when the process has a single session.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouse, insertTabSeparated, type ClickHouseClient } from './clickhouse.js';

const DB = 'sessions_test';
// Seconds of engine time on this machine (a hash per row): long enough that a short call lands while it runs.
const LONG = 'SELECT count() AS n FROM numbers(30000000) WHERE sipHash64(number) % 7 = 1';
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

/** Which of the long query and `short` (started once the long one is on its way) is answered first. */
async function order(ch: ClickHouseClient, short: () => Promise<unknown>): Promise<string[]> {
  const done: string[] = [];
  const long = ch.query({ query: LONG, format: 'JSONEachRow' }).then(async (rs) => {
    await rs.json();
    done.push('long');
  });
  await new Promise((r) => setTimeout(r, 100));
  await short();
  done.push('short');
  await long;
  return done;
}

const select1 = (ch: ClickHouseClient) => () => ch.query({ query: 'SELECT 1', format: 'JSONEachRow' }).then((rs) => rs.json());

describe('chdb sessions', () => {
  it('with one session, a short read waits for the long query before it', async () => {
    expect(await order(one, select1(one))).toEqual(['long', 'short']);
  });

  it('with four, a short read and an insert are answered while the long query runs', async () => {
    expect(await order(four, select1(four))).toEqual(['short', 'long']);
    const insert = () => insertTabSeparated(four, { table: `${DB}.t`, columns: ['k', 'v'], body: Buffer.from('1\tone\n2\ttwo\n') });
    expect(await order(four, insert)).toEqual(['short', 'long']);
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
