// The decode budget's fast paths (issue 20), pinned against the plain paths over the 20 real mainnet pump/PumpSwap
// transactions and a batch of the simulator's current-layout traffic:
// - layout.ts's generated reader (one object literal per layout) gives what the field-by-field reader gives:
//   same fields, same values, same key order, same `present` and trailing bytes, and the same result where the
//   data ends early (every prefix of every real instruction and event) or is mutated;
// - to-proto.ts's typed messages of complete layouts (one generated literal per definition) give what the
//   field-by-field conversion gives, and parsed-scan.ts's event pubkeys (from the definition's key fields) what
//   walking every value gives, same order.
import { describe, expect, it } from 'vitest';
import { TransactionEvent } from '../gen/events.js';
import { pumpRecordTransaction, readPumpRecords } from '../../test/support/mainnet/pump.js';
import { collect } from '../../test/support/sim/checks.js';
import { EVENT_IX_TAG, PUMP_PROGRAMS } from './decoder.js';
import { extractPumpTransaction } from './extract.js';
import { readFields, readFieldsByPrefix } from './layout.js';
import { lookupDiscriminator, type ProgramTable } from './program-table.js';
import { eventKeysByWalk, eventKeysOf } from './parsed-scan.js';
import { typedMessageByField, typedOf } from './to-proto.js';

/** Every instruction data of either program in the transactions (top level and inner), with its table. */
function pumpData(txs: readonly TransactionEvent[]): [ProgramTable, Uint8Array][] {
  const out: [ProgramTable, Uint8Array][] = [];
  for (const tx of txs) {
    const p = extractPumpTransaction(tx);
    const dataOf = (index: number, inner: number | undefined): Uint8Array =>
      inner === undefined ? tx.instructions[index]!.data : tx.innerInstructions.find((g) => g.index === index)!.instructions[inner]!.data;
    for (const x of p.instructions) out.push([PUMP_PROGRAMS.find((t) => t.name === x.program)!, dataOf(x.index, x.innerIndex)]);
    for (const e of p.events) out.push([PUMP_PROGRAMS.find((t) => t.name === e.program)!, dataOf(e.index, e.innerIndex)]);
  }
  return out;
}

/** Both readers over `data` from the fields' start: identical results, key order included. */
function expectSameRead(table: ProgramTable, data: Uint8Array): void {
  const event = data.length >= 16 && Buffer.from(data.subarray(0, 8)).equals(EVENT_IX_TAG);
  const at = event ? 8 : 0;
  if (data.length - at < 8) return;
  const def = event ? lookupDiscriminator(table.eventIndex, data, at) : lookupDiscriminator(table.instructionIndex, data, at);
  if (def === undefined) return;
  const fast = readFields(def.fields, data, at + 8);
  const plain = readFieldsByPrefix(def.fields, data, at + 8);
  expect(fast).toEqual(plain);
  expect(Object.keys(fast.fields)).toEqual(Object.keys(plain.fields));
}

const realTxs = (): TransactionEvent[] => readPumpRecords().map(pumpRecordTransaction);
let simCache: TransactionEvent[] | undefined;
async function simTxs(): Promise<TransactionEvent[]> {
  if (simCache) return simCache;
  const batches = await collect({ seed: 11, maxSlots: 6, fast: true, tps: 1000 });
  simCache = batches.flatMap((b) => b.events.flatMap((e) => (e.kind === 'transactions' ? [e.event] : [])));
  return simCache;
}

describe('the generated layout reader against the field-by-field reader', () => {
  it('real records: every instruction and event, at every length, and with mutated bytes', () => {
    const all = pumpData(realTxs());
    expect(all.length).toBeGreaterThan(40);
    for (const [table, data] of all) {
      for (let n = 0; n <= data.length; n++) expectSameRead(table, data.subarray(0, n));
      const mutated = Buffer.from(data);
      for (let i = 16; i < mutated.length; i += 7) mutated[i] = 0xff - mutated[i]!;
      expectSameRead(table, mutated);
      expectSameRead(table, Buffer.concat([data, Buffer.from([1, 2, 3])]));
    }
  });

  it("a simulated batch (today's layouts, routed trades, migrations, pools)", async () => {
    const all = pumpData(await simTxs());
    expect(all.length).toBeGreaterThan(500);
    for (const [table, data] of all) expectSameRead(table, data);
  });
});

describe("SubscribeParsed's messages: generated against field by field", () => {
  const same = (txs: readonly TransactionEvent[]): number => {
    let checked = 0;
    for (const tx of txs) {
      const p = extractPumpTransaction(tx);
      for (const x of [...p.instructions, ...p.events]) {
        const d = x.decoded;
        if (d.kind !== 'decoded') continue;
        const fast = typedOf(d.def, d.fields, d.absent);
        const plain = typedMessageByField(d.def.fields, d.fields);
        expect(fast).toStrictEqual(plain);
        expect(Object.keys(fast)).toEqual(Object.keys(plain));
        checked++;
      }
      for (const e of p.events) expect(eventKeysOf(e)).toStrictEqual(eventKeysByWalk(e));
    }
    return checked;
  };

  it('real records', () => {
    expect(same(realTxs())).toBeGreaterThan(40);
  });

  it('a simulated batch', async () => {
    expect(same(await simTxs())).toBeGreaterThan(500);
  });
});
