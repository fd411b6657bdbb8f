// pump.fun activity with the program's real id, account orders and data layouts (reference/pumpfun.md):
// create (often with the creator's first buy), buy and sell on a constant-product bonding curve with
// slippage limits (6002/6003 when the price moved), and now and then withdraw, set_params, initialize.
import type { Acct } from '../accounts.js';
import type { Ix } from '../compile.js';
import {
  createAtaIdempotent,
  createTokenAccount,
  CUSTOM,
  debit,
  IxError,
  moveTokens,
  systemTransferData,
  tokenTransferData,
} from '../instructions.js';
import {
  BONDING_CURVE_LEN,
  bondingCurveData,
  lastWithdrawData,
  METADATA_LEN,
  metadataData,
  mintData,
  MINT_LEN,
  readCurve,
  tokenAmount,
  writeCurve,
  type CurveState,
} from '../layouts.js';
import { associatedTokenAddress, bondingCurveAddress, metadataAddress } from '../pda.js';
import { PUMP_ERR, PUMP_EVENT_AUTHORITY, PUMP_IX, PUMP_MINT_AUTHORITY, rentExempt, TOKEN_PROGRAM } from '../programs.js';
import { LAMPORTS_PER_SOL, type Coin, type SimState, type User } from '../state.js';
import { lamportsBetween, pickUser, withBudget, type GenCtx } from './context.js';

const HOT_COINS = 64;
const SELL_SHARES = { all: 3, half: 3, some: 4 } as const;
const TOLERANCE_BPS: Record<string, number> = { '50': 2, '100': 2, '500': 3, '1000': 2, '2500': 1 };

const u64 = (v: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return b;
};
const borshString = (s: string): Buffer => {
  const t = Buffer.from(s, 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32LE(t.length);
  return Buffer.concat([len, t]);
};

/** SOL the program charges for `amount` tokens (before the fee): amount*vS/(vT-amount) + 1. */
export function buyCost(c: CurveState, amount: bigint): bigint {
  return (amount * c.virtualSolReserves) / (c.virtualTokenReserves - amount) + 1n;
}

/** SOL the curve pays for `amount` tokens (before the fee): amount*vS/(vT+amount). */
export function sellProceeds(c: CurveState, amount: bigint): bigint {
  return (amount * c.virtualSolReserves) / (c.virtualTokenReserves + amount);
}

const feeOf = (s: SimState, sol: bigint): bigint => (sol * s.globalParams.feeBasisPoints) / 10_000n;

function fixed(s: SimState): { global: Acct; eventAuthority: Acct } {
  return { global: s.pumpGlobal, eventAuthority: s.world.at(PUMP_EVENT_AUTHORITY) };
}

function buyIx(s: SimState, coin: Coin, user: User, ata: Acct, amount: bigint, maxSolCost: bigint, onDone: () => void): Ix {
  const p = s.programs;
  const { global, eventAuthority } = fixed(s);
  return {
    program: p.pump,
    accounts: [
      { acct: global },
      { acct: s.feeRecipient, writable: true },
      { acct: coin.mint },
      { acct: coin.curve, writable: true },
      { acct: coin.curveAta, writable: true },
      { acct: ata, writable: true },
      { acct: user.acct, signer: true, writable: true },
      { acct: p.system },
      { acct: p.token },
      { acct: p.rent },
      { acct: eventAuthority },
      { acct: p.pump },
    ],
    data: Buffer.concat([PUMP_IX.buy, u64(amount), u64(maxSolCost)]),
    run: () => {
      const c = readCurve(coin.curve.data);
      if (c.complete) throw CUSTOM(PUMP_ERR.bondingCurveComplete);
      const tokens = amount < c.realTokenReserves ? amount : c.realTokenReserves;
      const cost = buyCost(c, tokens);
      const fee = feeOf(s, cost);
      if (cost + fee > maxSolCost) throw CUSTOM(PUMP_ERR.tooMuchSolRequired);
      debit(user.acct, cost + fee);
      coin.curve.lamports += cost;
      s.feeRecipient.lamports += fee;
      moveTokens(coin.curveAta, ata, tokens);
      c.virtualTokenReserves -= tokens;
      c.virtualSolReserves += cost;
      c.realTokenReserves -= tokens;
      c.realSolReserves += cost;
      c.complete = c.realTokenReserves === 0n;
      writeCurve(coin.curve.data, c);
      onDone();
      // What pump.fun invokes: the curve's tokens to the buyer (the curve PDA signs), SOL to the curve and the fee.
      return [
        { program: p.token, accounts: [coin.curveAta, ata, coin.curve], data: tokenTransferData(tokens) },
        { program: p.system, accounts: [user.acct, coin.curve], data: systemTransferData(cost) },
        { program: p.system, accounts: [user.acct, s.feeRecipient], data: systemTransferData(fee) },
      ];
    },
  };
}

function pickTolerance(ctx: GenCtx): bigint {
  return BigInt(ctx.rng.weighted(TOLERANCE_BPS));
}

/** The client quotes from a price that may be up to 1.5% stale, then adds its slippage tolerance. */
function quoteLimits(ctx: GenCtx, quote: bigint, up: boolean): bigint {
  const tol = pickTolerance(ctx);
  const drift = BigInt(ctx.rng.int(151));
  return up ? (quote * (10_000n + tol) * (10_000n - drift)) / 100_000_000n : (quote * (10_000n - tol) * (10_000n + drift)) / 100_000_000n;
}

function registerPosition(s: SimState, user: User, coin: Coin, ata: Acct): void {
  if (s.positionAtas.has(ata)) return;
  s.positionAtas.add(ata);
  s.positions.push({ user, coin, ata });
  if (coin.holders.length < 256) coin.holders.push(user);
}

function noteCompletion(ctx: GenCtx, coin: Coin): void {
  if (coin.completedAt === undefined && readCurve(coin.curve.data).complete) {
    coin.completedAt = ctx.slot;
    ctx.s.pendingWithdraw.push(coin);
    ctx.s.completedCoins.push(coin);
    if (ctx.s.completedCoins.length > HOT_COINS) ctx.s.completedCoins.shift();
    const i = ctx.s.openCoins.indexOf(coin);
    if (i >= 0) ctx.s.openCoins.splice(i, 1);
  }
}

/** Buy instructions for `user` spending about `budget` lamports, quoting from the current curve. */
function buyIxs(ctx: GenCtx, coin: Coin, user: User, budget: bigint): Ix[] {
  const { s } = ctx;
  const c = readCurve(coin.curve.data);
  const net = (budget * 10_000n) / (10_000n + s.globalParams.feeBasisPoints);
  const k = c.virtualTokenReserves * c.virtualSolReserves;
  let amount = c.virtualTokenReserves - (k + c.virtualSolReserves + net - 1n) / (c.virtualSolReserves + net);
  if (!c.complete && amount > c.realTokenReserves) amount = c.realTokenReserves;
  if (amount <= 0n) amount = 1_000_000n;
  const quote = c.complete ? budget : buyCost(c, amount) + feeOf(s, buyCost(c, amount));
  const ata = s.ataOf(user, coin.mint);
  return [
    createAtaIdempotent(s.programs, user.acct, ata, user.acct, coin.mint),
    buyIx(s, coin, user, ata, amount, quoteLimits(ctx, quote, true), () => registerPosition(s, user, coin, ata)),
  ];
}

/**
 * The coin a trader buys: one of the newest open curves, skewed toward the older ones of that window
 * (they have momentum, so some fill up and complete). Now and then a stale client picks a curve that
 * already completed and gets 6005.
 */
function hotCoin(ctx: GenCtx): Coin | undefined {
  const { openCoins, completedCoins } = ctx.s;
  if (completedCoins.length > 0 && ctx.rng.chance(0.01)) return ctx.rng.pick(completedCoins);
  if (openCoins.length === 0) return undefined;
  const lo = Math.max(0, openCoins.length - HOT_COINS);
  const u = ctx.rng.float();
  return openCoins[lo + Math.floor((openCoins.length - lo) * u * u)];
}

export function buyTx(ctx: GenCtx): void {
  const coin = hotCoin(ctx);
  if (!coin) return createTx(ctx);
  // Most buyers already hold the coin (adding to a position), the rest are new to it.
  const holder = coin.holders.length > 0 && ctx.rng.chance(0.6) ? ctx.rng.pick(coin.holders) : undefined;
  const user = holder && ctx.s.spendable(holder) >= LAMPORTS_PER_SOL / 20n ? holder : pickUser(ctx, LAMPORTS_PER_SOL / 20n);
  if (!user) return createTx(ctx);
  const spend = ctx.s.spendable(user) / 2n;
  const budget = lamportsBetween(ctx, LAMPORTS_PER_SOL / 100n, spend < 3n * LAMPORTS_PER_SOL ? spend : 3n * LAMPORTS_PER_SOL);
  const tx = ctx.b.submit({
    payer: user.acct,
    ixs: withBudget(ctx, buyIxs(ctx, coin, user, budget), 0.9),
    table: ctx.rng.chance(0.4) ? ctx.s.table : undefined,
  });
  if (tx && tx.err === undefined) noteCompletion(ctx, coin);
}

export function sellTx(ctx: GenCtx): void {
  const { s, rng } = ctx;
  for (let tries = 0; tries < 4 && s.positions.length > 0; tries++) {
    const i = rng.int(s.positions.length);
    const pos = s.positions[i]!;
    const have = tokenAmount(pos.ata.data);
    // Sold out, or the curve completed and holders trade elsewhere (a few still try: 6005).
    if (have === 0n || (pos.coin.completedAt !== undefined && rng.chance(0.9))) {
      s.positions[i] = s.positions[s.positions.length - 1]!; // swap-remove keeps this O(1)
      s.positions.pop();
      s.positionAtas.delete(pos.ata);
      continue;
    }
    if (s.spendable(pos.user) < 1_000_000n) continue;
    const share = rng.weighted(SELL_SHARES);
    const amount = share === 'all' ? have : share === 'half' ? have / 2n + 1n : 1n + (have * BigInt(rng.range(1, 40))) / 100n;
    const c = readCurve(pos.coin.curve.data);
    const proceeds = sellProceeds(c, amount);
    const minOut = quoteLimits(ctx, proceeds - feeOf(s, proceeds), false);
    ctx.b.submit({
      payer: pos.user.acct,
      ixs: withBudget(ctx, [sellIx(s, pos.coin, pos.user, pos.ata, amount, minOut)], 0.9),
      table: rng.chance(0.4) ? s.table : undefined,
    });
    return;
  }
  buyTx(ctx);
}

function sellIx(s: SimState, coin: Coin, user: User, ata: Acct, amount: bigint, minSolOutput: bigint): Ix {
  const p = s.programs;
  const { global, eventAuthority } = fixed(s);
  return {
    program: p.pump,
    accounts: [
      { acct: global },
      { acct: s.feeRecipient, writable: true },
      { acct: coin.mint },
      { acct: coin.curve, writable: true },
      { acct: coin.curveAta, writable: true },
      { acct: ata, writable: true },
      { acct: user.acct, signer: true, writable: true },
      { acct: p.system },
      { acct: p.ata },
      { acct: p.token },
      { acct: eventAuthority },
      { acct: p.pump },
    ],
    data: Buffer.concat([PUMP_IX.sell, u64(amount), u64(minSolOutput)]),
    run: () => {
      const c = readCurve(coin.curve.data);
      if (c.complete) throw CUSTOM(PUMP_ERR.bondingCurveComplete);
      const out = sellProceeds(c, amount);
      const fee = feeOf(s, out);
      if (out - fee < minSolOutput) throw CUSTOM(PUMP_ERR.tooLittleSolReceived);
      if (out > c.realSolReserves) throw new IxError('"InsufficientFunds"');
      moveTokens(ata, coin.curveAta, amount);
      coin.curve.lamports -= out;
      user.acct.lamports += out - fee;
      s.feeRecipient.lamports += fee;
      c.virtualTokenReserves += amount;
      c.virtualSolReserves -= out;
      c.realTokenReserves += amount;
      c.realSolReserves -= out;
      writeCurve(coin.curve.data, c);
      // The seller's tokens go back to the curve; SOL leaves the program-owned curve directly (no CPI).
      return [{ program: p.token, accounts: [ata, coin.curveAta, user.acct], data: tokenTransferData(amount) }];
    },
  };
}

const WORDS = ['PEPE', 'DOGE', 'CAT', 'MOON', 'FROG', 'WIF', 'BONK', 'CHAD', 'GIGA', 'SOL', 'AI', 'TRUMP', 'BASED', 'NEKO', 'HAT'];

export function createTx(ctx: GenCtx): void {
  const { s, rng } = ctx;
  const creator = pickUser(ctx, LAMPORTS_PER_SOL / 10n);
  if (!creator) return;
  const mint = s.keyed('mint', s.mintCounter++, 0n);
  const curve = s.world.at(bondingCurveAddress(mint.key));
  const curveAta = s.world.at(associatedTokenAddress(curve.key, mint.key));
  const metadata = s.world.at(metadataAddress(mint.key));
  const coin: Coin = { mint, curve, curveAta, creator, withdrawn: false, holders: [] };
  const symbol = `${rng.pick(WORDS)}${rng.chance(0.5) ? rng.pick(WORDS) : ''}`;
  const name = `${symbol.charAt(0)}${symbol.slice(1).toLowerCase()} ${rng.pick(['Coin', 'Token', 'Inu', 'on Solana', 'Classic'])}`;
  const uri = `https://ipfs.io/ipfs/Qm${rng.bytes(22).toString('hex')}`;
  const args = [PUMP_IX.create, borshString(name), borshString(symbol), borshString(uri)];
  if (rng.chance(0.5)) args.push(creator.acct.key); // 2025 layout: trailing creator pubkey
  const p = s.programs;
  const { global, eventAuthority } = fixed(s);
  const create: Ix = {
    program: p.pump,
    accounts: [
      { acct: mint, signer: true, writable: true },
      { acct: s.world.at(PUMP_MINT_AUTHORITY) },
      { acct: curve, writable: true },
      { acct: curveAta, writable: true },
      { acct: global },
      { acct: p.metadata },
      { acct: metadata, writable: true },
      { acct: creator.acct, signer: true, writable: true },
      { acct: p.system },
      { acct: p.token },
      { acct: p.ata },
      { acct: p.rent },
      { acct: eventAuthority },
      { acct: p.pump },
    ],
    data: Buffer.concat(args),
    run: () => {
      const g = s.globalParams;
      debit(creator.acct, rentExempt(MINT_LEN) + rentExempt(BONDING_CURVE_LEN) + rentExempt(METADATA_LEN));
      mint.lamports += rentExempt(MINT_LEN);
      mint.owner = TOKEN_PROGRAM;
      // Supply minted to the curve, then the mint authority is revoked.
      mint.data = mintData(null, g.tokenTotalSupply, 6);
      curve.lamports += rentExempt(BONDING_CURVE_LEN);
      curve.owner = p.pump.key;
      const state: CurveState = {
        virtualTokenReserves: g.initialVirtualTokenReserves,
        virtualSolReserves: g.initialVirtualSolReserves,
        realTokenReserves: g.initialRealTokenReserves,
        realSolReserves: 0n,
        tokenTotalSupply: g.tokenTotalSupply,
        complete: false,
      };
      curve.data = bondingCurveData(state, creator.acct.key);
      createTokenAccount(creator.acct, curveAta, mint, curve);
      curveAta.data.writeBigUInt64LE(g.tokenTotalSupply, 64);
      metadata.lamports += rentExempt(METADATA_LEN);
      metadata.owner = p.metadata.key;
      metadata.data = metadataData(PUMP_MINT_AUTHORITY, mint.key, name, symbol, uri);
    },
  };
  const ixs = [create];
  // Most creators buy first in the same transaction.
  if (rng.chance(0.7)) ixs.push(...buyIxsAfterCreate(ctx, coin, creator));
  const tx = ctx.b.submit({ payer: creator.acct, ixs: withBudget(ctx, ixs, 0.9) });
  if (tx && tx.err === undefined) {
    s.coins.push(coin);
    s.openCoins.push(coin);
  }
}

/** The creator's first buy: quoted from the initial curve (the create has not run yet). */
function buyIxsAfterCreate(ctx: GenCtx, coin: Coin, creator: User): Ix[] {
  const { s } = ctx;
  const g = s.globalParams;
  const c: CurveState = {
    virtualTokenReserves: g.initialVirtualTokenReserves,
    virtualSolReserves: g.initialVirtualSolReserves,
    realTokenReserves: g.initialRealTokenReserves,
    realSolReserves: 0n,
    tokenTotalSupply: g.tokenTotalSupply,
    complete: false,
  };
  const budget = lamportsBetween(ctx, LAMPORTS_PER_SOL / 100n, LAMPORTS_PER_SOL / 20n);
  const net = (budget * 10_000n) / (10_000n + g.feeBasisPoints);
  const amount = c.virtualTokenReserves - (c.virtualTokenReserves * c.virtualSolReserves) / (c.virtualSolReserves + net) - 1n;
  const cost = buyCost(c, amount);
  const ata = s.ataOf(creator, coin.mint);
  // The creator's own buy cannot be front-run: a generous limit.
  const max = ((cost + feeOf(s, cost)) * 105n) / 100n;
  return [
    createAtaIdempotent(s.programs, creator.acct, ata, creator.acct, coin.mint),
    buyIx(s, coin, creator, ata, amount, max, () => registerPosition(s, creator, coin, ata)),
  ];
}

/** The authority withdraws a completed curve's SOL and remaining tokens (the pre-2025 migration). */
export function withdrawTx(ctx: GenCtx, coin: Coin): void {
  const { s } = ctx;
  const p = s.programs;
  const user = s.pumpAuthority;
  const ata = s.ataOf(user, coin.mint);
  const { global, eventAuthority } = fixed(s);
  const withdraw: Ix = {
    program: p.pump,
    accounts: [
      { acct: global },
      { acct: s.lastWithdraw, writable: true },
      { acct: coin.mint },
      { acct: coin.curve, writable: true },
      { acct: coin.curveAta, writable: true },
      { acct: ata, writable: true },
      { acct: user.acct, signer: true, writable: true },
      { acct: p.system },
      { acct: p.token },
      { acct: p.rent },
      { acct: eventAuthority },
      { acct: p.pump },
    ],
    data: Buffer.from(PUMP_IX.withdraw),
    run: () => {
      const c = readCurve(coin.curve.data);
      if (!c.complete) throw CUSTOM(PUMP_ERR.bondingCurveNotComplete);
      const sol = coin.curve.lamports - rentExempt(BONDING_CURVE_LEN);
      coin.curve.lamports -= sol;
      user.acct.lamports += sol;
      moveTokens(coin.curveAta, ata, tokenAmount(coin.curveAta.data));
      c.realSolReserves = 0n;
      writeCurve(coin.curve.data, c);
      s.lastWithdraw.data = lastWithdrawData(ctx.b.blockTime);
    },
  };
  const tx = ctx.b.submit({
    payer: user.acct,
    ixs: [createAtaIdempotent(p, user.acct, ata, user.acct, coin.mint), withdraw],
  });
  if (tx && tx.err === undefined) coin.withdrawn = true;
}

function globalArgs(s: SimState): Buffer {
  const g = s.globalParams;
  return Buffer.concat([
    PUMP_IX.setParams,
    Buffer.from(g.feeRecipient),
    u64(g.initialVirtualTokenReserves),
    u64(g.initialVirtualSolReserves),
    u64(g.initialRealTokenReserves),
    u64(g.tokenTotalSupply),
    u64(g.feeBasisPoints),
  ]);
}

/** set_params (original 72-byte layout): by the authority it succeeds, by anyone else 6000. */
export function setParamsTx(ctx: GenCtx): void {
  const { s } = ctx;
  const p = s.programs;
  const byAuthority = ctx.rng.chance(0.7);
  const user = byAuthority ? s.pumpAuthority : pickUser(ctx, 1_000_000n);
  if (!user) return;
  const ix: Ix = {
    program: p.pump,
    accounts: [
      { acct: s.pumpGlobal, writable: true },
      { acct: user.acct, signer: true, writable: true },
      { acct: p.system },
      { acct: s.world.at(PUMP_EVENT_AUTHORITY) },
      { acct: p.pump },
    ],
    data: globalArgs(s),
    run: () => {
      if (!user.acct.key.equals(s.globalParams.authority)) throw CUSTOM(PUMP_ERR.notAuthorized);
    },
  };
  ctx.b.submit({ payer: user.acct, ixs: [ix] });
}

/** initialize: the global account exists since genesis, so it fails with AlreadyInitialized (6001). */
export function initializeTx(ctx: GenCtx): void {
  const { s } = ctx;
  const user = pickUser(ctx, 1_000_000n);
  if (!user) return;
  const ix: Ix = {
    program: s.programs.pump,
    accounts: [
      { acct: s.pumpGlobal, writable: true },
      { acct: user.acct, signer: true, writable: true },
      { acct: s.programs.system },
    ],
    data: Buffer.from(PUMP_IX.initialize),
    run: () => {
      throw CUSTOM(PUMP_ERR.alreadyInitialized);
    },
  };
  ctx.b.submit({ payer: user.acct, ixs: [ix] });
}
