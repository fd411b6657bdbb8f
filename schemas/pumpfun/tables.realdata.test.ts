// Completeness: the bundled tables (tables/*.json) against the official IDLs (../shared/data/mainnet/pump, read at
// test time). Rests on: the data README's dating of the files (idl-pump.json / idl-pump-amm.json are the May 2026
// programs, the *-2026-10.json ones October 2026; only October's Pump Fees IDL is there) and Anchor's discriminator
// rule. Fails when an instruction or event of any IDL has no decoder, a different discriminator, or a field list
// (names and types, in order) the table's does not extend, when the newest IDL's accounts differ, when a table has
// an entry no IDL has, or when the committed tables are not what scripts/gen-pump-tables.ts makes from the IDLs.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateTable, tableText } from '../../scripts/gen-pump-tables.js';
import { idlTypeText, PUMP_IDL_FILES, pumpDataDir, readPumpIdlFile, type Idl } from '../../test/support/mainnet/pump.js';
import { bundledTablePath } from './bundled-tables.js';
import { PUMP_AMM } from './pump-amm-table.js';
import { PUMP_FEES } from './pump-fees-table.js';
import { PUMP } from './pump-table.js';
import type { ProgramTable } from './program-table.js';

const fieldList = (fields: readonly { name: string; typeText: string }[]) => fields.map((f) => `${f.name}:${f.typeText}`);
const idlFields = (args: readonly { name: string; type: unknown }[]) => args.map((a) => `${a.name}:${idlTypeText(a.type)}`);

describe.each([
  ['pump', PUMP],
  ['pump_amm', PUMP_AMM],
  ['pump_fees', PUMP_FEES],
] as const)('%s table against its IDLs', (program, table: ProgramTable) => {
  const files = PUMP_IDL_FILES[program];
  const idls: Idl[] = files.map(readPumpIdlFile);
  const newest = idls[idls.length - 1]!;

  it('is what scripts/gen-pump-tables.ts makes from the IDLs (the committed file is up to date)', () => {
    expect(readFileSync(bundledTablePath(program), 'utf8')).toBe(tableText(generateTable(pumpDataDir(), program)));
  });

  it('names the same program', () => {
    for (const idl of idls) {
      expect(idl.metadata.name).toBe(program);
      expect(idl.address).toBe(table.programId);
    }
  });

  it.each(files.map((f, i) => [f, i] as const))('has every instruction of %s, its args a prefix of the table’s', (_f, i) => {
    for (const ix of idls[i]!.instructions) {
      const def = table.instructions.find((d) => d.name === ix.name);
      expect(def, ix.name).toBeDefined();
      expect(def!.discriminator.toString('hex'), ix.name).toBe(Buffer.from(ix.discriminator).toString('hex'));
      const want = idlFields(ix.args);
      expect(fieldList(def!.fields).slice(0, want.length), `${ix.name} args`).toEqual(want);
    }
  });

  it.each(files.map((f, i) => [f, i] as const))('has every event of %s, its fields a prefix of the table’s', (_f, i) => {
    const types = new Map(idls[i]!.types.map((t) => [t.name, t]));
    for (const ev of idls[i]!.events) {
      const def = table.events.find((d) => d.name === ev.name);
      expect(def, ev.name).toBeDefined();
      expect(def!.discriminator.toString('hex'), ev.name).toBe(Buffer.from(ev.discriminator).toString('hex'));
      const want = idlFields(types.get(ev.name)!.type.fields as { name: string; type: unknown }[]);
      expect(fieldList(def!.fields).slice(0, want.length), `${ev.name} fields`).toEqual(want);
    }
  });

  it('takes the newest IDL’s layouts and accounts whole; keeps what it dropped as retired, and nothing else', () => {
    const types = new Map(newest.types.map((t) => [t.name, t]));
    for (const ix of newest.instructions) {
      const def = table.instructions.find((d) => d.name === ix.name)!;
      expect(fieldList(def.fields), ix.name).toEqual(idlFields(ix.args));
      expect(def.accounts, `${ix.name} accounts`).toEqual(ix.accounts.map((a) => a.name));
      expect(def.retired).toBe(false);
    }
    for (const ev of newest.events) {
      const def = table.events.find((d) => d.name === ev.name)!;
      expect(fieldList(def.fields), ev.name).toEqual(idlFields(types.get(ev.name)!.type.fields as { name: string; type: unknown }[]));
      expect(def.retired).toBe(false);
    }
    const inSome = (kind: 'instructions' | 'events', name: string) => idls.some((idl) => idl[kind].some((x) => x.name === name));
    const inNewest = (kind: 'instructions' | 'events', name: string) => newest[kind].some((x) => x.name === name);
    for (const d of table.instructions) {
      expect(inSome('instructions', d.name), d.name).toBe(true);
      expect(d.retired, d.name).toBe(!inNewest('instructions', d.name));
    }
    for (const d of table.events) {
      expect(inSome('events', d.name), d.name).toBe(true);
      expect(d.retired, d.name).toBe(!inNewest('events', d.name));
    }
  });

  it('defines the structs and enums the newest IDL uses the same way', () => {
    const types = new Map(newest.types.map((t) => [t.name, t]));
    for (const [name, text] of Object.entries(table.types)) {
      const t = types.get(name) as unknown as {
        type: { kind: string; fields?: (unknown | { name: string; type: unknown })[]; variants?: { name: string }[] };
      };
      expect(t, name).toBeDefined();
      if (t.type.kind === 'enum') {
        expect(text, name).toBe(['enum', ...t.type.variants!.map((v) => v.name)].join(' '));
        continue;
      }
      const fieldText = (f: unknown): string => {
        const named = f as { name?: string; type?: unknown };
        return f !== null && typeof f === 'object' && named.name !== undefined
          ? `${named.name}:${idlTypeText(named.type)}`
          : idlTypeText(f);
      };
      const expected = t.type.fields!.map(fieldText).join(' ');
      expect(text, name).toBe(expected);
    }
  });

  it('discriminators follow Anchor\'s rule: sha256("global:<name>") / sha256("event:<Name>"), first 8 bytes', () => {
    const anchor = (ns: string, name: string) => createHash('sha256').update(`${ns}:${name}`).digest().subarray(0, 8).toString('hex');
    for (const d of table.instructions) expect(d.discriminator.toString('hex'), d.name).toBe(anchor('global', d.name));
    for (const d of table.events) expect(d.discriminator.toString('hex'), d.name).toBe(anchor('event', d.name));
  });
});

describe('the October 2026 programs (spec pump-2026-10.md §0.1: 56 / 38 / 30 instructions)', () => {
  it('every instruction and event of the three October IDLs has a definition', () => {
    expect(PUMP.instructions.filter((d) => !d.retired)).toHaveLength(56);
    expect(PUMP_AMM.instructions.filter((d) => !d.retired)).toHaveLength(38);
    expect(PUMP_FEES.instructions).toHaveLength(30);
    expect(PUMP.events.filter((d) => !d.retired)).toHaveLength(readPumpIdlFile('idl-pump-2026-10.json').events.length);
    expect(PUMP_AMM.events.filter((d) => !d.retired)).toHaveLength(readPumpIdlFile('idl-pump-amm-2026-10.json').events.length);
    expect(PUMP_FEES.events).toHaveLength(readPumpIdlFile('idl-pump-fees-2026-10.json').events.length);
  });
});
