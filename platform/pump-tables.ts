// The pump.fun / PumpSwap / Pump Fees decoder tables an operator points the process at (--pump-idl,
// --pump-amm-idl, --pump-fees-idl: an Anchor IDL file or the project's compact table), loaded at start and
// reloaded on SIGHUP and when a file changes, without a restart: the decoder swaps its tables between two
// transactions (schemas/pumpfun/active-tables.ts), so no stream is dropped. The one seam between the decoder's
// tables and the file system.
// - At start a file that fails to load (missing, not JSON, a discriminator that is not sha256 of its name, a
//   type the reader does not take) is a startup error naming the file and the entry.
// - A reload that fails keeps the tables in use (logged, counted): a half-written file never takes the decoder down.
// - Files are polled (fs.watchFile): editors and deploys replace files by rename, which a watch on the old inode misses.
import { readFileSync, unwatchFile, watchFile, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import { Counter } from 'prom-client';
import { setActiveTables, resetActiveTables } from '../schemas/pumpfun/active-tables.js';
import type { ProgramTable, PumpProgramName } from '../schemas/pumpfun/program-table.js';
import { loadProgramTable } from '../schemas/pumpfun/table-source.js';
import type { Logger } from './log.js';
import { registry } from './metrics.js';

/** A file per program ('' or absent: the bundled table). */
export type PumpTableFiles = Readonly<Partial<Record<PumpProgramName, string>>>;

export interface PumpTablesHandle {
  /** Loads the files again now (what SIGHUP and a file change do); throws nothing: false when it kept the old tables. */
  reload(): boolean;
  /** Stops watching (the tables stay); `reset` puts the bundled ones back (tests). */
  stop(reset?: boolean): void;
}

const reloads =
  (registry.getSingleMetric('slotstream_pump_table_reloads_total') as Counter<'result'> | undefined) ??
  new Counter({
    name: 'slotstream_pump_table_reloads_total',
    help: 'Reloads of the pump decoder tables (--pump-idl & co.) on SIGHUP or a file change, by result (ok, failed: the tables in use were kept).',
    labelNames: ['result'],
    registers: [registry],
  });

function loadAll(files: readonly (readonly [PumpProgramName, string])[]): Partial<Record<PumpProgramName, ProgramTable>> {
  const out: Partial<Record<PumpProgramName, ProgramTable>> = {};
  for (const [program, file] of files) out[program] = loadProgramTable(readFileSync(file, 'utf8'), file, program);
  return out;
}

export interface StartPumpTablesOptions {
  /** How often a file is polled for a change (ms). */
  pollMs?: number;
  /** Listen for SIGHUP (default true; tests drive reload() or the signal themselves). */
  sighup?: boolean;
}

/** Loads the given files (throws when one does not load) and watches them; nothing to do when none is given. */
export function startPumpTables(given: PumpTableFiles, log: Logger, options: StartPumpTablesOptions = {}): PumpTablesHandle {
  const files = (Object.entries(given) as [PumpProgramName, string | undefined][])
    .filter((e): e is [PumpProgramName, string] => e[1] !== undefined && e[1] !== '')
    .map(([p, f]) => [p, resolve(f)] as const);
  if (files.length === 0) return { reload: () => true, stop: () => {} };
  setActiveTables(loadAll(files));
  log.info({ files: Object.fromEntries(files) }, 'pump decoder tables loaded');
  const reload = (): boolean => {
    try {
      const tables = loadAll(files);
      setActiveTables(tables);
      reloads.inc({ result: 'ok' });
      log.info(
        {
          files: Object.fromEntries(files),
          entries: Object.fromEntries(Object.entries(tables).map(([p, t]) => [p, t.instructions.length + t.events.length])),
        },
        'pump decoder tables reloaded',
      );
      return true;
    } catch (e) {
      reloads.inc({ result: 'failed' });
      log.error({ err: (e as Error).message }, 'pump decoder tables not reloaded: keeping the tables in use');
      return false;
    }
  };
  const onSighup = (): void => {
    reload();
  };
  if (options.sighup !== false) process.on('SIGHUP', onSighup);
  const onChange = (cur: Stats, prev: Stats): void => {
    if (cur.mtimeMs !== prev.mtimeMs || cur.size !== prev.size || cur.ino !== prev.ino) reload();
  };
  for (const [, f] of files) watchFile(f, { interval: options.pollMs ?? 1000, persistent: false }, onChange);
  return {
    reload,
    stop: (reset = false) => {
      process.off('SIGHUP', onSighup);
      for (const [, f] of files) unwatchFile(f, onChange);
      if (reset) resetActiveTables();
    },
  };
}
