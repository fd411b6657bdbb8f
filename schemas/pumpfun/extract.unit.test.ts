import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { TransactionEvent } from '../gen/events.js';
import { EVENT_IX_TAG } from './decoder.js';
import { extractPumpTransaction } from './extract.js';
import { PUMP_AMM } from './pump-amm-table.js';
import { PUMP } from './pump-table.js';

const k = (n: number) => Buffer.alloc(32, n);
const ROUTER = k(0xee);
const u64 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return b;
};
const ixDisc = (t: typeof PUMP, name: string) => t.instructions.find((d) => d.name === name)!.discriminator;
const evDisc = (t: typeof PUMP, name: string) => t.events.find((d) => d.name === name)!.discriminator;
const sell = (amount: bigint) => Buffer.concat([ixDisc(PUMP, 'sell'), u64(amount), u64(1n)]);
const ammBuy = Buffer.concat([ixDisc(PUMP_AMM, 'buy'), u64(3n), u64(4n)]);
// CompleteEvent carries 4 fields before quote_mint: user, mint, bonding_curve, timestamp.
const completeEvent = Buffer.concat([EVENT_IX_TAG, evDisc(PUMP, 'CompleteEvent'), k(1), k(2), k(3), u64(9n)]);
const withdrawEvent = Buffer.concat([EVENT_IX_TAG, evDisc(PUMP_AMM, 'WithdrawEvent'), u64(1n)]);
const ix = (programIdIndex: number, accounts: number[], data: Buffer) => ({ programIdIndex, accounts: Buffer.from(accounts), data });
const inner = (programIdIndex: number, accounts: number[], data: Buffer, stackHeight?: number) => ({
  ...ix(programIdIndex, accounts, data),
  stackHeight,
});

// keys: 0 payer, 1 curve, 2 pump, 3 router, 4 PumpSwap, 5 pump event authority, 6 PumpSwap event authority
const keys = [
  k(1),
  k(2),
  PUMP.programIdBytes,
  ROUTER,
  PUMP_AMM.programIdBytes,
  Buffer.from(bs58.decode(PUMP.eventAuthority!)),
  Buffer.from(bs58.decode(PUMP_AMM.eventAuthority!)),
];

describe('extractPumpTransaction', () => {
  it('top-level and inner instructions in execution order, events apart, inner ones marked', () => {
    const tx = TransactionEvent.fromPartial({
      accountKeys: keys,
      instructions: [ix(2, [0, 1], sell(10n)), ix(3, [0, 1, 2, 4], Buffer.from([1, 2, 3])), ix(2, [0], sell(30n))],
      // Groups out of order in the meta: execution order follows the top-level index.
      innerInstructions: [
        {
          index: 1,
          instructions: [
            inner(2, [0, 1], sell(20n), 2),
            inner(2, [5], completeEvent, 3),
            inner(4, [0], ammBuy, 2),
            inner(4, [6], withdrawEvent, 3),
          ],
        },
        { index: 0, instructions: [inner(2, [5], completeEvent, 2)] },
      ],
    });
    const p = extractPumpTransaction(tx);
    expect(
      p.instructions.map((x) => [
        x.program,
        x.index,
        x.innerIndex,
        x.inner,
        x.stackHeight,
        x.decoded.kind === 'decoded' && x.decoded.fields,
      ]),
    ).toEqual([
      ['pump', 0, undefined, false, 1, { amount: 10n, min_sol_output: 1n }],
      ['pump', 1, 0, true, 2, { amount: 20n, min_sol_output: 1n }],
      ['pump_amm', 1, 2, true, 2, { base_amount_out: 3n, max_quote_amount_in: 4n }],
      ['pump', 2, undefined, false, 1, { amount: 30n, min_sol_output: 1n }],
    ]);
    expect(p.instructions[0]!.invokedBy).toBeUndefined();
    expect(p.instructions[1]!.invokedBy).toEqual(ROUTER);
    expect(p.instructions[2]!.invokedBy).toEqual(ROUTER);
    expect(p.instructions[1]!.accounts).toEqual([k(1), k(2)]);
    expect(
      p.events.map((e) => [
        e.program,
        e.index,
        e.innerIndex,
        e.stackHeight,
        e.decoded.kind,
        e.decoded.kind === 'decoded' && e.decoded.name,
      ]),
    ).toEqual([
      ['pump', 0, 0, 2, 'decoded', 'CompleteEvent'],
      ['pump', 1, 1, 3, 'decoded', 'CompleteEvent'],
      ['pump_amm', 1, 3, 3, 'decoded', 'WithdrawEvent'],
    ]);
    expect(p.events[2]!.decoded).toMatchObject({ fields: { timestamp: 1n }, absent: expect.arrayContaining(['lp_token_amount_in']) });
    expect(p.programs).toEqual(['pump', 'pump_amm']);
    expect(p.failed).toBe(false);
    expect(p.err).toBeUndefined();
  });

  it("an event-tagged instruction not invoked by the same program is not an event; another program's events are not ours", () => {
    const tx = TransactionEvent.fromPartial({
      accountKeys: keys,
      instructions: [ix(3, [], Buffer.alloc(0))],
      innerInstructions: [
        {
          index: 0,
          instructions: [
            // The router calls pump with event bytes (Anchor would refuse it: the event authority did not sign).
            inner(2, [5], completeEvent, 2),
            // The router's own self-CPI event, same tag: another program, left out.
            inner(3, [], completeEvent, 3),
            // PumpSwap invoked by pump emitting a pump-tagged event: the caller is pump, not PumpSwap.
            inner(2, [0], sell(1n), 2),
            inner(4, [6], withdrawEvent, 3),
          ],
        },
      ],
    });
    const p = extractPumpTransaction(tx);
    expect(p.events).toEqual([]);
    expect(p.instructions.map((x) => [x.program, x.innerIndex, x.decoded.kind])).toEqual([
      ['pump', 0, 'unknown'],
      ['pump', 2, 'decoded'],
      ['pump_amm', 3, 'unknown'],
    ]);
  });

  it('without stack heights (blocks before Solana 1.14.6) an inner event of the program counts', () => {
    const tx = TransactionEvent.fromPartial({
      accountKeys: keys,
      instructions: [ix(2, [0], sell(1n))],
      innerInstructions: [{ index: 0, instructions: [inner(2, [5], completeEvent)] }],
    });
    const p = extractPumpTransaction(tx);
    expect(p.events).toMatchObject([
      { program: 'pump', index: 0, innerIndex: 0, stackHeight: undefined, decoded: { kind: 'decoded', name: 'CompleteEvent' } },
    ]);
    // A top-level event-tagged instruction (no caller at all) is not an event.
    const top = extractPumpTransaction(TransactionEvent.fromPartial({ accountKeys: keys, instructions: [ix(2, [5], completeEvent)] }));
    expect(top.events).toEqual([]);
    expect(top.instructions.map((x) => x.decoded.kind)).toEqual(['unknown']);
  });

  it('programs and accounts from loaded addresses (v0), an index past the end names no key', () => {
    const tx = TransactionEvent.fromPartial({
      versioned: true,
      accountKeys: [k(1)],
      loadedWritable: [k(2)],
      loadedReadonly: [PUMP_AMM.programIdBytes],
      instructions: [ix(2, [0, 1, 2, 9], ammBuy)],
      err: '{"InstructionError":[0,{"Custom":6001}]}',
    });
    const p = extractPumpTransaction(tx);
    expect(p.instructions).toHaveLength(1);
    expect(p.instructions[0]!.accounts).toEqual([k(1), k(2), PUMP_AMM.programIdBytes, undefined]);
    expect(p.programs).toEqual(['pump_amm']);
    expect(p.failed).toBe(true);
    expect(p.err).toBe('{"InstructionError":[0,{"Custom":6001}]}');
  });

  it('a transaction without either program gives nothing', () => {
    const tx = TransactionEvent.fromPartial({
      accountKeys: keys,
      instructions: [ix(3, [2, 4], sell(1n)), ix(9, [], sell(1n))],
      innerInstructions: [{ index: 0, instructions: [inner(3, [], completeEvent, 2)] }],
    });
    expect(extractPumpTransaction(tx)).toEqual({ instructions: [], events: [], programs: [], failed: false, err: undefined });
  });

  it('never throws on generated transactions: indexes past the end, odd stack heights, groups of missing instructions', () => {
    let seed = 0xbeef;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return Math.floor((seed / 2 ** 32) * n);
    };
    const datas = [sell(1n), ammBuy, completeEvent, withdrawEvent, Buffer.alloc(0), Buffer.alloc(5, 1), EVENT_IX_TAG];
    const pick = () => datas[rand(datas.length)]!.subarray(0, rand(80));
    let seen = 0;
    for (let i = 0; i < 3000; i++) {
      const tx = TransactionEvent.fromPartial({
        accountKeys: keys.slice(0, rand(keys.length + 1)),
        loadedReadonly: rand(2) ? [PUMP.programIdBytes] : [],
        instructions: Array.from({ length: rand(4) }, () => ix(rand(10), [rand(12), rand(12)], pick())),
        innerInstructions: Array.from({ length: rand(3) }, () => ({
          index: rand(5),
          instructions: Array.from({ length: rand(5) }, () => inner(rand(10), [rand(12)], pick(), rand(3) ? rand(6) : undefined)),
        })),
        err: rand(2) ? '"AccountInUse"' : undefined,
      });
      const p = extractPumpTransaction(tx);
      seen += p.instructions.length + p.events.length;
    }
    expect(seen).toBeGreaterThan(100);
  });
});
