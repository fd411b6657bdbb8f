// SubscribeParsed's request filters: invalid fields name the field and entry; the matcher against a reference
// written here over hand-built scans (their facts as the ingest writes them).
import { describe, expect, it } from 'vitest';
import { ParsedInstructionLevel, SubscribeParsedRequest } from '../../proto/gen/stream.js';
import {
  compileParsedFilter,
  DEFAULT_PARSED_FILTER,
  hasParsedOptions,
  matchParsed,
  MAX_PARSED_FILTER_ENTRIES,
  readsFacts,
  type ParsedFilter,
} from './parsed-filter.js';
import { parsedFactsOf } from '../../schemas/pumpfun/parsed-facts.js';
import type { ParsedScan } from '../../schemas/pumpfun/parsed-scan.js';
import { PUMP } from '../../schemas/pumpfun/pump-table.js';
import { PUMP_AMM } from '../../schemas/pumpfun/pump-amm-table.js';
import { PUMP_FEES } from '../../schemas/pumpfun/pump-fees-table.js';
import type { TransactionEvent } from '../../schemas/gen/events.js';
import bs58 from 'bs58';

const req = (p: Partial<SubscribeParsedRequest>) => SubscribeParsedRequest.fromPartial(p);
const k = (n: number) => Buffer.alloc(32, n);

describe('compileParsedFilter: invalid fields', () => {
  it.each([
    [{ programs: ['11111111111111111111111111111111'] }, /^programs\[0\]: .* is not pump\.fun/],
    [{ instructionKinds: ['buy', 'bogus'] }, /^instruction_kinds\[1\]: "bogus" is no instruction/],
    [{ eventKinds: ['TradeEvent', 'trade'] }, /^event_kinds\[1\]: "trade" is no event/],
    [{ mints: ['not-base58!'] }, /^mints\[0\]: .* is not a base58 pubkey/],
    [{ users: [bs58.encode(Buffer.alloc(31, 1))] }, /^users\[0\]: .*decodes to 31 bytes/],
    [{ instructionLevel: 7 as ParsedInstructionLevel }, /^instruction_level: 7 is not/],
    [
      { mints: Array.from({ length: MAX_PARSED_FILTER_ENTRIES + 1 }, (_, i) => bs58.encode(k(i % 250))) },
      /^mints: 257 entries, at most 256/,
    ],
  ])('%j', (fields, error) => {
    const r = compileParsedFilter(req(fields));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(error);
  });

  it('no field set: the default (both programs, successful, every kind); a ping alone sets none', () => {
    expect(hasParsedOptions(req({ ping: { id: 1 } }))).toBe(false);
    expect(hasParsedOptions(req({ includeFailed: false }))).toBe(true);
    const r = compileParsedFilter(req({}));
    expect(r.ok && r.filter).toEqual(DEFAULT_PARSED_FILTER);
  });
});

// A scan with instructions (program, name, inner, index, accounts) and events (program, name, index, keys).
function scan(ixs: [string, string, boolean, number, Buffer[]][], evs: [string, string, number, Buffer[]][], failed = false): ParsedScan {
  return {
    instructions: ixs.map(([program, , inner, index, accounts]) => ({ program, index, inner, accounts }) as never),
    instructionNames: ixs.map((x) => x[1]),
    events: evs.map(([program, , index]) => ({ program, index, innerIndex: 0 }) as never),
    eventNames: evs.map((e) => e[1]),
    eventKeys: evs.map((e) => e[3]),
    programs: [],
    failed,
    err: failed ? '{}' : undefined,
    undecoded: [],
    curve: undefined,
    pool: undefined,
    trades: [],
  };
}
const tx = (signer: Buffer) => ({ numRequiredSignatures: 1, accountKeys: [signer, k(200)] }) as unknown as TransactionEvent;

/** matchParsed on a scan as the api sees it: the record's summary, the facts built from the scan. */
function match(f: ParsedFilter, s: ParsedScan, t: TransactionEvent): boolean {
  return matchParsed(f, { failed: s.failed, hasInstruction: s.instructions.length > 0 }, () => parsedFactsOf(t, s));
}

describe('matchParsed', () => {
  const mint = k(7);
  const router = scan([['pump', 'buy_v2', true, 0, [k(1), mint]]], [['pump', 'TradeEvent', 0, [mint]]]);
  const amm = scan([['pump_amm', 'buy', false, 0, [k(2)]]], [['pump_amm', 'BuyEvent', 0, [k(2)]]]);
  const failed = scan([['pump', 'sell', false, 0, [mint]]], [], true);
  const f = (p: Partial<SubscribeParsedRequest>) => {
    const r = compileParsedFilter(req(p));
    if (!r.ok) throw new Error(r.error);
    return r.filter;
  };
  it('default: inner and top-level of both programs, failed left out', () => {
    expect([router, amm, failed].map((s) => match(DEFAULT_PARSED_FILTER, s, tx(k(9))))).toEqual([true, true, false]);
    expect(match(f({ includeFailed: true }), failed, tx(k(9)))).toBe(true);
    // Events alone (no instruction of the programs at all) are not enough without event_kinds. (An instruction no
    // table decodes is still an instruction since issue 34: `unknown`.)
    const eventsOnly = scan([], [['pump', 'TradeEvent', 0, [mint]]]);
    expect(match(DEFAULT_PARSED_FILTER, eventsOnly, tx(k(9)))).toBe(false);
    expect(match(f({ eventKinds: ['TradeEvent'] }), eventsOnly, tx(k(9)))).toBe(true);
  });
  it('the default and include_failed read no facts; every other field does', () => {
    const never = (): never => {
      throw new Error('facts read');
    };
    expect(matchParsed(DEFAULT_PARSED_FILTER, { failed: false, hasInstruction: true }, never)).toBe(true);
    expect(matchParsed(f({ includeFailed: true }), { failed: true, hasInstruction: true }, never)).toBe(true);
    expect(readsFacts(f({ programs: [PUMP.programId, PUMP_AMM.programId, PUMP_FEES.programId] }))).toBe(false);
    expect(readsFacts(f({ programs: [PUMP.programId, PUMP_AMM.programId] }))).toBe(true);
    for (const p of [
      { programs: [PUMP.programId] },
      { instructionKinds: ['buy'] },
      { eventKinds: ['TradeEvent'] },
      { mints: [bs58.encode(mint)] },
      { users: [bs58.encode(k(9))] },
      { instructionLevel: ParsedInstructionLevel.INNER_ONLY },
    ])
      expect(readsFacts(f(p))).toBe(true);
  });
  it('programs, levels, kinds, mints, users', () => {
    expect(match(f({ programs: [PUMP_AMM.programId] }), router, tx(k(9)))).toBe(false);
    expect(match(f({ programs: [PUMP.programId] }), router, tx(k(9)))).toBe(true);
    expect(match(f({ instructionLevel: ParsedInstructionLevel.TOP_LEVEL_ONLY }), router, tx(k(9)))).toBe(false);
    expect(match(f({ instructionLevel: ParsedInstructionLevel.INNER_ONLY }), router, tx(k(9)))).toBe(true);
    expect(match(f({ instructionKinds: ['buy'] }), router, tx(k(9)))).toBe(false);
    expect(match(f({ instructionKinds: ['buy'] }), amm, tx(k(9)))).toBe(true);
    // Only event kinds: only events count; under a level, only events of a passing instruction's call.
    expect(match(f({ eventKinds: ['TradeEvent'] }), router, tx(k(9)))).toBe(true);
    expect(match(f({ eventKinds: ['TradeEvent'], instructionLevel: ParsedInstructionLevel.TOP_LEVEL_ONLY }), router, tx(k(9)))).toBe(false);
    expect(match(f({ mints: [bs58.encode(mint)] }), router, tx(k(9)))).toBe(true);
    expect(match(f({ mints: [bs58.encode(mint)] }), amm, tx(k(9)))).toBe(false);
    expect(match(f({ users: [bs58.encode(k(9))] }), amm, tx(k(9)))).toBe(true);
    expect(match(f({ users: [bs58.encode(k(200))] }), amm, tx(k(9)))).toBe(false); // a key no entry names, not a signer
  });

  // Issue 34: the keys of every instruction and event that counts, for mints and users, with or without event_kinds.
  it('mints match any decoded account or event pubkey field, the kind and the key on different entries; users stay signers', () => {
    const coin = k(50);
    // A PumpSwap creator-fee sweep: the coin appears only in SweepPoolFeeEvent.base_mint (pump-2026-10.md §1.7).
    const sweep = scan(
      [['pump_amm', 'sweep_creator_fee', false, 0, [k(51), k(52)]]],
      [['pump_amm', 'SweepPoolFeeEvent', 0, [coin, k(53)]]],
    );
    expect(match(f({ mints: [bs58.encode(coin)] }), sweep, tx(k(9)))).toBe(true);
    expect(match(f({ mints: [bs58.encode(coin)], instructionKinds: ['sweep_creator_fee'] }), sweep, tx(k(9)))).toBe(true);
    expect(match(f({ mints: [bs58.encode(coin)], eventKinds: ['SweepPoolFeeEvent'] }), sweep, tx(k(9)))).toBe(true);
    expect(match(f({ mints: [bs58.encode(coin)], instructionKinds: ['buy_v2'] }), sweep, tx(k(9)))).toBe(false);
    expect(match(f({ mints: [bs58.encode(k(54))] }), sweep, tx(k(9)))).toBe(false);
    // users stay signers (stream.proto): an account or event key is not enough.
    expect(match(f({ users: [bs58.encode(k(52))] }), sweep, tx(k(9)))).toBe(false);
    expect(match(f({ users: [bs58.encode(k(9))], mints: [bs58.encode(coin)] }), sweep, tx(k(9)))).toBe(true);
    // An event outside the level's calls lends no key.
    expect(match(f({ mints: [bs58.encode(coin)], instructionLevel: ParsedInstructionLevel.INNER_ONLY }), sweep, tx(k(9)))).toBe(false);
  });

  it('unknown instructions and events (no loaded table decodes them) count and can be asked for by kind', () => {
    const upgrade = scan([['pump', 'unknown', false, 0, [k(60)]]], [['pump', 'TradeEvent', 0, [k(61)]]]);
    expect(match(DEFAULT_PARSED_FILTER, upgrade, tx(k(9)))).toBe(true);
    expect(match(f({ instructionKinds: ['unknown'] }), upgrade, tx(k(9)))).toBe(true);
    expect(match(f({ eventKinds: ['TradeEvent'] }), upgrade, tx(k(9)))).toBe(true);
    expect(match(f({ mints: [bs58.encode(k(61))] }), upgrade, tx(k(9)))).toBe(true);
  });
});
