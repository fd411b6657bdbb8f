// Completeness: the project's tables against the official IDLs (../shared/data/mainnet/pump, read at test time).
// Fails when an instruction or event of either IDL has no decoder, a different discriminator, or a field list
// (names and types, in order) or account list that differs; and when a table has one the IDL does not.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { idlTypeText, readPumpIdl, type Idl } from '../../test/support/mainnet/pump.js';
import { PUMP_AMM } from './pump-amm-table.js';
import { PUMP } from './pump-table.js';
import type { ProgramTable } from './program-table.js';

const fieldList = (fields: readonly { name: string; typeText: string }[]) => fields.map((f) => `${f.name}:${f.typeText}`);
const idlFields = (args: readonly { name: string; type: unknown }[]) => args.map((a) => `${a.name}:${idlTypeText(a.type)}`);

describe.each([
  ['pump', PUMP],
  ['pump_amm', PUMP_AMM],
] as const)('%s table against its IDL', (program, table: ProgramTable) => {
  const idl: Idl = readPumpIdl(program);
  const types = new Map(idl.types.map((t) => [t.name, t]));

  it('names the same program', () => {
    expect(idl.metadata.name).toBe(program);
    expect(idl.address).toBe(table.programId);
  });

  it('has every instruction, with its discriminator, args and accounts in order, and no other', () => {
    expect(table.instructions.map((d) => d.name).sort()).toEqual(idl.instructions.map((i) => i.name).sort());
    for (const ix of idl.instructions) {
      const def = table.instructions.find((d) => d.name === ix.name)!;
      expect(def.discriminator.toString('hex'), ix.name).toBe(Buffer.from(ix.discriminator).toString('hex'));
      expect(fieldList(def.fields.slice(0, def.idlFieldCount)), `${ix.name} args`).toEqual(idlFields(ix.args));
      expect(def.accounts, `${ix.name} accounts`).toEqual(ix.accounts.map((a) => a.name));
    }
  });

  it('has every event, with its discriminator and fields in order, and no other', () => {
    expect(table.events.map((d) => d.name).sort()).toEqual(idl.events.map((e) => e.name).sort());
    for (const ev of idl.events) {
      const def = table.events.find((d) => d.name === ev.name)!;
      expect(def.discriminator.toString('hex'), ev.name).toBe(Buffer.from(ev.discriminator).toString('hex'));
      const struct = types.get(ev.name)!.type.fields as { name: string; type: unknown }[];
      expect(fieldList(def.fields.slice(0, def.idlFieldCount)), `${ev.name} fields`).toEqual(idlFields(struct));
    }
  });

  it('defines the structs the IDL uses the same way (named fields, or a tuple)', () => {
    for (const [name, text] of Object.entries(table.types)) {
      const t = types.get(name);
      expect(t, name).toBeDefined();
      const fields = t!.type.fields!;
      const expected = fields.map((f) => (typeof f === 'string' ? f : `${f.name}:${idlTypeText(f.type)}`)).join(' ');
      expect(text, name).toBe(expected);
    }
  });

  it('discriminators follow Anchor\'s rule: sha256("global:<name>") / sha256("event:<Name>"), first 8 bytes', () => {
    const anchor = (ns: string, name: string) => createHash('sha256').update(`${ns}:${name}`).digest().subarray(0, 8).toString('hex');
    for (const d of table.instructions) expect(d.discriminator.toString('hex'), d.name).toBe(anchor('global', d.name));
    for (const d of table.events) expect(d.discriminator.toString('hex'), d.name).toBe(anchor('event', d.name));
  });
});
