// Every instruction and event of the three bundled tables (pump, PumpSwap, Pump Fees: the October 2026 IDLs and the
// entries they retired) built from its own layout by the Borsh writer and decoded back: whole, at every older
// layout (each prefix of its fields: the rest absent), as instruction data, as log-line event bytes and as a
// self-CPI event instruction. Rests on: the tables (generated from the IDLs; tables.realdata.test.ts checks them
// against the files) and the sizes pump-2026-10.md states for the new entries (§1.1, §1.2, §2.1-§2.6), which were
// computed from the same IDLs by the spec's authors, not observed on chain (no real transaction of the new
// instructions exists in the data set).
import { describe, expect, it } from 'vitest';
import { BUNDLED_TABLES } from './active-tables.js';
import { encodeEvent, encodeEventInstruction, encodeInstruction, writeFields } from './borsh-writer.js';
import { decodeEvent, decodeEventInstruction, decodeInstruction } from './decoder.js';
import type { Field, FieldType, Value } from './layout.js';
import type { EventDef, InstructionDef, ProgramTable } from './program-table.js';

// A small seeded generator (mulberry32): the same values every run.
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const big = (r: () => number, bytes: number): bigint => {
  let v = 0n;
  for (let i = 0; i < bytes; i++) v = (v << 8n) | BigInt(Math.floor(r() * 256));
  return v;
};

/** A random value of type `t` (in the decoder's shapes). */
function sample(t: FieldType, r: () => number): Value {
  switch (t.k) {
    case 'u8':
      return Math.floor(r() * 256);
    case 'u16':
      return Math.floor(r() * 65536);
    case 'u32':
      return Math.floor(r() * 4294967296);
    case 'u64':
      return big(r, 8);
    case 'i64':
      return BigInt.asIntN(64, big(r, 8));
    case 'u128':
      return big(r, 16);
    case 'i128':
      return BigInt.asIntN(128, big(r, 16));
    case 'bool':
      return r() < 0.5;
    case 'pubkey':
      return Buffer.from(Array.from({ length: 32 }, () => Math.floor(r() * 256)));
    case 'bytes':
      return Buffer.from(Array.from({ length: Math.floor(r() * 5) }, () => Math.floor(r() * 256)));
    case 'string':
      return ['buy_v3', 'sell_v3', 'multi_hop_swap', 'ÆØ 🚀', '', 'a longer name than eight'][Math.floor(r() * 6)]!;
    case 'option':
      return r() < 0.3 ? null : sample(t.of!, r);
    case 'vec':
      return Array.from({ length: Math.floor(r() * 3) }, () => sample(t.of!, r));
    case 'array':
      return Array.from({ length: t.len }, () => sample(t.of!, r));
    case 'enum':
      return t.variants[Math.floor(r() * t.variants.length)]!;
    case 'struct':
      if (t.tuple) return t.fields.map((f) => sample(f.type, r));
      return Object.fromEntries(t.fields.map((f) => [f.name, sample(f.type, r)]));
  }
}

const sampleFields = (fields: readonly Field[], r: () => number): Record<string, Value> =>
  Object.fromEntries(fields.map((f) => [f.name, sample(f.type, r)]));

const prefix = (values: Record<string, Value>, fields: readonly Field[], n: number) =>
  Object.fromEntries(fields.slice(0, n).map((f) => [f.name, values[f.name]!]));

describe.each(BUNDLED_TABLES.all.map((t) => [t.name, t] as const))('%s: every entry round-trips', (_name, table: ProgramTable) => {
  it.each(table.instructions.map((d) => [d.name, d] as const))(
    'instruction %s, whole and at every older layout',
    (_n, d: InstructionDef) => {
      const r = rng(d.discriminator.readUInt32LE(0));
      for (let round = 0; round < 4; round++) {
        const values = sampleFields(d.fields, r);
        for (let n = 0; n <= d.fields.length; n++) {
          const got = decodeInstruction(table, encodeInstruction(d, prefix(values, d.fields, n)));
          expect(got, `${d.name} with ${n} args`).toStrictEqual({
            kind: 'decoded',
            program: table.name,
            name: d.name,
            def: d,
            fields: prefix(values, d.fields, n),
            absent: d.names.slice(n),
            trailingBytes: 0,
          });
        }
      }
    },
  );

  it.each(table.events.map((d) => [d.name, d] as const))('event %s, as log bytes and as a self-CPI instruction', (_n, d: EventDef) => {
    const r = rng(d.discriminator.readUInt32LE(0));
    for (let round = 0; round < 4; round++) {
      const values = sampleFields(d.fields, r);
      for (let n = 0; n <= d.fields.length; n++) {
        const want = {
          kind: 'decoded',
          program: table.name,
          name: d.name,
          def: d,
          fields: prefix(values, d.fields, n),
          absent: d.names.slice(n),
          trailingBytes: 0,
        };
        expect(decodeEvent(table, encodeEvent(d, prefix(values, d.fields, n))), `${d.name} with ${n} fields`).toStrictEqual(want);
        expect(decodeEventInstruction(table, encodeEventInstruction(d, prefix(values, d.fields, n)))).toStrictEqual(want);
      }
    }
  });
});

describe('sizes the October 2026 spec states (pump-2026-10.md)', () => {
  const { pump, pump_amm } = BUNDLED_TABLES;
  const ix = (t: ProgramTable, name: string) => t.instructions.find((d) => d.name === name)!;
  const ev = (t: ProgramTable, name: string) => t.events.find((d) => d.name === name)!;
  const zeroes = (d: InstructionDef | EventDef, over: Record<string, Value> = {}) => ({
    ...Object.fromEntries(d.fields.map((f) => [f.name, sample(f.type, () => 0)])),
    ...over,
  });

  it('§1.1: buy_v3 and buy_exact_quote_in_v3 are 24 bytes, 25 with partial_fill; sell_v3 24', () => {
    for (const name of ['buy_v3', 'buy_exact_quote_in_v3']) {
      const d = ix(pump, name);
      expect(encodeInstruction(d, zeroes(d)).length, name).toBe(25);
      expect(encodeInstruction(d, prefix(zeroes(d), d.fields, 2)).length, name).toBe(24);
    }
    expect(encodeInstruction(ix(pump, 'sell_v3'), zeroes(ix(pump, 'sell_v3'))).length).toBe(24);
  });

  it('§1.2 / §1.7: the sweeps carry only their discriminator (both programs); PumpSwap v2 trades are 24 bytes', () => {
    for (const t of [pump, pump_amm])
      for (const name of ['sweep_protocol_fee', 'sweep_creator_fee']) expect(ix(t, name).fields).toEqual([]);
    for (const name of ['buy_v2', 'sell_v2', 'buy_exact_quote_in_v2']) {
      const d = ix(pump_amm, name);
      expect(encodeInstruction(d, zeroes(d)).length, name).toBe(24);
    }
  });

  it('§2.1: TradeEvent is 379 + len(ix_name) + 34·shareholders bytes, 24 fewer before the holder-reward/unclaimed fields', () => {
    const d = ev(pump, 'TradeEvent');
    expect(encodeEvent(d, zeroes(d, { ix_name: 'buy_v3', shareholders: [] })).length).toBe(385);
    expect(encodeEvent(d, zeroes(d, { ix_name: 'buy_exact_quote_in_v3', shareholders: [] })).length).toBe(400);
    const holder = { address: Buffer.alloc(32), share_bps: 1 };
    expect(encodeEvent(d, zeroes(d, { ix_name: 'multi_hop_swap', shareholders: [holder] })).length).toBe(393 + 34);
    const before = d.names.indexOf('holder_rewards_bps');
    expect(encodeEvent(d, prefix(zeroes(d, { ix_name: 'sell_v3', shareholders: [] }), d.fields, before)).length).toBe(386 - 24);
  });

  it('§2.2-§2.6: PostCompleteBuyEvent 232, SweepBondingCurveFeeEvent 153, CompleteEvent 144, AdminCtoEvent 204 bytes', () => {
    for (const [name, size] of [
      ['PostCompleteBuyEvent', 232],
      ['SweepBondingCurveFeeEvent', 153],
      ['CompleteEvent', 144],
      ['AdminCtoEvent', 204],
    ] as const)
      expect(encodeEvent(ev(pump, name), zeroes(ev(pump, name))).length, name).toBe(size);
  });

  it('§1.4: OptionBool / OptionU64 are one byte / eight bytes with no Option tag; admin_cto takes real Options', () => {
    const d = ix(pump, 'create_v2');
    expect(d.fields.slice(-3).map((f) => f.typeText)).toEqual(['OptionBool', 'OptionU64', 'OptionBool']);
    const base = prefix(zeroes(d), d.fields, d.fields.length - 2);
    const withNew = { ...base, creator_fee_bps: [250n], is_holder_reward: [true] };
    expect(encodeInstruction(d, withNew).length - encodeInstruction(d, base).length).toBe(9);
    expect(ix(pump, 'admin_cto').fields.map((f) => f.typeText)).toEqual(['option<bool>', 'option<u64>', 'option<pubkey>']);
  });

  it('the writer refuses a wrong value, naming the field', () => {
    const d = ix(pump, 'buy_v3');
    expect(() => encodeInstruction(d, { amount: 1, max_sol_cost: 2n })).toThrow(/amount: 1 is not a u64/);
    expect(() => encodeInstruction(d, { max_sol_cost: 2n })).toThrow(/field amount missing/);
    expect(() => writeFields(d.fields, { nope: 1 })).toThrow(/no field nope/);
  });
});
