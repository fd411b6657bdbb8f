// Issue 21, item 5: what the Agave read methods' integration test needs beyond the simulator's traffic,
// and the expected answers it computes from the records it consumed (independently of the views).
//
// The simulator pays no inflation rewards and approves no delegates, so after its run the test publishes a
// hand-made extension of its chain, on the same topics:
//   E (epoch 6, non-partitioned rewards): epoch record, a block paying VOTE a voting and STAKE_1 a staking
//     reward (and the leader a fee reward), a mint with token accounts (two with a delegate), the feature
//     account that raises the stake minimum delegation, and FINALIZED for every simulated block still short of it;
//   E+32 (epoch 7, partitioned: 2 partitions): VOTE's voting reward and a decoy staking reward of STAKE_1
//     (Agave ignores staking rewards in a partitioned boundary block), E+33 pays STAKE_2, E+34 STAKE_1;
//     finalized up to E+33, E+34 only confirmed;
//   E+66 (in epoch 8, confirmed): a block whose parent E+65 is not held: the history has a gap at epoch 8's start.
import bs58 from 'bs58';
import { AccountEvent, RewardType, SlotEvent, SlotStatus, type ChainEvent, type Reward } from '../../../schemas/codec.js';
import { TOKEN_PROGRAM } from '../../../schemas/programs.js';
import { b58, epoch, keyOf } from '../projector/events.js';
import type { SlotBatch } from '../projector/chain.js';
import type { ConsumedRecord } from '../projector/expected.js';
import { mintData, tokenAccountData } from './chain.js';

export const SIM_SLOTS = 192;
export const SLOTS_PER_EPOCH = 32;
export const E = SIM_SLOTS; // first slot of epoch 6
export const VOTE = b58('agave-vote');
export const STAKE_1 = b58('agave-stake-1');
export const STAKE_2 = b58('agave-stake-2');
export const NOBODY = b58('agave-nobody');
export const LEADERS = [b58('agave-leader-1'), b58('agave-leader-2')];
export const MINT = b58('agave-mint'); // SPL Token, 6 decimals
export const MINT_SUPPLY = 123_456_789n;
export const DELEGATE = b58('agave-delegate');
export const TOKEN_ACCOUNTS = [
  { pubkey: b58('agave-ta-1'), owner: b58('agave-w-1'), amount: 500n, delegate: true },
  { pubkey: b58('agave-ta-2'), owner: b58('agave-w-2'), amount: 900n, delegate: true },
  { pubkey: b58('agave-ta-3'), owner: b58('agave-w-3'), amount: 900n, delegate: false },
];
export const FEATURE_1_SOL = '9onWzzvCzNC2jfhxxeqRgs5q7nFAAKpCUvkj6T6GJK9i';
const FEATURE_OWNER = 'Feature111111111111111111111111111111111111';

export const REWARDS = {
  epoch5Vote: { lamports: 1000n, postBalance: 5000n, commission: 7 },
  epoch5Stake1: { lamports: 2500n, postBalance: 10_000n, commission: 7 },
  epoch6Vote: { lamports: 1100n, postBalance: 6100n, commission: 7 },
  epoch6Stake1Decoy: { lamports: 1n, postBalance: 1n, commission: 7 },
  epoch6Stake2: { lamports: 300n, postBalance: 3000n, commission: 5 },
  epoch6Stake1: { lamports: 2600n, postBalance: 12_600n, commission: 7 },
};

const reward = (pubkey: string, type: RewardType, r: { lamports: bigint; postBalance: bigint; commission?: number }): Reward => ({
  pubkey: Buffer.from(bs58decode(pubkey)),
  lamports: r.lamports,
  postBalance: r.postBalance,
  rewardType: type,
  commission: r.commission,
  commissionBps: undefined,
});

const bs58decode = (s: string): Uint8Array => bs58.decode(s);

function account(pubkey: string, owner: string, slot: number, writeVersion: number, lamports: bigint, data: Buffer): ChainEvent {
  return {
    kind: 'accounts',
    event: AccountEvent.fromPartial({
      pubkey: Buffer.from(bs58decode(pubkey)),
      owner: Buffer.from(bs58decode(owner)),
      slot: BigInt(slot),
      writeVersion: BigInt(writeVersion),
      lamports,
      data,
      rentEpoch: 18446744073709551615n,
      executable: false,
    }),
  };
}

function block(slot: number, parent: number, height: number, leader: string, rewards: Reward[], numPartitions?: number): ChainEvent {
  return {
    kind: 'slots',
    event: SlotEvent.fromPartial({
      slot: BigInt(slot),
      status: SlotStatus.SLOT_STATUS_PROCESSED,
      block: {
        parentSlot: BigInt(parent),
        blockhash: keyOf(`agave-blockhash-${slot}`),
        blockHeight: BigInt(height),
        blockTime: BigInt(1_735_689_600 + Math.floor(slot * 0.4)),
        leader: Buffer.from(bs58decode(leader)),
        previousBlockhash: keyOf(`agave-blockhash-${parent}`),
        rewards,
        numPartitions: numPartitions === undefined ? undefined : BigInt(numPartitions),
      },
    }),
  };
}

const status = (slot: number, s: SlotStatus): ChainEvent => ({
  kind: 'slots',
  event: SlotEvent.fromPartial({ slot: BigInt(slot), status: s }),
});

/** What the simulated run's records say about its blocks (test code, independent of the views). */
export interface SimChain {
  /** Produced blocks (a PROCESSED record with block meta, the slot never skipped or dead). */
  blocks: Map<number, { parent: number; height: number; leader: string; blockhash: string; txCount: number }>;
  finalized: Set<number>;
  /** Epoch records: first slot, length, leaders per 4-slot run. */
  epochs: { epoch: number; firstSlot: number; slotsPerEpoch: number; slotsPerLeader: number; leaders: string[] }[];
}

export function simChain(records: readonly ConsumedRecord[]): SimChain {
  const blocks: SimChain['blocks'] = new Map();
  const gone = new Set<number>();
  const finalized = new Set<number>();
  const epochs: SimChain['epochs'] = [];
  for (const r of records) {
    const e = r.event;
    if (e.kind === 'slots') {
      const s = Number(e.event.slot);
      if (e.event.status === SlotStatus.SLOT_STATUS_SKIPPED || e.event.status === SlotStatus.SLOT_STATUS_DEAD) gone.add(s);
      if (e.event.status === SlotStatus.SLOT_STATUS_FINALIZED) finalized.add(s);
      const b = e.event.block;
      if (e.event.status === SlotStatus.SLOT_STATUS_PROCESSED && b !== undefined) {
        blocks.set(s, {
          parent: Number(b.parentSlot),
          height: Number(b.blockHeight),
          leader: bs58.encode(b.leader),
          blockhash: bs58.encode(b.blockhash),
          txCount: b.transactionCount,
        });
      }
    } else if (e.kind === 'epochs') {
      const ids = e.event.identities.map((k) => bs58.encode(k));
      epochs.push({
        epoch: Number(e.event.epoch),
        firstSlot: Number(e.event.firstSlot),
        slotsPerEpoch: Number(e.event.slotsPerEpoch),
        slotsPerLeader: e.event.slotsPerLeader,
        leaders: e.event.schedule.map((i) => ids[i]!),
      });
    }
  }
  for (const s of gone) blocks.delete(s);
  return { blocks, finalized, epochs };
}

/** The leader of `slot` from the epoch records, or undefined when no epoch holds it. */
export function leaderOf(chain: SimChain, slot: number): string | undefined {
  const e = chain.epochs.find((x) => x.firstSlot <= slot && slot < x.firstSlot + x.slotsPerEpoch);
  return e?.leaders[Math.floor((slot - e.firstSlot) / e.slotsPerLeader)];
}

/** The extension (module comment), continuing the simulated chain `sim`. */
export function extension(sim: SimChain): SlotBatch[] {
  const last = Math.max(...sim.blocks.keys());
  const h = sim.blocks.get(last)!.height;
  const schedule = Array.from({ length: SLOTS_PER_EPOCH / 4 }, (_, i) => i % 2);
  const epochEvent = (n: number, first: number): ChainEvent => ({
    kind: 'epochs',
    event: { ...epoch(n, first, [], schedule), identities: LEADERS.map((l) => Buffer.from(bs58decode(l))) },
  });
  let wv = 1_000_000;
  const e6: ChainEvent[] = [epochEvent(6, E)];
  // Every simulated block short of finalized becomes finalized, so "finalized head" means the whole chain below it.
  for (const s of [...sim.blocks.keys()].sort((a, b) => a - b))
    if (!sim.finalized.has(s)) e6.push(status(s, SlotStatus.SLOT_STATUS_FINALIZED));
  e6.push(account(MINT, TOKEN_PROGRAM, E, wv++, 1_461_600n, mintData(6, MINT_SUPPLY)));
  for (const t of TOKEN_ACCOUNTS) {
    const d = tokenAccountData(MINT, t.owner, t.amount);
    if (t.delegate) {
      d.writeUInt32LE(1, 72);
      Buffer.from(bs58decode(DELEGATE)).copy(d, 76);
      d.writeBigUInt64LE(t.amount, 121);
    }
    e6.push(account(t.pubkey, TOKEN_PROGRAM, E, wv++, 2_039_280n, d));
  }
  const feature = Buffer.alloc(9);
  feature[0] = 1;
  feature.writeBigUInt64LE(BigInt(E), 1);
  e6.push(account(FEATURE_1_SOL, FEATURE_OWNER, E, wv, 953_520n, feature));
  e6.push(
    block(E, last, h + 1, LEADERS[0]!, [
      reward(LEADERS[0]!, RewardType.REWARD_TYPE_FEE, { lamports: 5000n, postBalance: 1n }),
      reward(VOTE, RewardType.REWARD_TYPE_VOTING, REWARDS.epoch5Vote),
      reward(STAKE_1, RewardType.REWARD_TYPE_STAKING, REWARDS.epoch5Stake1),
    ]),
    status(E, SlotStatus.SLOT_STATUS_CONFIRMED),
    status(E, SlotStatus.SLOT_STATUS_FINALIZED),
  );
  const e7: ChainEvent[] = [
    epochEvent(7, E + 32),
    block(
      E + 32,
      E,
      h + 2,
      LEADERS[0]!,
      [
        reward(VOTE, RewardType.REWARD_TYPE_VOTING, REWARDS.epoch6Vote),
        reward(STAKE_1, RewardType.REWARD_TYPE_STAKING, REWARDS.epoch6Stake1Decoy),
      ],
      2,
    ),
    block(E + 33, E + 32, h + 3, LEADERS[1]!, [reward(STAKE_2, RewardType.REWARD_TYPE_STAKING, REWARDS.epoch6Stake2)]),
    block(E + 34, E + 33, h + 4, LEADERS[1]!, [reward(STAKE_1, RewardType.REWARD_TYPE_STAKING, REWARDS.epoch6Stake1)]),
    ...[E + 32, E + 33, E + 34].map((s) => status(s, SlotStatus.SLOT_STATUS_CONFIRMED)),
    ...[E + 32, E + 33].map((s) => status(s, SlotStatus.SLOT_STATUS_FINALIZED)),
  ];
  const e8: ChainEvent[] = [
    epochEvent(8, E + 64),
    block(E + 66, E + 65, h + 5, LEADERS[0]!, []),
    status(E + 66, SlotStatus.SLOT_STATUS_CONFIRMED),
  ];
  return [
    { slot: BigInt(E), events: e6 },
    { slot: BigInt(E + 32), events: e7 },
    { slot: BigInt(E + 66), events: e8 },
  ];
}
