// Helpers of the PubSub stream tests (slotsUpdates, block, vote, transaction): a vote transaction as a validator
// sends it (the vote program's Vote instruction), and reference matchers that say, from the published events
// alone, what each subscription must receive. They share no code with the service's filters.
import bs58 from 'bs58';
import { SlotStatus, TransactionEvent, type ChainEvent } from '../../../schemas/codec.js';
import type { SlotBatch } from '../projector/chain.js';

export const VOTE_PROGRAM = Buffer.from(bs58.decode('Vote111111111111111111111111111111111111111'));

/** A vote for `voted` (its bank hash `hash`), from `identity` for `voteAccount`: Vote { slots, hash, timestamp }. */
export function voteTransaction(
  slot: bigint,
  voteAccount: Buffer,
  identity: Buffer,
  voted: bigint,
  hash: Buffer,
  timestamp: bigint,
  sig: Buffer,
): TransactionEvent {
  const data = Buffer.alloc(4 + 8 + 8 + 32 + 1 + 8);
  data.writeUInt32LE(2, 0);
  data.writeBigUInt64LE(1n, 4);
  data.writeBigUInt64LE(voted, 12);
  hash.copy(data, 20);
  data[52] = 1;
  data.writeBigInt64LE(timestamp, 53);
  return TransactionEvent.fromPartial({
    slot,
    index: 0,
    signatures: [sig],
    numRequiredSignatures: 1,
    numReadonlyUnsignedAccounts: 1,
    accountKeys: [identity, voteAccount, VOTE_PROGRAM],
    recentBlockhash: hash,
    instructions: [{ programIdIndex: 2, accounts: Buffer.from([1, 0]), data }],
    isVote: true,
    fee: 5000n,
  });
}

/** Everything the batches published, by kind. */
export interface Published {
  /** Every transaction, in publishing order. */
  readonly transactions: readonly TransactionEvent[];
  /** Produced slots (a processed record with block meta). */
  readonly produced: ReadonlySet<bigint>;
  /** Slots per status reached (CONFIRMED, FINALIZED, DEAD, ...). */
  readonly status: ReadonlyMap<SlotStatus, ReadonlySet<bigint>>;
}

export function published(batches: readonly SlotBatch[]): Published {
  const transactions: TransactionEvent[] = [];
  const produced = new Set<bigint>();
  const status = new Map<SlotStatus, Set<bigint>>();
  for (const b of batches) {
    for (const e of b.events as ChainEvent[]) {
      if (e.kind === 'transactions') transactions.push(e.event);
      if (e.kind !== 'slots') continue;
      if (e.event.status === SlotStatus.SLOT_STATUS_PROCESSED && e.event.block !== undefined) produced.add(e.event.slot);
      let set = status.get(e.event.status);
      if (!set) status.set(e.event.status, (set = new Set()));
      set.add(e.event.slot);
    }
  }
  return { transactions, produced, status };
}

/** The slots a commitment level reached and that were never dead (a dead fork reaches no level above processed). */
export function slotsAt(p: Published, level: 'processed' | 'confirmed' | 'finalized'): bigint[] {
  const dead = p.status.get(SlotStatus.SLOT_STATUS_DEAD) ?? new Set();
  const at =
    level === 'processed'
      ? p.produced
      : (p.status.get(level === 'confirmed' ? SlotStatus.SLOT_STATUS_CONFIRMED : SlotStatus.SLOT_STATUS_FINALIZED) ?? new Set());
  return [...at].filter((s) => p.produced.has(s) && (level === 'processed' || !dead.has(s))).sort((a, b) => (a < b ? -1 : 1));
}

const keysOf = (t: TransactionEvent): Buffer[] => [...t.accountKeys, ...t.loadedWritable, ...t.loadedReadonly].map((k) => Buffer.from(k));
export const mentions = (t: TransactionEvent, key: Buffer): boolean => keysOf(t).some((k) => k.equals(key));

/** Helius's filter, read from its documentation: every set member must pass. */
export interface HeliusFilter {
  vote?: boolean;
  failed?: boolean;
  accountInclude?: Buffer[];
  accountExclude?: Buffer[];
  accountRequired?: Buffer[];
}

export function heliusMatches(t: TransactionEvent, f: HeliusFilter): boolean {
  if (f.vote !== undefined && t.isVote !== f.vote) return false;
  const failed = t.err !== undefined && t.err !== '';
  if (f.failed !== undefined && failed !== f.failed) return false;
  if (f.accountInclude?.length && !f.accountInclude.some((k) => mentions(t, k))) return false;
  if (f.accountExclude?.some((k) => mentions(t, k))) return false;
  if (f.accountRequired?.length && !f.accountRequired.every((k) => mentions(t, k))) return false;
  return true;
}

export const sigOf = (t: TransactionEvent): string => bs58.encode(t.signatures[0]!);
