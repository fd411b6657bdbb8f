// Issue 34 items 1 and 3 through SubscribeParsed's whole build path (scan → encoded update → decoded by the
// generated client code): the October 2026 trades, sweeps and synthetic migration, built from the tables' layouts
// (test/support/pump/october-trades.ts states the facts they rest on), come out with their typed members and their
// trades as a trader counts them; the request's trade filters act on those trades.
/* eslint-disable @typescript-eslint/no-explicit-any -- the seed's proto read by protobufjs is untyped */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import bs58 from 'bs58';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { SubscribeParsedRequest, SubscribeUpdateParsedTransaction } from '../../proto/gen/stream.js';
import { TransactionEvent } from '../gen/events.js';
import { compileParsedFilter, matchParsed } from '../../api/pumpfun/parsed-filter.js';
import { encodeParsed } from './encode-parsed.js';
import { parsedFactsOf } from './parsed-facts.js';
import { scanParsedTransaction } from './parsed-scan.js';
import {
  ammV2Buy,
  curveSweep,
  market,
  multiHop,
  poolSweep,
  pumpTx,
  syntheticMigration,
  USDC,
  v3Buy,
  v3Sell,
  WSOL,
} from '../../test/support/pump/october-trades.js';

const user = randomBytes(32);
const txOf = (calls: Parameters<typeof pumpTx>[1]) =>
  TransactionEvent.fromPartial({ slot: 9n, signatures: [randomBytes(64)], numRequiredSignatures: 1, ...pumpTx(user, calls) });

function parsed(tx: TransactionEvent) {
  const scan = scanParsedTransaction(tx);
  expect(scan.undecoded).toEqual([]);
  return { scan, update: SubscribeUpdateParsedTransaction.decode(encodeParsed(tx, scan, undefined, undefined)) };
}
const cases = (u: SubscribeUpdateParsedTransaction) => ({
  instructions: u.instructions.map((x) => `${x.program}/${x.instructionOneof?.$case}`),
  events: u.events.map((e) => `${e.program}/${e.eventOneof?.$case}`),
});
const b = (k: Buffer) => bs58.encode(k);
const passes = (tx: TransactionEvent, request: Partial<SubscribeParsedRequest>): boolean => {
  const r = compileParsedFilter(SubscribeParsedRequest.fromPartial(request));
  if (!r.ok) throw new Error(r.error);
  const scan = scanParsedTransaction(tx);
  return matchParsed(r.filter, { failed: false, hasInstruction: true }, () => parsedFactsOf(tx, scan));
};

describe('SubscribeParsed: the October 2026 trades (issue 34)', () => {
  it('a v3 buy of a USDC coin: typed buy_v3 and TradeEvent with the longer fields; one buy in USDC units, fees kept', () => {
    const m = market();
    const { update: u } = parsed(txOf([v3Buy(user, m)]));
    expect(cases(u)).toEqual({ instructions: ['pump/buyV3'], events: ['pump/trade'] });
    const ix = u.instructions[0]!.instructionOneof;
    expect(ix?.$case === 'buyV3' && ix.value).toEqual({ amount: 1_000n, maxSolCost: 3_000_000n, partialFill: false });
    const ev = u.events[0]!.eventOneof;
    expect(ev?.$case === 'trade' && ev.value).toMatchObject({
      ixName: 'buy_v3',
      creatorFeeUnclaimed: 107_500n,
      holderRewardsBps: 30n,
      holderRewards: 7_500n,
      quoteAmount: 2_500_000n,
    });
    expect(u.trades).toHaveLength(1);
    expect(u.trades[0]).toMatchObject({
      kind: 'buy',
      program: 'pump',
      venue: 'curve',
      baseAmount: 1_000n,
      quoteAmount: 2_500_000n,
      quote: 'USDC',
      protocolFee: 25_000n,
      creatorFee: 7_500n,
      buybackFee: 1_000n,
      feesKept: true,
      syntheticMigration: false,
      hops: 0,
      events: [0],
    });
    expect(b(u.trades[0]!.quoteMint)).toBe(b(USDC));
    expect(b(u.trades[0]!.mint)).toBe(b(m.mint));
    expect(b(u.trades[0]!.trader)).toBe(b(user));
    expect(b(u.trades[0]!.market)).toBe(b(m.curve));
    expect(u.trades[0]!.hop).toBeUndefined();
  });

  it('a v3 sell of a SOL coin: the zero-key quote mint is SOL, reported as wrapped SOL', () => {
    const { update: u } = parsed(txOf([v3Sell(user, market())]));
    expect(cases(u).instructions).toEqual(['pump/sellV3']);
    expect(u.trades[0]).toMatchObject({ kind: 'sell', quote: 'SOL', quoteAmount: 90_000n, baseAmount: 500n, feesKept: true });
    expect(b(u.trades[0]!.quoteMint)).toBe(b(WSOL));
  });

  it('a PumpSwap v2 buy: typed amm_buy_v2 and BuyEvent (signed virtual_quote_reserves); one pool buy, mints from the instruction', () => {
    const m = market();
    const { update: u } = parsed(txOf([ammV2Buy(user, m)]));
    expect(cases(u)).toEqual({ instructions: ['pump_amm/ammBuyV2'], events: ['pump_amm/ammBuy'] });
    const ix = u.instructions[0]!.instructionOneof;
    expect(ix?.$case === 'ammBuyV2' && ix.value).toEqual({ baseAmountOut: 4_000n, maxQuoteAmountIn: 900_000n });
    const ev = u.events[0]!.eventOneof;
    expect(ev?.$case === 'ammBuy' && ev.value).toMatchObject({
      ixName: 'buy_v2',
      virtualQuoteReserves: '-12345',
      creatorFeeUnclaimed: 9_999n,
    });
    expect(u.trades[0]).toMatchObject({
      kind: 'buy',
      program: 'pump_amm',
      venue: 'pool',
      baseAmount: 4_000n,
      quoteAmount: 800_000n,
      quote: 'SOL',
      lpFee: 1_600n,
      protocolFee: 7_600n,
      creatorFee: 2_400n,
      buybackFee: 400n,
      feesKept: true,
    });
    expect(b(u.trades[0]!.mint)).toBe(b(m.mint));
    expect(b(u.trades[0]!.market)).toBe(b(m.pool));
  });

  it('a multi-hop route: typed amm_multi_hop_swap and multi_hop_curve_swap; one trade per hop, route marked, quoted in the hop’s own quote', () => {
    const a = market();
    const c = market();
    const { update: u } = parsed(txOf([multiHop(user, a, c)]));
    expect(cases(u)).toEqual({
      instructions: ['pump_amm/ammMultiHopSwap', 'pump/multiHopCurveSwap'],
      events: ['pump_amm/ammBuy', 'pump/trade'],
    });
    const curveHop = u.instructions[1]!.instructionOneof;
    expect(curveHop?.$case === 'multiHopCurveSwap' && curveHop.value).toEqual({ amountIn: 50_000n, hopFees: Buffer.from([2]) });
    expect(u.instructions[1]!.inner).toBe(true);
    expect(u.trades.map((t) => [t.venue, t.hop, t.hops, b(t.mint), t.quote, b(t.quoteMint), t.baseAmount, t.quoteAmount])).toEqual([
      ['pool', 0, 2, b(a.mint), 'SOL', b(WSOL), 50_000n, 990_000n],
      ['curve', 1, 2, b(c.mint), 'TOKEN', b(a.mint), 7_000n, 49_500n],
    ]);
    // The curve hop's curve comes from the route's remaining accounts (its hop: base mint, quote mint, curve, ...).
    expect(b(u.trades[1]!.market)).toBe(b(c.curve));
  });

  it('sweeps: typed instructions and events; each a fee_sweep of its coin (the pool’s named only by its event)', () => {
    const m = market();
    const vault = randomBytes(32);
    const recipient = randomBytes(32);
    const { update: u } = parsed(txOf([curveSweep(m, vault), poolSweep(m, recipient, user)]));
    expect(cases(u)).toEqual({
      instructions: ['pump/sweepCreatorFee', 'pump_amm/ammSweepProtocolFee'],
      events: ['pump/sweepBondingCurveFee', 'pump_amm/ammSweepPoolFee'],
    });
    const ev = u.events[1]!.eventOneof;
    expect(ev?.$case === 'ammSweepPoolFee' && b(ev.value.baseMint!)).toBe(b(m.mint));
    expect(u.trades.map((t) => [t.kind, t.program, t.feeBucket, t.quote, t.quoteAmount, b(t.mint), b(t.trader)])).toEqual([
      ['fee_sweep', 'pump', 'creator', 'USDC', 107_500n, b(m.mint), b(vault)],
      ['fee_sweep', 'pump_amm', 'protocol', 'SOL', 7_600n, b(m.mint), b(recipient)],
    ]);
  });

  it('a synthetic migration is ONE buy summing its curve and pool parts', () => {
    const m = market();
    const { update: u } = parsed(txOf([syntheticMigration(user, m)]));
    expect(cases(u).events).toEqual(['pump/trade', 'pump/complete', 'pump/postCompleteBuy']);
    const ev = u.events[2]!.eventOneof;
    expect(ev?.$case === 'postCompleteBuy' && ev.value).toMatchObject({ baseOut: 6_000_000n, quoteIn: 2_000_000_000n });
    expect(u.trades).toHaveLength(1);
    expect(u.trades[0]).toMatchObject({
      kind: 'buy',
      venue: 'curve+pool',
      syntheticMigration: true,
      baseAmount: 9_000_000n,
      quoteAmount: 3_000_000_000n,
      protocolFee: 30_000_000n,
      creatorFee: 9_000_000n,
      buybackFee: 1_500_000n,
      feesKept: true,
      quote: 'SOL',
      events: [0, 2],
    });
  });

  it("an old client (the seed's proto) decodes the update: the new members are unknown fields it skips", () => {
    const seed = new protobuf.Root().loadSync(fileURLToPath(new URL('../../test/fixtures/stream-seed.proto', import.meta.url)), {
      keepCase: true,
    });
    const Update = seed.lookupType('stream.SubscribeUpdateParsedTransaction');
    const tx = txOf([v3Buy(user, market()), ammV2Buy(user, market()), syntheticMigration(user, market())]);
    const scan = scanParsedTransaction(tx);
    const old = Update.toObject(Update.decode(encodeParsed(tx, scan, undefined, undefined)), { oneofs: true }) as Record<string, any>;
    expect(Buffer.from(old.signature).equals(tx.signatures[0]!)).toBe(true);
    expect(old.instructions).toHaveLength(3);
    for (const x of old.instructions) expect(Object.keys(x)).toEqual([]); // no member it knows, nothing else
    expect(Object.keys(old).sort()).toEqual(['instructions', 'signature', 'signatures', 'slot']);
  });

  it("the request's trade filters act on the trades: kind, trader, size and mint on the same trade", () => {
    const m = market();
    const other = randomBytes(32);
    const tx = txOf([v3Buy(user, m), curveSweep(m, other)]);
    expect(passes(tx, { tradeKinds: ['buy'] })).toBe(true);
    expect(passes(tx, { tradeKinds: ['sell'] })).toBe(false);
    expect(passes(tx, { tradeKinds: ['fee_sweep'], traders: [b(other)] })).toBe(true);
    expect(passes(tx, { tradeKinds: ['buy'], traders: [b(other)] })).toBe(false); // the sweep's recipient, not the buyer
    expect(passes(tx, { tradeKinds: ['buy'], minQuoteAmount: 2_500_000n })).toBe(true);
    expect(passes(tx, { tradeKinds: ['buy'], minQuoteAmount: 2_500_001n })).toBe(false);
    expect(passes(tx, { minBaseAmount: 1_001n })).toBe(false);
    expect(passes(tx, { tradeKinds: ['buy'], mints: [b(USDC)] })).toBe(true); // the quote mint
    expect(passes(tx, { tradeKinds: ['buy'], mints: [b(randomBytes(32))] })).toBe(false);
    // A multi-hop: the middle coin is each hop's mint or quote mint.
    const a = market();
    const c = market();
    const hop = txOf([multiHop(user, a, c)]);
    expect(passes(hop, { tradeKinds: ['buy'], mints: [b(c.mint)], minBaseAmount: 7_000n })).toBe(true);
    expect(passes(hop, { tradeKinds: ['buy'], mints: [b(c.mint)], minBaseAmount: 50_000n })).toBe(false);
    expect(passes(hop, { programs: ['6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P'], tradeKinds: ['buy'], mints: [b(a.mint)] })).toBe(true);
    expect(compileParsedFilter(SubscribeParsedRequest.fromPartial({ tradeKinds: ['swap'] }))).toEqual({
      ok: false,
      error: 'trade_kinds[0]: "swap" is not one of buy, sell, fee_sweep',
    });
    expect(compileParsedFilter(SubscribeParsedRequest.fromPartial({ traders: ['nope'] })).ok).toBe(false);
  });
});
