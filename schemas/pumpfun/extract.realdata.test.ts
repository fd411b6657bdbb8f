// The 20 real pump.fun / PumpSwap transactions of ../shared/data/mainnet/pump through the decoders: each yields
// exactly the instructions and events of its `decoded` field (every value, u64s exact, inner ones marked, absent
// newer fields absent, undecoded trailing bytes counted) and every value its source's test asserts (`expected`).
// The records go into the event model through the rpc source's converter (ingest/sources/rpc/convert.ts), record 23 (a v1
// transaction) included.
// The records' `decoded` was made with the May 2026 IDLs plus the event tails the data README lists; the tables now
// come from the October 2026 IDLs (pump-public-docs 2293f9a / 8cda1fa), which append fields to some of those layouts
// (CreateEvent +creator_fee_bps, is_holder_reward, depth; PumpSwap SellEvent +6; create_v2, the buys +partial_fill, …)
// and add Pump Fees, which both programs call. So "exactly today's output" is checked as: every value the record
// decodes is decoded the same, field by field, in the same order; the fields the newer layout appends are absent
// where the data ends (the record's absent list, extended by them) or, where the record counted undecoded trailing
// bytes, are now decoded from exactly those bytes; the Pump Fees instructions (inner get_fees CPIs) come on top,
// each decoded, and nothing else.
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { pumpRecordTransaction, readPumpRecords, toRecordJson, type PumpRecord } from '../../test/support/mainnet/pump.js';
import { accountNames } from './decoder.js';
import { extractPumpTransaction, type PumpInstructionAt } from './extract.js';
import { PUMP_AMM } from './pump-amm-table.js';
import { PUMP } from './pump-table.js';
import type { PumpRecordEvent, PumpRecordInstruction } from '../../test/support/mainnet/pump.js';

type Item = PumpRecordInstruction | PumpRecordEvent;

/**
 * `ours` (decoded with the October 2026 tables) against `rec` (the record's, made with the May 2026 ones): the
 * same item with the same values for every field the record has; the newer layout's appended fields are either
 * absent (listed after the record's absent ones) or decoded from the bytes the record left undecoded (exactly
 * those bytes: no trailing bytes left).
 */
function expectSameAsRecord(ours: Item, rec: Item, what: string): void {
  const [valuesKey, absentKey] = 'args' in rec ? (['args', 'absent_newer_args'] as const) : (['fields', 'absent_newer_fields'] as const);
  const o = ours as unknown as Record<string, unknown>;
  const r = rec as unknown as Record<string, unknown>;
  const oValues = o[valuesKey] as Record<string, unknown>;
  const rValues = r[valuesKey] as Record<string, unknown>;
  // Every other key as the record has it.
  const rest = (x: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(x).filter(([k]) => ![valuesKey, absentKey, 'undecoded_trailing_bytes'].includes(k)));
  expect(rest(o), what).toStrictEqual(rest(r));
  // The record's values, in its order, are the first ones of ours.
  const recordKeys = Object.keys(rValues);
  expect(Object.keys(oValues).slice(0, recordKeys.length), what).toEqual(recordKeys);
  for (const k of recordKeys) expect(oValues[k], `${what} ${k}`).toStrictEqual(rValues[k]);
  const newlyDecoded = Object.keys(oValues).slice(recordKeys.length);
  const rAbsent = (r[absentKey] as string[] | undefined) ?? [];
  const oAbsent = (o[absentKey] as string[] | undefined) ?? [];
  const rTrailing = (r.undecoded_trailing_bytes as number | undefined) ?? 0;
  if (rTrailing === 0) {
    // Nothing new in the data: the record's absent fields stay absent, then the newly appended ones.
    expect(newlyDecoded, what).toEqual([]);
    expect(oAbsent.slice(0, rAbsent.length), what).toEqual(rAbsent);
  } else {
    // The bytes the record left are now fields (the newer layout's), wholly read.
    expect(rAbsent, what).toEqual([]);
    expect(newlyDecoded.length, what).toBeGreaterThan(0);
  }
  expect(o.undecoded_trailing_bytes, what).toBeUndefined();
}

const records = readPumpRecords();
const converted = records;
const V1_RECORD = 23;

/** An extracted instruction in the shape of the record's `decoded.instructions[]`. */
function instructionAsRecord(x: PumpInstructionAt) {
  const d = x.decoded;
  if (d.kind !== 'decoded') throw new Error(`instruction ${x.index}/${x.innerIndex} not decoded: ${d.reason}`);
  const names = accountNames(d.def, x.accounts.length);
  return {
    index: x.index,
    inner: x.inner,
    ...(x.inner ? { inner_index: x.innerIndex } : {}),
    program: x.program,
    name: d.name,
    args: toRecordJson(d.fields),
    ...(d.absent.length > 0 ? { absent_newer_args: d.absent } : {}),
    ...(d.trailingBytes > 0 ? { undecoded_trailing_bytes: d.trailingBytes } : {}),
    accounts: x.accounts.map((k) => (k === undefined ? '(none)' : bs58.encode(k))),
    ...(names !== undefined ? { account_names_current_idl: names } : {}),
  };
}

function extractAsRecord(r: PumpRecord) {
  const p = extractPumpTransaction(pumpRecordTransaction(r));
  return {
    p,
    instructions: p.instructions.map(instructionAsRecord),
    events: p.events.map((e) => {
      const d = e.decoded;
      if (d.kind !== 'decoded') throw new Error(`event ${e.index}/${e.innerIndex} not decoded: ${d.reason}`);
      return {
        index: e.index,
        inner_index: e.innerIndex,
        program: e.program,
        name: d.name,
        fields: toRecordJson(d.fields),
        ...(d.absent.length > 0 ? { absent_newer_fields: d.absent } : {}),
        ...(d.trailingBytes > 0 ? { undecoded_trailing_bytes: d.trailingBytes } : {}),
      };
    }),
  };
}

describe('pump.fun / PumpSwap mainnet transactions', () => {
  it('the data set holds the 20 records its README lists, one of them v1', () => {
    expect(records.map((r) => r.id)).toEqual([0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 18, 20, 21, 23]);
    expect(records.find((r) => r.id === V1_RECORD)!.version).toBe(1);
  });

  describe.each(converted.map((r) => [r.id, r] as const))('record %i', (_id, r) => {
    const got = extractAsRecord(r);

    it('yields exactly the instructions and events of its `decoded` field (plus what the October 2026 layouts add)', () => {
      const ours = got.instructions.filter((x) => x.program !== 'pump_fees');
      expect(ours.map((x) => [x.index, x.inner_index, x.name])).toEqual(
        r.decoded.instructions.map((x) => [x.index, x.inner_index, x.name]),
      );
      ours.forEach((x, i) =>
        expectSameAsRecord(x as Item, r.decoded.instructions[i]!, `instruction ${x.name} ${x.index}/${x.inner_index}`),
      );
      expect(got.events.map((e) => [e.index, e.inner_index, e.name])).toEqual(
        r.decoded.events.map((e) => [e.index, e.inner_index, e.name]),
      );
      got.events.forEach((e, i) => expectSameAsRecord(e as Item, r.decoded.events[i]!, `event ${e.name} ${e.index}/${e.inner_index}`));
      // Pump Fees: only inner CPIs from pump / PumpSwap (their fee quotes), every one decoded (instructionAsRecord throws otherwise).
      for (const x of got.instructions.filter((i) => i.program === 'pump_fees')) expect(x.inner).toBe(true);
    });

    it('marks stack heights and the invoking top-level program, and the programs involved', () => {
      const tx = pumpRecordTransaction(r);
      for (const x of got.p.instructions) {
        if (!x.inner) {
          expect(x.stackHeight).toBe(1);
          expect(x.invokedBy).toBeUndefined();
          continue;
        }
        const meta = r.meta.innerInstructions.find((g) => g.index === x.index)!.instructions[x.innerIndex!]!;
        expect(x.stackHeight).toBe(meta.stackHeight ?? undefined);
        expect(x.stackHeight).toBeGreaterThanOrEqual(2);
        expect(x.invokedBy).toEqual(tx.accountKeys[tx.instructions[x.index]!.programIdIndex]);
      }
      expect(got.p.programs.filter((p) => p !== 'pump_fees')).toEqual(r.programs_involved);
      expect(got.p.programs.includes('pump_fees')).toBe(got.p.instructions.some((x) => x.program === 'pump_fees'));
      expect(got.p.failed).toBe(r.meta.err !== null);
    });

    it("agrees with every value its source's test asserts (`expected`)", () => {
      for (const want of r.expected.instructions) {
        const x = got.instructions.find(
          (i) => i.index === want.index && i.inner === want.inner && (i as { inner_index?: number }).inner_index === want.inner_index,
        );
        expect(x, `${want.name} at ${want.index}/${want.inner_index}`).toBeDefined();
        expect(x!.name).toBe(want.name);
        expect(x!.args).toMatchObject(want.args ?? {});
        const table = x!.program === 'pump' ? PUMP : PUMP_AMM; // the sources assert only these two
        const names = table.instructions.find((d) => d.name === want.name)!.accounts;
        // The source names accounts by today's position; older instructions pass fewer, so compare by position.
        for (const [name, key] of Object.entries(want.accounts ?? {})) expect(x!.accounts[names.indexOf(name)], name).toBe(key);
      }
      for (const want of r.expected.events) {
        const e = got.events.find((v) => v.index === want.index && v.inner_index === want.inner_index);
        expect(e, `${want.name} at ${want.index}/${want.inner_index}`).toBeDefined();
        expect(e!.name).toBe(want.name);
        expect(e!.fields).toMatchObject(want.fields);
      }
    });
  });

  // What the October 2026 tables decode beyond the records' `decoded` (the values are the records' own bytes; the
  // field names and types are IDL-2293's buy_exact_quote_in_v2 and FEES-IDL-8cda's get_fees / get_fees_with_quote_mint).
  it('record 23: the 1 byte the record left after buy_exact_quote_in_v2 is partial_fill ([true]); its fee quote is get_fees_with_quote_mint', () => {
    const got = extractAsRecord(records.find((x) => x.id === 23)!);
    const buy = got.instructions.find((x) => x.name === 'buy_exact_quote_in_v2')!;
    expect(buy.args).toStrictEqual({ spendable_quote_in: '99000000', min_tokens_out: '1', partial_fill: [true] });
    expect(buy).not.toHaveProperty('undecoded_trailing_bytes');
    const fees = got.instructions.filter((x) => x.program === 'pump_fees');
    expect(fees.map((x) => [x.name, x.args])).toStrictEqual([
      [
        'get_fees_with_quote_mint',
        { is_pump_pool: true, market_cap_lamports: '146619209517', quote_mint: '11111111111111111111111111111111' },
      ],
    ]);
  });

  it('record 21: its fee quote is an inner get_fees of the older layout (is_new_quote_mint absent)', () => {
    const got = extractAsRecord(records.find((x) => x.id === 21)!);
    const fees = got.instructions.filter((x) => x.program === 'pump_fees');
    expect(fees.map((x) => [x.name, x.args, x.absent_newer_args])).toStrictEqual([
      ['get_fees', { is_pump_pool: true, market_cap_lamports: '27958993476', trade_size_lamports: '3000000000' }, ['is_new_quote_mint']],
    ]);
  });
});
