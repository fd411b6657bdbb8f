// Instruction data and event bytes of pump.fun and PumpSwap, decoded through their tables. Pure; never throws:
// every input gives one of four typed results.
//   decoded    the discriminator is known; `fields` holds the fields the data carries (older layouts carry a
//              prefix: the later fields are listed in `absent`, never zeroed), `trailingBytes` counts the bytes
//              after the last known field (a layout newer than the table; Anchor ignores them too).
//   unknown    no instruction/event of the program has these 8 bytes.
//   truncated  shorter than the 8-byte discriminator, or ending inside a field (`field` names it).
//   invalid    a value Borsh rejects (bool or option byte not 0/1, invalid UTF-8); the program would have failed.
import type { Fields } from './layout.js';
import { BUNDLED_TABLES } from './active-tables.js';
import {
  hasDiscriminator,
  lookupDiscriminator,
  type DiscriminatorIndex,
  type EventDef,
  type InstructionDef,
  type ProgramTable,
  type PumpProgramName,
} from './program-table.js';

export type Decode<D extends InstructionDef | EventDef> =
  | {
      readonly kind: 'decoded';
      readonly program: PumpProgramName;
      readonly name: string;
      readonly def: D;
      readonly fields: Fields;
      /** Fields of the table the data does not carry (an older layout), in order. */
      readonly absent: readonly string[];
      readonly trailingBytes: number;
    }
  | { readonly kind: 'unknown'; readonly program: PumpProgramName; readonly discriminator: string; readonly reason: string }
  | {
      readonly kind: 'truncated' | 'invalid';
      readonly program: PumpProgramName;
      /** Absent when the data is too short to name one. */
      readonly name: string | undefined;
      readonly def: D | undefined;
      /** The fields read before `field`. */
      readonly fields: Fields;
      readonly field: string;
      readonly reason: string;
    };

export type InstructionDecode = Decode<InstructionDef>;
export type EventDecode = Decode<EventDef>;

/** Anchor's EVENT_IX_TAG (sha256("anchor:event")[..8]): the data of a self-CPI event instruction starts with it. */
export const EVENT_IX_TAG = Buffer.from('e445a52e51cb9a1d', 'hex');

/** The bundled tables of the three programs (pump, pump_amm, pump_fees); the ones in use: activeTables(). */
export const PUMP_PROGRAMS: readonly ProgramTable[] = BUNDLED_TABLES.all;

const NONE: readonly string[] = Object.freeze([]);

function decode<D extends InstructionDef | EventDef>(
  table: ProgramTable,
  index: DiscriminatorIndex<D>,
  what: string,
  data: Uint8Array,
  at: number,
): Decode<D> {
  const program = table.name;
  if (data.length - at < 8) {
    return {
      kind: 'truncated',
      program,
      name: undefined,
      def: undefined,
      fields: {},
      field: 'discriminator',
      reason: `${program} ${what}: ${Math.max(0, data.length - at)} bytes, shorter than the 8-byte discriminator`,
    };
  }
  const def = lookupDiscriminator(index, data, at);
  if (def === undefined) {
    const hex = Buffer.from(data.buffer, data.byteOffset + at, 8).toString('hex');
    return { kind: 'unknown', program, discriminator: hex, reason: `${program} has no ${what} with discriminator ${hex}` };
  }
  const r = def.read(data, at + 8);
  if (!r.ok)
    return { kind: r.kind, program, name: def.name, def, fields: r.fields, field: r.field, reason: `${program} ${def.name}: ${r.reason}` };
  return {
    kind: 'decoded',
    program,
    name: def.name,
    def,
    fields: r.fields,
    absent: r.present === def.names.length ? NONE : def.names.slice(r.present),
    trailingBytes: r.trailingBytes,
  };
}

/** An instruction's data: 8-byte discriminator, then its arguments. */
export function decodeInstruction(table: ProgramTable, data: Uint8Array): InstructionDecode {
  return decode(table, table.instructionIndex, 'instruction', data, 0);
}

/** An event's bytes: 8-byte discriminator, then its fields (as in a `Program data:` log line). */
export function decodeEvent(table: ProgramTable, data: Uint8Array): EventDecode {
  return decode(table, table.eventIndex, 'event', data, 0);
}

/** Whether instruction data is an Anchor self-CPI event (EVENT_IX_TAG, then the event). */
export function isEventInstruction(data: Uint8Array): boolean {
  return data.length >= 8 && hasDiscriminator(data, 0, EVENT_IX_TAG);
}

/** A self-CPI event instruction's data (EVENT_IX_TAG + event bytes) decoded as the event. */
export function decodeEventInstruction(table: ProgramTable, data: Uint8Array): EventDecode {
  return decode(table, table.eventIndex, 'event', data, 8);
}

/**
 * Account names for an instruction's accounts, by position, when the instruction has exactly as many accounts
 * as the table lists; otherwise undefined (older transactions passed fewer accounts and some positions have
 * changed meaning since, so naming them with today's list would be wrong).
 */
export function accountNames(def: InstructionDef, accountCount: number): readonly string[] | undefined {
  return accountCount === def.accounts.length ? def.accounts : undefined;
}
