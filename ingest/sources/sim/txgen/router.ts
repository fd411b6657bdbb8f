// The simulated trading router (SIM_ROUTER_PROGRAM, `SimRouter1111111111111111111111111111111111`): what Photon,
// Axiom, Bloom or term9 do on mainnet. The user signs one router instruction; the router takes its fee by a
// system transfer and invokes pump.fun or PumpSwap by CPI, passing the program's accounts through. So the
// program's instruction is an inner one at stack height 2, and what it invokes (transfers, its event's
// self-CPI) runs at stack height 3.
import type { Acct } from '../accounts.js';
import type { Ix } from '../compile.js';
import { debit, systemTransferData } from '../instructions.js';
import { ROUTER_IX } from '../programs.js';
import type { SimState } from '../state.js';
import type { Step } from '../trace.js';

/** Basis points the router keeps of the trade's SOL (Photon and Axiom charge about 1%). */
export const ROUTER_FEE_BPS = 100n;

/** Wraps a pump.fun or PumpSwap instruction in a router instruction that invokes it by CPI. */
export function viaRouter(s: SimState, user: Acct, inner: Ix, tradeSol: bigint): Ix {
  const p = s.programs;
  const feeTo = s.pumpFixed.routerFeeRecipient;
  const fee = (tradeSol * ROUTER_FEE_BPS) / 10_000n;
  const data = Buffer.alloc(16);
  ROUTER_IX.route.copy(data, 0);
  data.writeBigUInt64LE(fee, 8);
  return {
    program: p.router,
    accounts: [
      { acct: user, signer: true, writable: true },
      { acct: feeTo, writable: true },
      { acct: p.system },
      { acct: inner.program },
      ...inner.accounts,
    ],
    data,
    run: () => {
      debit(user, fee);
      feeTo.lamports += fee;
      const steps: Step[] = [{ program: p.system, accounts: [user, feeTo], data: systemTransferData(fee) }];
      const innerSteps = inner.run?.() ?? [];
      steps.push({ program: inner.program, accounts: inner.accounts.map((m) => m.acct), data: inner.data, steps: innerSteps });
      return steps;
    },
  };
}
