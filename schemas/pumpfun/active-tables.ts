// The decoder tables in use: the bundled ones until an operator loads others (--pump-idl, --pump-amm-idl,
// --pump-fees-idl; platform/pump-idl-reloader.ts reloads them on SIGHUP or a file change). One module-level
// reference, swapped whole: a transaction being decoded keeps the tables it started with (extract.ts reads
// the reference once per transaction), the next one sees the new ones; nothing else is restarted.
import { bundledTable } from './bundled-tables.js';
import type { ProgramTable, PumpProgramName } from './program-table.js';

export interface PumpTables {
  readonly pump: ProgramTable;
  readonly pump_amm: ProgramTable;
  readonly pump_fees: ProgramTable;
  /** The three, pump first (the order programs are listed in). */
  readonly all: readonly ProgramTable[];
}

// `all` is a plain array, not frozen: the decoder walks it per program key, and V8's loops over frozen arrays were
// measurably slower there (bench/pump-decode.ts). Nothing writes it.
const make = (pump: ProgramTable, pump_amm: ProgramTable, pump_fees: ProgramTable): PumpTables =>
  Object.freeze({ pump, pump_amm, pump_fees, all: [pump, pump_amm, pump_fees] });

export const BUNDLED_TABLES: PumpTables = make(bundledTable('pump'), bundledTable('pump_amm'), bundledTable('pump_fees'));

let active: PumpTables = BUNDLED_TABLES;
let version = 0;

export function activeTables(): PumpTables {
  return active;
}

/** Bumped on every swap (callers caching per-table work compare it). */
export function activeTablesVersion(): number {
  return version;
}

/** Replaces some programs' tables (the rest stay); a table of the wrong program is refused. */
export function setActiveTables(tables: Partial<Record<PumpProgramName, ProgramTable>>): PumpTables {
  for (const [name, t] of Object.entries(tables)) {
    if (t !== undefined && t.name !== name) throw new Error(`a ${t.name} table given as ${name}`);
  }
  active = make(tables.pump ?? active.pump, tables.pump_amm ?? active.pump_amm, tables.pump_fees ?? active.pump_fees);
  version++;
  return active;
}

/** Back to the bundled tables (tests). */
export function resetActiveTables(): void {
  active = BUNDLED_TABLES;
  version++;
}
