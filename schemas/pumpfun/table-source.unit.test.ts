// The loader's checks (table-source.ts, anchor-idl.ts) on small hand-made inputs: both forms load; a discriminator that
// is not sha256("global:<name>") / sha256("event:<Name>") and a type the reader does not take are refused, the error
// naming the file, the entry and the field; a newer layout must extend the older one it merges with.
import { describe, expect, it } from 'vitest';
import { specFromIdls, type AnchorIdl } from './anchor-idl.js';
import { anchorDiscriminator } from './discriminators.js';
import { decodeInstruction } from './decoder.js';
import { loadProgramTable, TABLE_FORMAT } from './table-source.js';

const disc = (ns: 'global' | 'event', name: string) => [...anchorDiscriminator(ns, name)];
const idl = (args: unknown[], more: Partial<AnchorIdl> = {}): AnchorIdl => ({
  address: '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P',
  metadata: { name: 'pump' },
  instructions: [{ name: 'buy_v9', discriminator: disc('global', 'buy_v9'), accounts: [{ name: 'user' }], args: args as never }],
  events: [{ name: 'Ev', discriminator: disc('event', 'Ev') }],
  types: [
    { name: 'Ev', type: { kind: 'struct', fields: [{ name: 'x', type: 'u64' }] } },
    { name: 'OptionBool', type: { kind: 'struct', fields: ['bool'] } },
  ],
  ...more,
});

describe('loadProgramTable', () => {
  it('loads an Anchor IDL: the instruction decodes by its layout', () => {
    const t = loadProgramTable(
      JSON.stringify(
        idl([
          { name: 'amount', type: 'u64' },
          { name: 'flag', type: { defined: { name: 'OptionBool' } } },
        ]),
      ),
      'a.json',
    );
    const data = Buffer.concat([Buffer.from(disc('global', 'buy_v9')), Buffer.alloc(8, 1), Buffer.from([1])]);
    expect(decodeInstruction(t, data)).toMatchObject({
      kind: 'decoded',
      name: 'buy_v9',
      fields: { amount: 0x0101010101010101n, flag: [true] },
    });
  });

  it('loads the compact form, and refuses one whose discriminator is not its name’s', () => {
    const table = { format: TABLE_FORMAT, sources: [], ...specFromIdls([idl([{ name: 'amount', type: 'u64' }])]) };
    expect(loadProgramTable(JSON.stringify(table), 't.json').instructions.map((d) => d.name)).toEqual(['buy_v9']);
    const bad = { ...table, instructions: [['buy_v9', '0102030405060708', 'amount:u64', 'user']] };
    expect(() => loadProgramTable(JSON.stringify(bad), 't.json')).toThrow(
      /t\.json: instruction buy_v9: discriminator 0102030405060708, sha256\("global:buy_v9"\)/,
    );
    const badType = { ...table, instructions: [['buy_v9', table.instructions[0]![1], 'amount:f32', 'user']] };
    expect(() => loadProgramTable(JSON.stringify(badType), 't.json')).toThrow(
      /t\.json: pump instruction buy_v9: field amount: unknown type "f32"/,
    );
  });

  it('refuses an IDL discriminator that is not sha256 of the name, and a type the reader does not take, naming the field', () => {
    const wrong = idl([]);
    const w = { ...wrong, instructions: [{ ...wrong.instructions[0]!, discriminator: [1, 2, 3, 4, 5, 6, 7, 8] }] };
    expect(() => loadProgramTable(JSON.stringify(w), 'w.json')).toThrow(
      /w\.json: pump instruction buy_v9: discriminator 0102030405060708 in the IDL/,
    );
    expect(() => loadProgramTable(JSON.stringify(idl([{ name: 'price', type: 'f64' }])), 'f.json')).toThrow(
      /f\.json: pump instruction buy_v9 field price: type "f64" is not one the decoder reads/,
    );
    expect(() => loadProgramTable(JSON.stringify(idl([{ name: 'q', type: { coption: 'u64' } }])), 'c.json')).toThrow(/field q: type/);
    expect(() => loadProgramTable(JSON.stringify(idl([{ name: 'm', type: { defined: { name: 'Missing' } } }])), 'm.json')).toThrow(
      /field m: type Missing is not defined in the IDL/,
    );
  });

  it('refuses what is neither form, bad JSON, and a table of another program than expected', () => {
    expect(() => loadProgramTable('{"a":1}', 'x.json')).toThrow(/x\.json: neither a compact pump table/);
    expect(() => loadProgramTable('{', 'x.json')).toThrow(/x\.json: not JSON/);
    expect(() => loadProgramTable(JSON.stringify(idl([])), 'x.json', 'pump_amm')).toThrow(/a table of pump, expected pump_amm/);
    expect(() => loadProgramTable(JSON.stringify(idl([], { metadata: { name: 'other' } })), 'x.json')).toThrow(/program "other"/);
  });

  it('merges generations only when the newer layout extends the older one; keeps what the newer dropped as retired', () => {
    const older = idl([{ name: 'amount', type: 'u64' }]);
    const newer = idl([
      { name: 'amount', type: 'u64' },
      { name: 'extra', type: 'bool' },
    ]);
    expect(specFromIdls([older, newer]).instructions[0]![2]).toBe('amount:u64 extra:bool');
    expect(() => specFromIdls([newer, idl([{ name: 'amount', type: 'u32' }])])).toThrow(/does not extend the older one/);
    const dropped = specFromIdls([older, idl([], { instructions: [] })]);
    expect(dropped.retired).toEqual({ instructions: ['buy_v9'], events: [] });
  });
});
