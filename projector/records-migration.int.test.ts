// 004_transaction_records.sql on a database that 003 already filled: the base64 bodies move into the
// binary records table byte for byte, the old table goes, and running the migration's statements again
// (a crash before it was recorded) leaves the same rows.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouse, type ClickHouseClient } from '../platform/clickhouse.js';
import { applyMigrations, loadMigrations, MIGRATIONS_DIR } from '../platform/migrations.js';

const DB = 'records_mig';
let dir: string;
let ch: ClickHouseClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slotstream-records-mig-'));
  ch = await createClickHouse({ dataDir: join(dir, 'ch'), database: DB });
});
afterAll(async () => {
  await ch?.close();
  rmSync(dir, { recursive: true, force: true });
});

const rows = async (sql: string): Promise<string[]> =>
  (await (await ch.query({ query: sql, format: 'TabSeparated' })).text()).split('\n').filter((l) => l !== '');

describe('004_transaction_records', () => {
  it('given bodies stored by 003, when 004 runs (and runs again), then the records hold the same bytes and the bodies table is gone', async () => {
    // The database as 003 left it: the first three migrations only.
    const upTo3 = join(dir, 'upto3');
    for (const m of loadMigrations(MIGRATIONS_DIR, DB).filter((x) => x.version <= 3)) {
      cpSync(
        join(MIGRATIONS_DIR, `${String(m.version).padStart(3, '0')}_${m.name}.sql`),
        join(upTo3, `${String(m.version).padStart(3, '0')}_${m.name}.sql`),
      );
    }
    expect(await applyMigrations(ch, DB, upTo3)).toEqual([1, 2, 3]);
    const bodies = [
      Buffer.from([0x08, 0x09, 0x0a, 0x0d, 0x5c, 0x00, 0xff, 0x27]),
      Buffer.from(Array.from({ length: 300 }, (_, i) => i % 256)),
    ];
    await ch.insert({
      table: `${DB}.transaction_bodies`,
      format: 'JSONEachRow',
      columns: ['slot', 'position', 'signature', 'body'],
      values: bodies.map((b, i) => ({ slot: '7', position: i, signature: `sig${i}`, body: b.toString('base64') })),
    });

    // 004 and every later migration (those do not touch these tables).
    expect((await applyMigrations(ch, DB))[0]).toBe(4);
    const want = bodies.map((b, i) => `7\t${i}\tsig${i}\t${b.toString('hex').toUpperCase()}`);
    const got = () => rows(`SELECT slot, position, signature, hex(record) FROM ${DB}.transaction_records FINAL ORDER BY position`);
    expect(await got()).toEqual(want);
    expect(await rows(`SELECT name FROM system.tables WHERE database = '${DB}' AND name = 'transaction_bodies'`)).toEqual([]);

    // A crash after the statements and before the record: they run again.
    for (const q of loadMigrations(MIGRATIONS_DIR, DB).find((m) => m.version === 4)!.statements) await ch.command({ query: q });
    expect(await got()).toEqual(want);
    expect(await rows(`SELECT base64Encode(record) FROM ${DB}.transaction_records FINAL ORDER BY position`)).toEqual(
      bodies.map((b) => b.toString('base64')),
    );
  });
});
