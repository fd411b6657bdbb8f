// Mainnet's shape for the soak (pure): the figures the recorded load reproduces, each with where it comes from,
// and the simulator options that make a recording of `multiple` x mainnet. The simulator's own mix (vote share,
// account writes per transaction, account layouts, transaction sizes with meta) is measured on each recording
// (recording.ts) and printed with it; bench/README.md "Soak" keeps the table.
import { DEFAULT_SIM_OPTIONS, type SimOptions } from '../../ingest/sources/sim/index.js';

export const MAINNET = {
  /** Slots per second: 50 block_meta over 20 s of block time in the recorded stream (slots 398202772-398202821,
   * Feb 2026, `../shared/data/mainnet/stream-398202772.subscribe-updates.bin`); Solana's 400 ms target. */
  slotMs: 400,
  /** Transactions per block: 1,228 on average (1,012-1,688) over those 50 blocks (block_meta
   * executed_transaction_count), i.e. 3,071 tx/s; Solana's public performance samples say 2,500-4,500 tx/s. */
  txPerBlock: 1228,
  /** Entries per block: 797 on average in that stream (39,840 entry updates over 50 blocks). The simulator makes
   * 64 ticks plus one entry per 1-8 transactions (~340 at this rate): fewer, each small (~80 B), said so. */
  entriesPerBlock: 797,
  /** Share of slots without a block: none of those 50 consecutive slots was skipped; Solana's public dashboards
   * (validators.app, Solana Beach) show a cluster skip rate of a few percent: 3% here. */
  skipRate: 0.03,
  /** Agave's vote account (`VoteStateVersions::Current`, `VoteState::size_of()`): 3,762 bytes. The simulator keeps
   * a 93-byte vote state; the recording pads every vote account write to this size, as mainnet's are. */
  voteAccountBytes: 3762,
  /** Votes are about 70% of mainnet's transactions (issue 22; 192 of 208 in block 43200000 of 2020); the simulator
   * makes about two thirds while validators >= votes per block, so validators are sized for that. */
  voteShare: 2 / 3,
} as const;

export interface LoadShape {
  multiple: number;
  /** Chain transactions per second of the recording. */
  tps: number;
  sim: SimOptions;
  voteAccountBytes: number;
}

/** The simulator options of a recording at `multiple` x mainnet: `slots` slots from genesis, unpaced, fast
 * signatures (nothing verifies them on the Yellowstone path), enough validators for the vote share. */
export function loadShape(multiple: number, slots: number, seed = 22): LoadShape {
  if (!(Number.isFinite(multiple) && multiple > 0 && multiple <= 20)) {
    throw new Error(`soak: multiple must be a number in (0, 20], got ${String(multiple)}`);
  }
  if (!(Number.isInteger(slots) && slots >= 2)) throw new Error(`soak: slots must be an integer >= 2, got ${String(slots)}`);
  const tps = Math.round(((MAINNET.txPerBlock * 1000) / MAINNET.slotMs) * multiple);
  const votesPerBlock = (tps * MAINNET.slotMs * MAINNET.voteShare) / 1000;
  return {
    multiple,
    tps,
    voteAccountBytes: MAINNET.voteAccountBytes,
    sim: {
      ...DEFAULT_SIM_OPTIONS,
      seed,
      slotMs: 0,
      tps,
      skipRate: MAINNET.skipRate,
      fast: true,
      maxSlots: slots,
      // One vote per validator per block: 20% more validators than votes a block keeps the vote share.
      validators: Math.min(5000, Math.max(50, Math.ceil(votesPerBlock * 1.2))),
    },
  };
}

/** Slots a run of `minutes` needs at the chain's pace, plus `spareSeconds` for the service to start and catch up. */
export function slotsFor(minutes: number, spareSeconds = 30): number {
  return Math.ceil(((minutes * 60 + spareSeconds) * 1000) / MAINNET.slotMs);
}
