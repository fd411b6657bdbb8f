// The 20 real pump.fun / PumpSwap transactions of ../shared/data/mainnet/pump through the decoders: each yields
// exactly the instructions and events of its `decoded` field (every value, u64s exact, inner ones marked, absent
// newer fields absent, undecoded trailing bytes counted) and every value its source's test asserts (`expected`).
// The records go into the event model through the rpc source's converter (ingest/sources/rpc/convert.ts), record 23 (a v1
// transaction) included.
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { pumpRecordTransaction, readPumpRecords, toRecordJson, type PumpRecord } from '../../test/support/mainnet/pump.js';
import { accountNames } from './decoder.js';
import { extractPumpTransaction, type PumpInstructionAt } from './extract.js';
import { PUMP_AMM } from './pump-amm-table.js';
import { PUMP } from './pump-table.js';

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

    it('yields exactly the instructions and events of its `decoded` field', () => {
      expect(got.instructions).toStrictEqual(r.decoded.instructions);
      expect(got.events).toStrictEqual(r.decoded.events);
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
      expect(got.p.programs).toEqual(r.programs_involved);
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
        const table = x!.program === 'pump' ? PUMP : PUMP_AMM;
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
});
