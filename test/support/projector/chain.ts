// A small hand-made chain for the projector's integration tests and benchmark: skipped slots,
// confirmed and finalized trailing processed, epochs, lookup-loaded keys, errors, memos, and
// accounts that change owner, close and reopen. Deterministic for a seed. (Not the simulator:
// the projector is tested against events whose every corner is known.)
import type { ChainEvent } from '../../../schemas/codec.js';
import { SlotStatus } from '../../../schemas/codec.js';
import { account, epoch, keyOf, slotStatus, tx } from './events.js';

export interface SlotBatch {
  slot: bigint;
  events: ChainEvent[];
}

export interface ChainOptions {
  slots: number;
  /** Most transactions per produced slot. */
  txPerSlot: number;
  /** Account writes per produced slot. */
  writesPerSlot?: number;
  seed?: number;
  slotsPerEpoch?: number;
  /** Distinct accounts written (fewer means more owner changes and closures per account). */
  accounts?: number;
  /** Slot of the first batch (default 1). */
  firstSlot?: number;
}

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
}

export const CONFIRM_LAG = 2;
export const FINALIZE_LAG = 5;
export const PROGRAMS = ['prog-a', 'prog-b', 'prog-c'];

export function* makeChain(o: ChainOptions): Generator<SlotBatch> {
  const r = rng(o.seed ?? 1);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const slotsPerEpoch = o.slotsPerEpoch ?? 32;
  const nAccounts = o.accounts ?? 40;
  const writesPerSlot = o.writesPerSlot ?? 3;
  const wallets = Array.from({ length: 30 }, (_, i) => `wallet-${i}`);
  const produced: number[] = [];
  let height = 0;
  let writeVersion = 0;
  let sig = 0;
  const first = o.firstSlot ?? 1;
  for (let slot = first; slot < first + o.slots; slot++) {
    const events: ChainEvent[] = [];
    if (slot % slotsPerEpoch === 0 || slot === first) {
      const e = Math.floor(slot / slotsPerEpoch);
      const runs = slotsPerEpoch / 4;
      events.push({
        kind: 'epochs',
        event: epoch(
          e,
          e * slotsPerEpoch,
          ['v0', 'v1', 'v2'],
          Array.from({ length: runs }, (_, i) => (i + e) % 3),
        ),
      });
    }
    const skipped = slot > first && r() < 0.1;
    const nTx = skipped ? 0 : Math.floor(r() * (o.txPerSlot + 1));
    const blockTime = 1_700_000_000 + Math.floor(slot * 0.4);
    const txs: ChainEvent[] = [];
    let votes = 0;
    for (let i = 0; i < nTx; i++) {
      const isVote = r() < 0.2;
      if (isVote) votes++;
      const keys = [pick(wallets), pick(wallets), isVote ? 'vote-program' : pick(PROGRAMS)];
      const versioned = r() < 0.3;
      txs.push({
        kind: 'transactions',
        event: tx({
          slot,
          index: i,
          sig: `sig-${o.seed ?? 1}-${sig++}`,
          keys,
          loadedWritable: versioned ? [pick(wallets)] : [],
          loadedReadonly: versioned ? ['lookup-only-' + (sig % 7)] : [],
          err: r() < 0.1 ? `{"InstructionError":[0,{"Custom":${6000 + (sig % 5)}}]}` : undefined,
          memos: r() < 0.15 ? ['memo ' + sig, ...(r() < 0.3 ? ['second ✓'] : [])] : [],
          blockTime: r() < 0.95 ? blockTime : undefined,
          isVote,
        }),
      });
    }
    if (skipped) events.push({ kind: 'slots', event: slotStatus(slot, SlotStatus.SLOT_STATUS_SKIPPED) });
    else {
      events.push({
        kind: 'slots',
        event: slotStatus(slot, SlotStatus.SLOT_STATUS_PROCESSED, {
          parent: produced.length > 0 ? produced[produced.length - 1]! : slot - 1,
          height: ++height,
          time: r() < 0.97 ? blockTime : undefined,
          txs: nTx,
          votes,
        }),
      });
      produced.push(slot);
    }
    // Commitments trail: slots CONFIRM_LAG and FINALIZE_LAG back get their status now.
    for (const [lag, status] of [
      [CONFIRM_LAG, SlotStatus.SLOT_STATUS_CONFIRMED],
      [FINALIZE_LAG, SlotStatus.SLOT_STATUS_FINALIZED],
    ] as const) {
      const s = slot - lag;
      if (produced.includes(s)) events.push({ kind: 'slots', event: slotStatus(s, status) });
    }
    events.push(...txs);
    if (!skipped) {
      for (let w = 0; w < writesPerSlot; w++) {
        const n = Math.floor(r() * nAccounts);
        const roll = r();
        // Owners drift between programs; some writes close the account (0 lamports), later ones reopen it.
        const owner = PROGRAMS[(n + Math.floor(slot / 7) + (roll < 0.2 ? 1 : 0)) % PROGRAMS.length]!;
        const lamports = roll > 0.85 ? 0n : BigInt(1_000_000 + Math.floor(r() * 1_000_000));
        const data = lamports === 0n ? Buffer.alloc(0) : Buffer.concat([keyOf(`data-${slot}-${w}`).subarray(0, 8 + (n % 17))]);
        events.push({
          kind: 'accounts',
          event: account({ pubkey: `acct-${n}`, owner, slot, writeVersion: ++writeVersion, lamports, data }),
        });
      }
    }
    yield { slot: BigInt(slot), events };
  }
}
