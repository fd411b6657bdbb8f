import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  accountNames,
  decodeEvent,
  decodeEventInstruction,
  decodeInstruction,
  EVENT_IX_TAG,
  isEventInstruction,
  PUMP_PROGRAMS,
} from './decoder.js';
import { writeFields } from './borsh-writer.js';
import { LayoutError, parseFields, readFields, type Field, type FieldType, type Value } from './layout.js';
import { defineProgram, type ProgramTable } from './program-table.js';
import { PUMP_AMM } from './pump-amm-table.js';
import { PUMP } from './pump-table.js';

const u8 = (v: number) => Buffer.from([v]);
const u16 = (v: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(v);
  return b;
};
const u32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v);
  return b;
};
const u64 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return b;
};
const i64 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigInt64LE(v);
  return b;
};
const str = (s: string | Buffer) => {
  const body = typeof s === 'string' ? Buffer.from(s, 'utf8') : s;
  return Buffer.concat([u32(body.length), body]);
};
const key = (n: number) => Buffer.alloc(32, n);
const cat = (...parts: Buffer[]) => Buffer.concat(parts);
const disc = (table: ProgramTable, name: string) =>
  (table.instructions.find((d) => d.name === name) ?? table.events.find((d) => d.name === name))!.discriminator;
const MAX = 18446744073709551615n;

describe('tables', () => {
  it('pump: 56 instructions and 32 events, PumpSwap 38 and 27, Pump Fees 30 and 21 (the October 2026 IDLs), plus the retired ones', () => {
    const counts = (t: ProgramTable) => [t.instructions.filter((d) => !d.retired).length, t.events.filter((d) => !d.retired).length];
    expect(PUMP_PROGRAMS.map(counts)).toEqual([
      [56, 32],
      [38, 27],
      [30, 21],
    ]);
    const retired = (t: ProgramTable) => [...t.instructions, ...t.events].filter((d) => d.retired).map((d) => d.name);
    expect(PUMP_PROGRAMS.map(retired)).toEqual([
      ['admin_set_creator', 'AdminSetCreatorEvent'],
      ['admin_set_coin_creator', 'AdminSetCoinCreatorEvent'],
      [],
    ]);
  });

  it("every discriminator follows Anchor's rule (sha256 of global:<name> / event:<Name>, first 8 bytes)", () => {
    const anchor = (ns: string, name: string) => createHash('sha256').update(`${ns}:${name}`).digest().subarray(0, 8).toString('hex');
    for (const t of PUMP_PROGRAMS) {
      for (const d of t.instructions) expect(d.discriminator.toString('hex'), `${t.name} ${d.name}`).toBe(anchor('global', d.name));
      for (const d of t.events) expect(d.discriminator.toString('hex'), `${t.name} ${d.name}`).toBe(anchor('event', d.name));
    }
  });

  it('the October 2026 layouts: TradeEvent 35 fields, BuyEvent 40, SellEvent ends at creator_fee_unclaimed, CreateEvent at depth', () => {
    const ev = (t: ProgramTable, n: string) => t.events.find((d) => d.name === n)!.names;
    expect(ev(PUMP, 'TradeEvent')).toHaveLength(35);
    expect(ev(PUMP_AMM, 'BuyEvent')).toHaveLength(40);
    expect(ev(PUMP_AMM, 'SellEvent').slice(-6)).toEqual([
      'virtual_quote_reserves',
      'can_boost',
      'base_supply',
      'holder_rewards_bps',
      'holder_rewards',
      'creator_fee_unclaimed',
    ]);
    expect(ev(PUMP, 'CreateEvent').slice(-3)).toEqual(['creator_fee_bps', 'is_holder_reward', 'depth']);
  });

  it('a bad table fails when it is built, naming the entry', () => {
    const spec = { name: 'pump' as const, programId: PUMP.programId, eventAuthority: PUMP.eventAuthority, types: {}, events: [] };
    expect(() => defineProgram({ ...spec, instructions: [['x', '0102030405060708', 'a:u65', '']] })).toThrow(
      /pump instruction x: field a: unknown type "u65"/,
    );
    expect(() => defineProgram({ ...spec, instructions: [['x', '01020304', '', '']] })).toThrow(/not 16 hex digits/);
    expect(() =>
      defineProgram({
        ...spec,
        instructions: [
          ['x', '0102030405060708', '', ''],
          ['y', '0102030405060708', '', ''],
        ],
      }),
    ).toThrow(/y and x share discriminator/);
    expect(() => defineProgram({ ...spec, instructions: [['x', '0102030405060708', 'a:u8', '', 'a:u16']] })).toThrow(
      /field a appears twice/,
    );
    expect(() => parseFields('a:Loop', { Loop: 'next:Loop' })).toThrow(LayoutError);
  });
});

describe('reading by prefix', () => {
  const fields = parseFields('a:u8 b:u16 c:u32 d:u64 e:i64 f:u128 g:i128 h:bool k:pubkey s:string o:option<u64> v:vec<P> r:[u16;2] t:T', {
    P: 'x:u8 y:pubkey',
    T: 'bool',
  });
  const full = cat(
    u8(255),
    u16(65535),
    u32(4294967295),
    u64(MAX),
    i64(-2n),
    cat(u64(1n), u64(2n)), // 2 * 2^64 + 1
    cat(u64(MAX), u64(MAX)), // -1
    u8(1),
    key(7),
    str('ÆØ 🚀'),
    cat(u8(1), u64(42n)),
    cat(u32(2), u8(1), key(1), u8(2), key(2)),
    cat(u16(3), u16(4)),
    u8(0),
  );
  const values = {
    a: 255,
    b: 65535,
    c: 4294967295,
    d: MAX,
    e: -2n,
    f: (2n << 64n) + 1n,
    g: -1n,
    h: true,
    k: key(7),
    s: 'ÆØ 🚀',
    o: 42n,
    v: [
      { x: 1, y: key(1) },
      { x: 2, y: key(2) },
    ],
    r: [3, 4],
    t: [false],
  };

  it('reads every type the IDLs use', () => {
    expect(readFields(fields, full, 0)).toEqual({ ok: true, fields: values, present: 14, trailingBytes: 0 });
  });

  it('a missing tail is absent, not zero; data ending inside a field is truncated, naming it', () => {
    const boundaries = [0];
    for (let n = 1; n <= fields.length; n++) {
      for (let len = boundaries.at(-1)! + 1; len <= full.length; len++) {
        const r = readFields(fields, full.subarray(0, len), 0);
        if (r.ok && r.present === n) {
          boundaries.push(len);
          break;
        }
      }
    }
    expect(boundaries).toHaveLength(fields.length + 1);
    for (let len = 0; len <= full.length; len++) {
      const r = readFields(fields, full.subarray(0, len), 0);
      const n = boundaries.indexOf(len);
      if (n >= 0) {
        expect(r, `length ${len}`).toEqual({
          ok: true,
          fields: Object.fromEntries(Object.entries(values).slice(0, n)),
          present: n,
          trailingBytes: 0,
        });
        expect(Object.keys(r.fields)).toEqual(fields.slice(0, n).map((f) => f.name));
      } else {
        expect(r.ok, `length ${len}`).toBe(false);
        if (!r.ok) {
          expect(r.kind).toBe('truncated');
          expect(r.field).toBe(fields[r.present]!.name);
          expect(r.reason).toMatch(new RegExp(`^${r.field} \\(`));
        }
      }
    }
  });

  it('bytes after the last field are counted, not read', () => {
    expect(readFields(fields, cat(full, Buffer.alloc(9, 0xee)), 0)).toMatchObject({ ok: true, present: 14, trailingBytes: 9 });
  });

  it('values Borsh rejects are invalid, naming the field: bool 2, option tag 2, invalid UTF-8', () => {
    const f = parseFields('a:bool', {});
    expect(readFields(f, u8(2), 0)).toMatchObject({ ok: false, kind: 'invalid', field: 'a' });
    expect(readFields(parseFields('a:option<u8>', {}), cat(u8(2), u8(0)), 0)).toMatchObject({ ok: false, kind: 'invalid', field: 'a' });
    expect(readFields(parseFields('n:u8 a:string', {}), cat(u8(1), str(Buffer.from([0xc3, 0x28]))), 0)).toMatchObject({
      ok: false,
      kind: 'invalid',
      field: 'a',
      fields: { n: 1 },
      present: 1,
    });
  });

  it('strings: the text TextDecoder gives (fatal), or invalid, for every length and byte class, in a Buffer and a plain Uint8Array', () => {
    // The reader builds short ASCII strings itself and slices longer ASCII ones from a Buffer as latin1; only
    // the rest goes through TextDecoder. Every path must give the validating decoder's answer.
    const reference = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    const bodies: Buffer[] = [];
    for (let len = 0; len <= 40; len++) {
      bodies.push(Buffer.from('buy_exact_sol_in and then some more text'.slice(0, len), 'latin1'));
      bodies.push(Buffer.alloc(len, 0)); // NUL is ASCII
      bodies.push(Buffer.alloc(len, 0x7f));
      if (len > 0) {
        for (const at of [0, len >> 1, len - 1]) {
          for (const bad of [0x80, 0xc3, 0xff, 0xfe]) {
            const b = Buffer.alloc(len, 0x61);
            b[at] = bad;
            bodies.push(b);
          }
        }
      }
    }
    bodies.push(Buffer.from('ÆØ'), Buffer.from('🚀 moon'), Buffer.from('abcdefgh🚀'), Buffer.from('\ufeffbom'), Buffer.from([0xc3, 0x28]));
    const layout = parseFields('n:u8 s:string', {});
    for (const body of bodies) {
      const data = cat(u8(3), str(body));
      let want: string | undefined;
      try {
        want = reference.decode(body);
      } catch {
        want = undefined;
      }
      for (const input of [data, new Uint8Array(data)]) {
        const r = readFields(layout, input, 0);
        if (want === undefined) expect(r, body.toString('hex')).toMatchObject({ ok: false, kind: 'invalid', field: 's', fields: { n: 3 } });
        else expect(r, body.toString('hex')).toEqual({ ok: true, fields: { n: 3, s: want }, present: 2, trailingBytes: 0 });
      }
    }
  });

  it('64- and 128-bit integers at their extremes, at every offset of a plain Uint8Array', () => {
    const layout = parseFields('a:u64 b:i64 c:i64 d:u128 e:i128 f:i128', {});
    const body = cat(
      u64(MAX),
      i64(-(2n ** 63n)),
      i64(2n ** 63n - 1n),
      cat(u64(MAX), u64(MAX)),
      cat(u64(0n), u64(2n ** 63n)),
      cat(u64(MAX), u64(2n ** 63n - 1n)),
    );
    const want = { a: MAX, b: -(2n ** 63n), c: 2n ** 63n - 1n, d: 2n ** 128n - 1n, e: -(2n ** 127n), f: 2n ** 127n - 1n };
    for (let at = 0; at < 9; at++) {
      const backing = new Uint8Array(body.length + at);
      backing.set(body, at);
      expect(readFields(layout, backing, at)).toEqual({ ok: true, fields: want, present: 6, trailingBytes: 0 });
    }
  });

  it('a length claim beyond the data is truncated without allocating for it (string, vec)', () => {
    expect(readFields(parseFields('s:string', {}), cat(u32(0xffffffff), Buffer.alloc(10)), 0)).toMatchObject({
      ok: false,
      kind: 'truncated',
      field: 's',
    });
    expect(readFields(parseFields('v:vec<pubkey>', {}), cat(u32(0xffffffff), key(1)), 0)).toMatchObject({
      ok: false,
      kind: 'truncated',
      field: 'v',
    });
  });

  it('pubkeys are copies: the decoded value does not alias the input', () => {
    const data = cat(key(9));
    const r = readFields(parseFields('k:pubkey', {}), data, 0);
    data.fill(0);
    expect(r.ok && r.fields.k).toEqual(key(9));
  });

  it('reads a view at an odd offset of a larger buffer', () => {
    const backing = new Uint8Array(full.length + 3);
    backing.set(full, 3);
    expect(readFields(fields, backing.subarray(3), 0)).toEqual({ ok: true, fields: values, present: 14, trailingBytes: 0 });
  });
});

describe('decodeInstruction / decodeEvent', () => {
  it('pump buy in its four generations: no track_volume (absent), [false], [true], then partial_fill; and a newer tail (counted)', () => {
    const base = cat(disc(PUMP, 'buy'), u64(5n), u64(MAX));
    expect(decodeInstruction(PUMP, base)).toMatchObject({
      kind: 'decoded',
      program: 'pump',
      name: 'buy',
      fields: { amount: 5n, max_sol_cost: MAX },
      absent: ['track_volume', 'partial_fill'],
      trailingBytes: 0,
    });
    expect(decodeInstruction(PUMP, cat(base, u8(0)))).toMatchObject({
      kind: 'decoded',
      fields: { track_volume: [false] },
      absent: ['partial_fill'],
    });
    expect(decodeInstruction(PUMP, cat(base, u8(1), u8(1)))).toMatchObject({
      kind: 'decoded',
      fields: { track_volume: [true], partial_fill: [true] },
      absent: [],
      trailingBytes: 0,
    });
    expect(decodeInstruction(PUMP, cat(base, u8(1), u8(0), Buffer.alloc(3)))).toMatchObject({
      kind: 'decoded',
      fields: { track_volume: [true], partial_fill: [false] },
      trailingBytes: 3,
    });
    expect(Object.keys((decodeInstruction(PUMP, base) as { fields: object }).fields)).toEqual(['amount', 'max_sol_cost']);
  });

  it('PumpSwap and pump share discriminators (buy, sell) yet decode by their own tables', () => {
    const data = cat(disc(PUMP, 'buy'), u64(1n), u64(2n));
    expect(disc(PUMP_AMM, 'buy')).toEqual(disc(PUMP, 'buy'));
    expect(decodeInstruction(PUMP_AMM, data)).toMatchObject({
      kind: 'decoded',
      program: 'pump_amm',
      fields: { base_amount_out: 1n, max_quote_amount_in: 2n },
    });
  });

  it('unknown discriminator, data shorter than a discriminator, truncated and invalid arguments', () => {
    expect(decodeInstruction(PUMP, Buffer.alloc(8, 0xab))).toEqual({
      kind: 'unknown',
      program: 'pump',
      discriminator: 'abababababababab',
      reason: 'pump has no instruction with discriminator abababababababab',
    });
    expect(decodeInstruction(PUMP_AMM, Buffer.alloc(7))).toMatchObject({ kind: 'truncated', name: undefined, field: 'discriminator' });
    expect(decodeInstruction(PUMP, cat(disc(PUMP, 'sell'), u64(1n), Buffer.alloc(3)))).toMatchObject({
      kind: 'truncated',
      name: 'sell',
      fields: { amount: 1n },
      field: 'min_sol_output',
    });
    expect(decodeInstruction(PUMP, cat(disc(PUMP, 'toggle_create_v2'), u8(7)))).toMatchObject({
      kind: 'invalid',
      name: 'toggle_create_v2',
      field: 'enabled',
    });
    expect(decodeEvent(PUMP, disc(PUMP, 'buy'))).toMatchObject({ kind: 'unknown', reason: expect.stringMatching(/no event/) });
  });

  it('self-CPI event instructions: the tag, then the event', () => {
    const event = cat(disc(PUMP, 'CompleteEvent'), key(1), key(2), key(3), i64(-5n));
    const data = cat(EVENT_IX_TAG, event);
    expect(isEventInstruction(data)).toBe(true);
    expect(isEventInstruction(event)).toBe(false);
    expect(isEventInstruction(EVENT_IX_TAG.subarray(0, 7))).toBe(false);
    const d = decodeEventInstruction(PUMP, data);
    expect(d).toMatchObject({
      kind: 'decoded',
      name: 'CompleteEvent',
      fields: { user: key(1), mint: key(2), bonding_curve: key(3), timestamp: -5n },
      absent: ['quote_mint'],
    });
    expect(decodeEvent(PUMP, event)).toEqual(d);
    expect(decodeEventInstruction(PUMP, EVENT_IX_TAG)).toMatchObject({ kind: 'truncated', field: 'discriminator' });
  });

  it('account names only when the instruction has exactly as many accounts as the table lists', () => {
    const buy = PUMP.instructions.find((d) => d.name === 'buy')!;
    expect(accountNames(buy, 16)?.[3]).toBe('bonding_curve');
    expect(accountNames(buy, 12)).toBeUndefined();
    expect(accountNames(buy, 17)).toBeUndefined();
  });
});

describe('never throws (generated inputs)', () => {
  let seed = 0x5eed;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const randomBytes = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(rand() * 256)));
  // A plausible value for each field (the Borsh writer over a zero-ish value of each type), so that mutations reach
  // deep into real layouts.
  const plausible = (t: FieldType): Value => {
    switch (t.k) {
      case 'u8':
      case 'u16':
      case 'u32':
        return 7;
      case 'u64':
      case 'i64':
      case 'u128':
      case 'i128':
        return 9n;
      case 'bool':
        return true;
      case 'pubkey':
        return key(3);
      case 'bytes':
        return Buffer.from([1, 2]);
      case 'string':
        return 'pump';
      case 'option':
        return plausible(t.of!);
      case 'vec':
        return [plausible(t.of!)];
      case 'array':
        return Array.from({ length: t.len }, () => plausible(t.of!));
      case 'enum':
        return t.variants[t.variants.length - 1]!;
      case 'struct':
        return t.tuple ? t.fields.map((f) => plausible(f.type)) : Object.fromEntries(t.fields.map((f) => [f.name, plausible(f.type)]));
    }
  };
  const sample = (fields: readonly Field[]) => writeFields(fields, Object.fromEntries(fields.map((f) => [f.name, plausible(f.type)])));

  it('every instruction and event of the three tables, at every length, with random tails and random mutations', () => {
    const kinds = new Map<string, number>();
    const count = (k: string) => kinds.set(k, (kinds.get(k) ?? 0) + 1);
    for (const t of PUMP_PROGRAMS) {
      for (const defs of [t.instructions, t.events]) {
        for (const d of defs) {
          const full = cat(d.discriminator, sample(d.fields));
          const decodeOf = (b: Buffer) => (d.kind === 'instruction' ? decodeInstruction(t, b) : decodeEvent(t, b));
          // The sample itself decodes whole, every field present.
          expect(decodeOf(full), `${t.name} ${d.name}`).toMatchObject({ kind: 'decoded', name: d.name, absent: [], trailingBytes: 0 });
          for (let len = 0; len <= full.length + 40; len++) {
            const data = len <= full.length ? full.subarray(0, len) : cat(full, randomBytes(len - full.length));
            count(decodeOf(data).kind);
          }
          for (let i = 0; i < 40; i++) {
            const data = Buffer.from(full);
            for (let k = 0; k < 3; k++) data[8 + Math.floor(rand() * Math.max(1, data.length - 8))] = Math.floor(rand() * 256);
            count(decodeOf(data.subarray(0, Math.floor(rand() * (data.length + 1)))).kind);
          }
        }
      }
    }
    for (let i = 0; i < 5000; i++) {
      const t = PUMP_PROGRAMS[i % PUMP_PROGRAMS.length]!;
      const data = randomBytes(Math.floor(rand() * 200));
      count(decodeInstruction(t, data).kind);
      count(decodeEvent(t, data).kind);
      count(decodeEventInstruction(t, cat(EVENT_IX_TAG, data)).kind);
    }
    // Every kind of result was reached.
    expect([...kinds.keys()].sort()).toEqual(['decoded', 'invalid', 'truncated', 'unknown']);
  });
});
