// The simulated chain, one slot at a time: leader schedule per epoch, skipped slots, blocks of
// transactions with their account writes, and commitment progression (confirmed 1-2 slots after
// processed, finalized 32 slots after). A pure function of the options: the same options always
// give the same sequence of batches.
import type { ChainEvent, EpochEvent, SlotEvent } from '../../../schemas/codec.js';
import { RewardType, SlotStatus } from '../../../schemas/codec.js';
import type { SlotBatch } from '../../source.js';
import { accountWrite, BlockBuilder, type SignMode } from './block.js';
import { blockEntries, TICKS_PER_SLOT } from './entries.js';
import type { SimOptions } from './options.js';
import { rngFor, type Rng } from './rng.js';
import { createGenesis, type SimState } from './state.js';
import type { GenCtx } from './txgen/context.js';
import { initializeTx, setParamsTx } from './txgen/pump-admin.js';
import { buyTx, createTx, sellTx } from './txgen/pumpfun.js';
import { migrateTx } from './txgen/pump-migrate.js';
import { poolSellTx, swapTx } from './txgen/pumpswap.js';
import { memoTx, systemTransferTx, tokenTransferTx } from './txgen/transfers.js';
import { voteTx } from './txgen/votes.js';
import { ProcessedMessages } from './processed.js';
import { DEFAULT_PUMP_MIX } from './pump-mix.js';
import { octoberCreateTx, octoberTradeTx } from './txgen/october.js';
import { leaderSchedule, SLOTS_PER_LEADER } from './validators.js';

/** Chain time of slot 0 (2025-01-01T00:00:00Z); block time advances 400 ms per slot. */
export const GENESIS_UNIX = 1_735_689_600;
export const SLOT_CHAIN_MS = 400;
export const CONFIRM_DELAYS = [1, 2] as const;
export const FINALIZE_DELAY = 32;
const VOTE_SHARE = 2 / 3;
const RECENT_HASHES = 16;

/**
 * Non-vote traffic. pump.fun's share (bonding-curve buys and sells, creates, PumpSwap swaps of migrated coins)
 * stays the 52.9% it was; PumpSwap takes 10 points of it (ingest/sources/sim/README.md says where the figures come from).
 */
const NON_VOTE_MIX = { transfer: 24, token: 16, memo: 6, buy: 26, sell: 16, swap: 10, create: 0.6, admin: 0.3 } as const;

interface Epoch {
  epoch: number;
  firstSlot: number;
  identities: Buffer[];
  schedule: Uint32Array;
  /** Index into validators per leader run. */
  leaders: Uint32Array;
}

export class SimChain {
  private readonly s: SimState;
  private readonly rng: Rng;
  private readonly deadRng: Rng;
  private readonly stakes: number[];
  private nextSlot = 0;
  private writeVersion = 0n;
  private blockHeight = 0n;
  private epoch?: Epoch;
  private parent: { slot: bigint; blockhash: Buffer } = { slot: 0n, blockhash: Buffer.alloc(32) };
  private readonly recentHashes: Buffer[] = [];
  /** The messages processed under each of `recentHashes` (no signature twice on the chain). */
  private readonly processed = new ProcessedMessages();
  private readonly pending = new Map<number, SlotEvent[]>();

  constructor(private readonly opts: SimOptions) {
    this.s = createGenesis(opts.seed, opts.validators);
    this.rng = this.s.rng;
    this.deadRng = rngFor(opts.seed, 'dead-forks');
    this.stakes = this.s.validators.map((v) => v.stake);
  }

  get state(): SimState {
    return this.s;
  }

  /** Generates the next slot. With sign = 'skip' (fast-forward) signatures and account writes are not materialized. */
  next(sign: SignMode): SlotBatch {
    const slot = this.nextSlot++;
    const events: ChainEvent[] = [];
    if (slot === 0) events.push(...this.genesisAccounts());
    const spe = this.opts.slotsPerEpoch;
    if (slot % spe === 0 || !this.epoch) {
      this.epoch = this.makeEpoch(Math.floor(slot / spe));
      events.push({ kind: 'epochs', event: this.epochEvent(this.epoch) });
    }
    const statusLater = this.pending.get(slot) ?? [];
    this.pending.delete(slot);
    const skipped = slot > 0 && this.rng.chance(this.opts.skipRate);
    if (skipped) {
      events.push(status(slot, SlotStatus.SLOT_STATUS_SKIPPED));
      for (const e of statusLater) events.push({ kind: 'slots', event: e });
      return { slot: BigInt(slot), events };
    }
    // Dead forks draw from their own stream, so a chain without them (deadRate 0) is the chain it always was.
    if (slot > 0 && this.deadRng.chance(this.opts.deadRate)) return this.deadSlot(slot, statusLater, events);
    const block = this.buildBlock(slot, sign);
    const entries = blockEntries(this.opts.seed, BigInt(slot), this.parent.blockhash, block.b.txs.length);
    const blockhash = entries.at(-1)!.hash;
    const processed = this.processedStatus(slot, block.b, blockhash, entries.length);
    events.push({ kind: 'slots', event: processed });
    for (const e of statusLater) events.push({ kind: 'slots', event: e });
    for (const tx of block.b.txs) events.push({ kind: 'transactions', event: tx });
    for (const w of block.b.writes) events.push({ kind: 'accounts', event: w });
    if (this.opts.entries) for (const e of entries) events.push({ kind: 'entries', event: e });
    this.schedule(slot + CONFIRM_DELAYS[this.rng.int(CONFIRM_DELAYS.length)]!, status(slot, SlotStatus.SLOT_STATUS_CONFIRMED).event);
    this.schedule(slot + FINALIZE_DELAY, status(slot, SlotStatus.SLOT_STATUS_FINALIZED).event);
    this.parent = { slot: BigInt(slot), blockhash };
    this.recentHashes.push(blockhash);
    if (this.recentHashes.length > RECENT_HASHES) this.processed.forget(this.recentHashes.shift()!);
    this.blockHeight++;
    return { slot: BigInt(slot), events };
  }

  /**
   * A fork that died in replay: the validator got shreds and created a bank (Yellowstone's progress
   * statuses), streamed some entries (ticks only: no transaction of a dead fork is simulated, so no
   * view ever holds data of it), then marked it dead. The DEAD record ends the slot; the next block
   * builds on the last live one, and the bank is untouched.
   */
  /** The block's PROCESSED status: its header, and the leader's share of the fees (Agave's "fee" reward). */
  private processedStatus(slot: number, b: BlockBuilder, blockhash: Buffer, entryCount: number): SlotEvent {
    const leader = this.leaderOf(slot).identity;
    return {
      slot: BigInt(slot),
      status: SlotStatus.SLOT_STATUS_PROCESSED,
      block: {
        parentSlot: slot === 0 ? 0n : this.parent.slot,
        blockhash,
        blockHeight: this.blockHeight,
        blockTime: b.blockTime,
        leader: leader.key,
        transactionCount: b.txs.length,
        voteTransactionCount: b.votes,
        previousBlockhash: this.parent.blockhash,
        // Credited at the end of the block.
        rewards:
          b.collected > 0n
            ? [
                {
                  pubkey: leader.key,
                  lamports: b.collected,
                  postBalance: leader.lamports,
                  rewardType: RewardType.REWARD_TYPE_FEE,
                  commission: undefined,
                  commissionBps: undefined,
                },
              ]
            : [],
        executedTransactionCount: BigInt(b.txs.length),
        entryCount: BigInt(entryCount),
        numPartitions: undefined,
      },
      deadError: undefined,
      gap: undefined,
      parent: undefined,
    };
  }

  private deadSlot(slot: number, statusLater: SlotEvent[], events: ChainEvent[]): SlotBatch {
    const s = BigInt(slot);
    const progress = (st: SlotStatus): ChainEvent => ({ kind: 'slots', event: { ...status(slot, st).event, parent: this.parent.slot } });
    events.push(progress(SlotStatus.SLOT_STATUS_FIRST_SHRED_RECEIVED), progress(SlotStatus.SLOT_STATUS_CREATED_BANK));
    for (const e of statusLater) events.push({ kind: 'slots', event: e });
    // Drawn whether entries are published or not, so switching them off changes no other record.
    const tickCount = 1 + this.deadRng.int(TICKS_PER_SLOT - 1);
    if (this.opts.entries) {
      const ticks = blockEntries(this.opts.seed, s, this.parent.blockhash, 0).slice(0, tickCount);
      for (const e of ticks) events.push({ kind: 'entries', event: e });
    }
    events.push({ kind: 'slots', event: { ...status(slot, SlotStatus.SLOT_STATUS_DEAD).event, deadError: DEAD_ERROR } });
    return { slot: s, events };
  }

  private schedule(at: number, e: SlotEvent): void {
    const list = this.pending.get(at);
    if (list) list.push(e);
    else this.pending.set(at, [e]);
  }

  private leaderOf(slot: number): SimState['validators'][number] {
    const ep = this.epoch!;
    return this.s.validators[ep.leaders[Math.floor((slot - ep.firstSlot) / SLOTS_PER_LEADER)]!]!;
  }

  private buildBlock(slot: number, sign: SignMode): { b: BlockBuilder } {
    const blockTime = BigInt(GENESIS_UNIX + Math.floor((slot * SLOT_CHAIN_MS) / 1000));
    // Slot 0 has no transactions, so its (absent) recent blockhash is never read.
    const recent = this.recentHashes.length > 0 ? this.rng.pick(this.recentHashes) : this.parent.blockhash;
    const b = new BlockBuilder(
      this.opts.seed,
      BigInt(slot),
      blockTime,
      recent,
      sign,
      () => ++this.writeVersion,
      this.s.world,
      this.processed,
    );
    if (slot === 0) return { b }; // the genesis block carries no transactions
    const ctx: GenCtx = { s: this.s, b, rng: this.rng, slot, parent: this.parent, mix: this.opts.pumpMix ?? DEFAULT_PUMP_MIX };
    const mean = (this.opts.tps * SLOT_CHAIN_MS) / 1000 / (1 - this.opts.skipRate);
    const total = Math.round(mean * (0.8 + 0.4 * this.rng.float()));
    // At most one vote per validator in a block: a second vote of the same validator for the same parent is
    // the same message, so the same signature (ed25519 is deterministic), which a real chain never holds
    // twice (issue 18, item 11). The votes over that become other traffic, so the rate stays `tps`.
    let votes = Math.min(Math.round(total * VOTE_SHARE), this.s.validators.length);
    let others = total - votes;
    this.maybeMigrate(ctx);
    while (votes + others > 0) {
      if (this.rng.int(votes + others) < votes) {
        votes--;
        voteTx(ctx);
      } else {
        others--;
        this.nonVote(ctx);
      }
    }
    const leader = this.leaderOf(slot).identity;
    if (b.collected > 0n) {
      // Fee rewards are credited to the leader when the block is finished.
      leader.lamports += b.collected;
      b.write(leader);
    }
    return { b };
  }

  private nonVote(ctx: GenCtx): void {
    const kind = this.rng.weighted(NON_VOTE_MIX);
    // October 2026 shapes (txgen/october.ts) take a share of the pump trades' and creates' slots.
    if ((kind === 'buy' || kind === 'sell' || kind === 'swap') && octoberTradeTx(ctx)) return;
    if (kind === 'create' && octoberCreateTx(ctx)) return;
    switch (kind) {
      case 'transfer':
        return systemTransferTx(ctx);
      case 'token':
        return tokenTransferTx(ctx);
      case 'memo':
        return memoTx(ctx);
      case 'buy':
        return buyTx(ctx);
      case 'sell':
        return sellTx(ctx, (pos) => poolSellTx(ctx, pos));
      case 'swap':
        if (!swapTx(ctx)) buyTx(ctx); // no pool yet
        return;
      case 'create':
        return createTx(ctx);
      case 'admin':
        return this.admin(ctx);
    }
  }

  /** Rare pump.fun admin traffic: set_params, a stray initialize (6001), a premature migrate (6006). */
  private admin(ctx: GenCtx): void {
    const r = this.rng.float();
    if (r < 0.5) return setParamsTx(ctx);
    if (r < 0.8) return initializeTx(ctx);
    if (this.s.openCoins.length > 0) migrateTx(ctx, this.rng.pick(this.s.openCoins));
  }

  /** pump's migrator moves a completed curve to PumpSwap in the next block or soon after (one a block). */
  private maybeMigrate(ctx: GenCtx): void {
    const coin = this.s.pendingMigrate[0];
    if (!coin || coin.completedAt! >= ctx.slot) return;
    this.s.pendingMigrate.shift();
    migrateTx(ctx, coin);
  }

  private makeEpoch(epoch: number): Epoch {
    const spe = this.opts.slotsPerEpoch;
    const leaders = leaderSchedule(this.opts.seed, epoch, this.stakes, spe);
    const seen = new Map<number, number>();
    const identities: Buffer[] = [];
    const schedule = new Uint32Array(leaders.length);
    leaders.forEach((v, i) => {
      let idx = seen.get(v);
      if (idx === undefined) {
        idx = identities.length;
        seen.set(v, idx);
        identities.push(this.s.validators[v]!.identity.key);
      }
      schedule[i] = idx;
    });
    return { epoch, firstSlot: epoch * spe, identities, schedule, leaders };
  }

  private epochEvent(e: Epoch): EpochEvent {
    return {
      epoch: BigInt(e.epoch),
      firstSlot: BigInt(e.firstSlot),
      slotsPerEpoch: BigInt(this.opts.slotsPerEpoch),
      slotsPerLeader: SLOTS_PER_LEADER,
      identities: e.identities,
      schedule: Array.from(e.schedule),
    };
  }

  private genesisAccounts(): ChainEvent[] {
    return this.s.genesisOrder.map((a) => ({ kind: 'accounts', event: accountWrite(a, ++this.writeVersion, 0n, undefined, true) }));
  }
}

function status(slot: number, s: SlotStatus): { kind: 'slots'; event: SlotEvent } {
  return {
    kind: 'slots',
    event: { slot: BigInt(slot), status: s, block: undefined, deadError: undefined, gap: undefined, parent: undefined },
  };
}

/** How Agave reports a block that failed replay for want of ticks (BlockError::TooFewTicks). */
const DEAD_ERROR = 'InvalidBlock(TooFewTicks)';
