// Inserts of binary rows (RowBinary), on either ClickHouse this process talks to (platform/clickhouse.ts).
// Server: the body is the HTTP request's, as sent. Embedded: chdb 3.4 has no way to hand it binary bytes inline. Its
// raw insert takes text formats only (a whitelist: "binary formats wait on the upstream inline-data feasibility
// check"), its Connection's insert turns the body into a UTF-8 string (every byte above 0x7f changed), and its native
// entry behind the raw insert, tried, passes the bytes but the engine reads inline data only up to the first empty
// line: a UInt64 0x0a0a (two line feeds) ended the data there and the rows after it were dropped without an error (a
// TabSeparated body never holds an empty line; a binary one does, in any u64 or record). So the body goes through a
// file of this process (on tmpfs when /dev/shm exists and has room, else the temp folder), read by `INSERT INTO t (...) FROM INFILE path SETTINGS ...
// FORMAT RowBinary` (the engine's own insert of a file: ~1 ms less CPU per insert than a SELECT from file()) on the
// client's own sessions, then removed. The settings go into the statement: the client would send them as session-wide
// SETs, and a dedup token left on a session would drop a later insert. projector/row-binary.int.test.ts inserts the
// bytes that broke the inline path.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import { isEmbeddedClient } from './clickhouse.js';

export interface RowBinaryInsert {
  table: string;
  columns: readonly string[];
  /** RowBinary rows, byte for byte as the engine reads them. */
  body: Buffer;
  settings?: ClickHouseSettings;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`RowBinary insert: invalid identifier ${JSON.stringify(name)}`);
  return name;
}

const quoted = (s: string): string => `'${s.replace(/[\\']/g, (c) => `\\${c}`)}'`;

function settingValue(v: unknown): string {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'string') return quoted(v);
  throw new Error(`RowBinary insert: setting value ${String(v)} is not a number, boolean or string`);
}

/** The embedded insert's statement reading `path` (table, columns and settings are checked: they go into SQL). */
export function fileInsertQuery(i: RowBinaryInsert, path: string): string {
  const settings = Object.entries(i.settings ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${identifier(k)} = ${settingValue(v)}`);
  return (
    `INSERT INTO ${identifier(i.table)} (${i.columns.map(identifier).join(', ')}) FROM INFILE ${quoted(path)}` +
    (settings.length > 0 ? ` SETTINGS ${settings.join(', ')}` : '') +
    ' FORMAT RowBinary'
  );
}

const folders = new Map<string, string>();
let seq = 0;
const FOLDER_PREFIX = 'slotstream-insert-';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // someone else's process: alive, not ours to judge
  }
};

/**
 * Removes the body folders under `base` of processes that are gone. A folder is removed at exit, but a SIGKILLed
 * process (a crash test, an OOM kill) leaves its folder and the body of the insert it was in; on tmpfs that is
 * memory held until reboot, so each process clears the ones of dead processes when it makes its own.
 */
export function sweepBodyFolders(base: string): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return removed;
  }
  for (const name of names) {
    const pid = Number(/^slotstream-insert-(\d+)-/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) continue;
    rmSync(join(base, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/** This process's folder for insert bodies under `base` (named after its pid), removed at exit. */
function bodyFolder(base: string): string {
  let dir = folders.get(base);
  if (dir !== undefined) return dir;
  sweepBodyFolders(base);
  dir = mkdtempSync(join(base, `${FOLDER_PREFIX}${process.pid}-`));
  const made = dir;
  process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  folders.set(base, dir);
  return dir;
}

/** Writes a body to a file: tmpfs first (no disk write), the temp folder when tmpfs cannot take it (a container's
 * /dev/shm is often 64 MB). Returns the file's path. */
async function writeBody(body: Buffer): Promise<string> {
  const name = `${process.pid}-${++seq}.rowbinary`;
  if (existsSync('/dev/shm')) {
    let path: string | undefined;
    try {
      path = join(bodyFolder('/dev/shm'), name);
      await writeFile(path, body);
      return path;
    } catch {
      if (path !== undefined) await unlink(path).catch(() => undefined);
    }
  }
  const path = join(bodyFolder(tmpdir()), name);
  await writeFile(path, body);
  return path;
}

/** Inserts RowBinary rows synchronously (resolved = stored). */
export async function insertRowBinary(ch: ClickHouseClient, i: RowBinaryInsert): Promise<void> {
  if (i.body.length === 0) return;
  if (!isEmbeddedClient(ch)) {
    const rs = await ch.exec({
      query: `INSERT INTO ${identifier(i.table)} (${i.columns.map(identifier).join(', ')}) FORMAT RowBinary`,
      values: Readable.from([i.body]),
      clickhouse_settings: i.settings,
    });
    rs.stream.resume();
    return;
  }
  const path = await writeBody(i.body);
  const query = fileInsertQuery(i, path);
  try {
    await ch.command({ query });
  } finally {
    await unlink(path).catch(() => undefined);
  }
}
