// The October 2026 instructions and events the simulator emits (issue 34, item 5), built from the decoder's own
// bundled tables (schemas/pumpfun/tables/*.json, generated from the published IDLs) with its Borsh writer, so the
// simulator and the decoder agree by construction on discriminators and layouts. The older shapes keep the
// simulator's own encoders (pump-events.ts, borsh.ts), which the decoder checks independently
// (pump-traffic.unit.test.ts). The values (amounts, reserves, fees) are the simulator's: pump-2026-10.unit.test.ts
// checks them against the chain's balances and account writes, not against this file.
import { encodeEventInstruction, encodeInstruction } from '../../../schemas/pumpfun/borsh-writer.js';
import { bundledTable } from '../../../schemas/pumpfun/bundled-tables.js';
import type { Value } from '../../../schemas/pumpfun/layout.js';
import type { EventDef, InstructionDef, PumpProgramName } from '../../../schemas/pumpfun/program-table.js';

type Values = Readonly<Record<string, Value>>;

const ixCache = new Map<string, InstructionDef>();
const evCache = new Map<string, EventDef>();

function ixDef(program: PumpProgramName, name: string): InstructionDef {
  const k = `${program}:${name}`;
  let d = ixCache.get(k);
  if (d === undefined) {
    d = bundledTable(program).instructions.find((x) => x.name === name);
    if (d === undefined) throw new Error(`${program} has no instruction ${name} in its bundled table`);
    ixCache.set(k, d);
  }
  return d;
}

function evDef(program: PumpProgramName, name: string): EventDef {
  const k = `${program}:${name}`;
  let d = evCache.get(k);
  if (d === undefined) {
    d = bundledTable(program).events.find((x) => x.name === name);
    if (d === undefined) throw new Error(`${program} has no event ${name} in its bundled table`);
    evCache.set(k, d);
  }
  return d;
}

/** An instruction's data (discriminator + arguments in the table's layout). */
export const tableIxData = (program: PumpProgramName, name: string, args: Values = {}): Buffer =>
  encodeInstruction(ixDef(program, name), args);

/** A self-CPI event instruction's data (EVENT_IX_TAG + discriminator + fields), as emitEvent() takes it. */
export const tableEventData = (program: PumpProgramName, name: string, fields: Values): Buffer =>
  encodeEventInstruction(evDef(program, name), fields);

/** The account count of an instruction in the table (the tests and the account builders check it). */
export const tableAccountCount = (program: PumpProgramName, name: string): number => ixDef(program, name).accounts.length;
