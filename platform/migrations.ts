// Migrations: numbered SQL files in schemas/clickhouse/ (`001_name.sql`), applied in order and
// recorded in `<db>.schema_migrations`, so applying twice changes nothing. Files use `{db}` for the
// database name; statements are separated by lines holding only `;`-terminated SQL (split on `;\n`).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClickHouseClient } from '@clickhouse/client';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../schemas/clickhouse/', import.meta.url));

export interface Migration {
  version: number;
  name: string;
  statements: string[];
}

/** Pure: reads and orders the migration files; rejects gaps in naming and duplicate numbers. */
export function loadMigrations(dir = MIGRATIONS_DIR, database: string): Migration[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  const seen = new Set<number>();
  return files.map((file) => {
    const m = /^(\d+)_([\w-]+)\.sql$/.exec(file);
    if (!m) throw new Error(`migration file ${file}: name must be <number>_<name>.sql`);
    const version = Number(m[1]);
    if (seen.has(version)) throw new Error(`migration number ${version} is used twice (${file})`);
    seen.add(version);
    const sql = readFileSync(join(dir, file), 'utf8').replaceAll('{db}', database);
    const statements = sql
      .split(/;\s*(?:\n|$)/)
      .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
      .filter((s) => s.length > 0);
    return { version, name: m[2]!, statements };
  });
}

/** Applies every migration not yet recorded; returns the versions applied now. */
export async function applyMigrations(ch: ClickHouseClient, database: string, dir = MIGRATIONS_DIR): Promise<number[]> {
  await ch.command({
    query: `CREATE TABLE IF NOT EXISTS ${database}.schema_migrations
      (version UInt32, name String, applied_at DateTime DEFAULT now())
      ENGINE = ReplacingMergeTree ORDER BY version`,
  });
  const rs = await ch.query({ query: `SELECT version FROM ${database}.schema_migrations FINAL`, format: 'JSONEachRow' });
  const done = new Set((await rs.json<{ version: number }>()).map((r) => Number(r.version)));
  const applied: number[] = [];
  for (const m of loadMigrations(dir, database)) {
    if (done.has(m.version)) continue;
    // Statements are written idempotently (IF NOT EXISTS), so a crash between them and the record
    // below is repaired by running the migration again.
    for (const query of m.statements) await ch.command({ query });
    await ch.insert({
      table: `${database}.schema_migrations`,
      values: [{ version: m.version, name: m.name }],
      columns: ['version', 'name'],
      format: 'JSONEachRow',
    });
    applied.push(m.version);
  }
  return applied;
}
