// pump.fun's rare admin traffic: set_params in today's layout and a stray initialize.
import type { Ix } from '../compile.js';
import { borsh } from '../borsh.js';
import { CUSTOM } from '../instructions.js';
import { emitEvent, setParamsEvent } from '../pump-events.js';
import { PUMP_ERR, PUMP_IX } from '../programs.js';
import { pickUser, type GenCtx } from './context.js';
import { meta } from './pump-accounts.js';

/**
 * set_params in today's layout (11 arguments, 4 accounts): by the authority it succeeds and emits
 * SetParamsEvent (the simulator's authority re-sends the values in force), by anyone else 6000.
 */
export function setParamsTx(ctx: GenCtx): void {
  const { s } = ctx;
  const p = s.programs;
  const byAuthority = ctx.rng.chance(0.7);
  const user = byAuthority ? s.pumpAuthority : pickUser(ctx, 1_000_000n);
  if (!user) return;
  const g = s.globalParams;
  const withdrawAuthority = s.pumpFixed.withdrawAuthority.key;
  const data = borsh(200)
    .bytes(PUMP_IX.setParams)
    .u64(g.initialVirtualTokenReserves)
    .u64(g.initialVirtualSolReserves)
    .u64(g.initialRealTokenReserves)
    .u64(g.tokenTotalSupply)
    .u64(g.feeBasisPoints)
    .pubkey(withdrawAuthority)
    .bool(true)
    .u64(g.poolMigrationFee)
    .u64(g.creatorFeeBasisPoints)
    .pubkey(g.authority)
    .pubkey(g.authority)
    .done();
  const eventAuthority = s.pumpFixed.eventAuthority;
  const ix: Ix = {
    program: p.pump,
    accounts: [meta(s.pumpGlobal, true), meta(user.acct, true, true), meta(eventAuthority), meta(p.pump)],
    data,
    run: () => {
      if (!user.acct.key.equals(g.authority)) throw CUSTOM(PUMP_ERR.notAuthorized);
      const event = (): Buffer =>
        setParamsEvent({
          initialVirtualTokenReserves: g.initialVirtualTokenReserves,
          initialVirtualSolReserves: g.initialVirtualSolReserves,
          initialRealTokenReserves: g.initialRealTokenReserves,
          finalRealSolReserves: 0n,
          tokenTotalSupply: g.tokenTotalSupply,
          feeBasisPoints: g.feeBasisPoints,
          withdrawAuthority,
          poolMigrationFee: g.poolMigrationFee,
          creatorFeeBasisPoints: g.creatorFeeBasisPoints,
          feeRecipient: s.feeRecipient.key,
          timestamp: ctx.b.blockTime,
          authority: g.authority,
        });
      return emitEvent(ctx.b.recording, p.pump, eventAuthority, event);
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
    accounts: [meta(s.pumpGlobal, true), meta(user.acct, true, true), meta(s.programs.system)],
    data: Buffer.from(PUMP_IX.initialize),
    run: () => {
      throw CUSTOM(PUMP_ERR.alreadyInitialized);
    },
  };
  ctx.b.submit({ payer: user.acct, ixs: [ix] });
}
