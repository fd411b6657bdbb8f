// Hand-made events for the projector's tests: deterministic keys from a label, so tests read clearly.
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import { AccountEvent, EpochEvent, SlotEvent, SlotStatus, TransactionEvent } from '../../../schemas/codec.js';

/** 32 (or `size`) bytes derived from a label. */
export function keyOf(label: string, size = 32): Buffer {
  const out = Buffer.alloc(size);
  for (let i = 0; i * 32 < size; i++)
    createHash('sha256')
      .update(`${label}#${i}`)
      .digest()
      .copy(out, i * 32);
  return out;
}

export const b58 = (label: string, size = 32): string => bs58.encode(keyOf(label, size));

export function tx(p: {
  slot: number;
  index: number;
  sig: string;
  keys: string[];
  loadedWritable?: string[];
  loadedReadonly?: string[];
  err?: string;
  memos?: string[];
  blockTime?: number;
  isVote?: boolean;
}): TransactionEvent {
  return TransactionEvent.fromPartial({
    slot: BigInt(p.slot),
    index: p.index,
    signatures: [keyOf(p.sig, 64)],
    accountKeys: p.keys.map((k) => keyOf(k)),
    loadedWritable: (p.loadedWritable ?? []).map((k) => keyOf(k)),
    loadedReadonly: (p.loadedReadonly ?? []).map((k) => keyOf(k)),
    recentBlockhash: keyOf('blockhash'),
    err: p.err,
    memos: p.memos ?? [],
    blockTime: p.blockTime === undefined ? undefined : BigInt(p.blockTime),
    isVote: p.isVote ?? false,
    fee: 5000n,
  });
}

export function account(p: {
  pubkey: string;
  owner: string;
  slot: number;
  writeVersion: number;
  lamports: bigint | number;
  data?: Buffer;
  rentEpoch?: bigint;
}): AccountEvent {
  return AccountEvent.fromPartial({
    pubkey: keyOf(p.pubkey),
    owner: keyOf(p.owner),
    slot: BigInt(p.slot),
    writeVersion: BigInt(p.writeVersion),
    lamports: BigInt(p.lamports),
    data: p.data ?? Buffer.alloc(0),
    rentEpoch: p.rentEpoch ?? 18446744073709551615n,
    executable: false,
  });
}

export function slotStatus(
  slot: number,
  status: SlotStatus,
  block?: { parent: number; height: number; time?: number; txs?: number; votes?: number },
): SlotEvent {
  return SlotEvent.fromPartial({
    slot: BigInt(slot),
    status,
    block: block && {
      parentSlot: BigInt(block.parent),
      blockhash: keyOf(`blockhash-${slot}`),
      blockHeight: BigInt(block.height),
      blockTime: block.time === undefined ? undefined : BigInt(block.time),
      leader: keyOf(`leader-${slot % 3}`),
      transactionCount: block.txs ?? 0,
      voteTransactionCount: block.votes ?? 0,
    },
  });
}

export function epoch(n: number, firstSlot: number, leaders: string[], schedule: number[]): EpochEvent {
  return EpochEvent.fromPartial({
    epoch: BigInt(n),
    firstSlot: BigInt(firstSlot),
    slotsPerEpoch: BigInt(schedule.length * 4),
    slotsPerLeader: 4,
    identities: leaders.map((l) => keyOf(l)),
    schedule,
  });
}
