// Today's account lists of pump.fun's trade instructions (the official IDL, pump-public-docs 1b822158): buy and
// buy_exact_sol_in 16 accounts, sell 14, the v2 forms 27 (buy_v2, buy_exact_quote_in_v2) and 26 (sell_v2). The
// PDAs they name are derived once per coin or user (PDA search is the simulator's top cost).
import type { Acct } from '../accounts.js';
import type { AccountMeta } from '../compile.js';
import { associatedTokenAddress, sharingConfigAddress } from '../pda.js';
import type { Coin, SimState, User } from '../state.js';

export const meta = (acct: Acct, writable = false, signer = false): AccountMeta => ({ acct, writable, signer });

/** The programs, fixed accounts and the user's PDAs in today's lists (each derived once per coin or user). */
function pumpAccounts(s: SimState, user: User) {
  return {
    p: s.programs,
    f: s.pumpFixed,
    u: s.pumpAccountsOf(user),
    global: s.pumpGlobal,
    eventAuthority: s.pumpFixed.eventAuthority,
    user: user.acct,
  };
}

/** The first seven accounts of buy and sell: global, fee recipient, mint, curve and its token account, the user's token
 * account and the user. */
function tradeHead(s: SimState, coin: Coin, ata: Acct, a: ReturnType<typeof pumpAccounts>): AccountMeta[] {
  return [
    meta(a.global),
    meta(s.feeRecipient, true),
    meta(coin.mint),
    meta(coin.curve, true),
    meta(coin.curveAta, true),
    meta(ata, true),
    meta(a.user, true, true),
  ];
}

/** buy, buy_exact_sol_in: 16 accounts. */
export function buyAccounts(s: SimState, coin: Coin, user: User, ata: Acct): AccountMeta[] {
  const a = pumpAccounts(s, user);
  return [
    ...tradeHead(s, coin, ata, a),
    meta(a.p.system),
    meta(a.p.token),
    meta(coin.creatorVault, true),
    meta(a.eventAuthority),
    meta(a.p.pump),
    meta(a.f.globalVolumeAccumulator),
    meta(a.u.volume, true),
    meta(a.f.feeConfig),
    meta(a.p.pumpFee),
  ];
}

/** sell: 14 accounts. */
export function sellAccounts(s: SimState, coin: Coin, user: User, ata: Acct): AccountMeta[] {
  const a = pumpAccounts(s, user);
  return [
    ...tradeHead(s, coin, ata, a),
    meta(a.p.system),
    meta(coin.creatorVault, true),
    meta(a.p.token),
    meta(a.eventAuthority),
    meta(a.p.pump),
    meta(a.f.feeConfig),
    meta(a.p.pumpFee),
  ];
}

/**
 * buy_v2, buy_exact_quote_in_v2 (27 accounts) and sell_v2 (26: no global volume accumulator). The v2 forms name
 * the quote mint and its token accounts; a SOL-quoted curve passes wrapped SOL and its (unused) accounts.
 */
export function v2Accounts(s: SimState, coin: Coin, user: User, ata: Acct, buy: boolean): AccountMeta[] {
  const a = pumpAccounts(s, user);
  const wsolOf = (owner: Acct): Acct => s.world.at(associatedTokenAddress(owner.key, a.f.nativeMint.key));
  const c = coinV2(s, coin, wsolOf);
  return [
    meta(a.global),
    meta(coin.mint),
    meta(a.f.nativeMint),
    meta(a.p.token),
    meta(a.p.token),
    meta(a.p.ata),
    meta(s.feeRecipient, true),
    meta(a.f.feeRecipientWsol, true),
    meta(a.f.buybackFeeRecipient, true),
    meta(a.f.buybackFeeRecipientWsol, true),
    meta(coin.curve, true),
    meta(coin.curveAta, true),
    meta(c.curveWsol, true),
    meta(a.user, true, true),
    meta(ata, true),
    meta(a.u.wsol, true),
    meta(coin.creatorVault, true),
    meta(c.creatorVaultWsol, true),
    meta(c.sharingConfig),
    ...(buy ? [meta(a.f.globalVolumeAccumulator)] : []),
    meta(a.u.volume, true),
    meta(a.u.volumeWsol, true),
    meta(a.f.feeConfig),
    meta(a.p.pumpFee),
    meta(a.p.system),
    meta(a.eventAuthority),
    meta(a.p.pump),
  ];
}

const v2Cache = new WeakMap<Coin, { curveWsol: Acct; creatorVaultWsol: Acct; sharingConfig: Acct }>();
function coinV2(s: SimState, coin: Coin, wsolOf: (owner: Acct) => Acct) {
  let c = v2Cache.get(coin);
  if (!c) {
    c = {
      curveWsol: wsolOf(coin.curve),
      creatorVaultWsol: wsolOf(coin.creatorVault),
      sharingConfig: s.world.at(sharingConfigAddress(coin.mint.key)),
    };
    v2Cache.set(coin, c);
  }
  return c;
}
