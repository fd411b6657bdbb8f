// Pure: the vote a vote transaction casts, as Agave's voteSubscribe reports it (RpcVote: vote account, voted
// slots, bank hash, timestamp, signature). Agave's vote listener (solana_vote::vote_parser::parse_vote_transaction)
// reads the transaction's FIRST instruction only, which must be the vote program's; the vote account is that
// instruction's first account. Instruction layouts (bincode, u32 LE variant index first), from the vote program's
// VoteInstruction:
//   2 Vote / 6 VoteSwitch:                      Vote { slots: Vec<u64>, hash, timestamp: Option<i64> } (+ switch hash)
//   8 UpdateVoteState / 9 UpdateVoteStateSwitch: VoteStateUpdate { lockouts: Vec<(u64 slot, u32 conf)>, root: Option<u64>,
//                                                 hash, timestamp } (+ switch hash)
//   12 CompactUpdateVoteState / 13 …Switch,
//   14 TowerSync / 15 TowerSyncSwitch:           root u64 (u64::MAX: none), lockout offsets as a short_vec of
//                                                 (varint offset, u8 conf), hash, timestamp (TowerSync: + block_id)
// Slots of the lockout forms are the lockouts' slots (VoteTransaction::slots), offsets counted from the root (or 0).
// Anything else (another program first, a truncated or unknown instruction) is no vote: undefined, never a throw.
import type { TransactionEvent } from '../../schemas/codec.js';
import { base58 } from '../../schemas/base58.js';

export const VOTE_PROGRAM = 'Vote111111111111111111111111111111111111111';

export interface ParsedVote {
  /** The vote account (base-58). */
  readonly votePubkey: string;
  readonly slots: readonly bigint[];
  /** The voted bank hash (base-58). */
  readonly hash: string;
  readonly timestamp: bigint | null;
  /** The transaction's first signature (base-58). */
  readonly signature: string;
}

class Reader {
  constructor(
    private readonly b: Uint8Array,
    public p = 0,
  ) {}
  private need(n: number): void {
    if (this.p + n > this.b.length) throw new RangeError('truncated vote instruction');
  }
  u8(): number {
    this.need(1);
    return this.b[this.p++]!;
  }
  u32(): number {
    this.need(4);
    const v = Buffer.from(this.b.buffer, this.b.byteOffset + this.p, 4).readUInt32LE(0);
    this.p += 4;
    return v;
  }
  u64(): bigint {
    this.need(8);
    const v = Buffer.from(this.b.buffer, this.b.byteOffset + this.p, 8).readBigUInt64LE(0);
    this.p += 8;
    return v;
  }
  i64(): bigint {
    return BigInt.asIntN(64, this.u64());
  }
  hash(): Uint8Array {
    this.need(32);
    const h = this.b.subarray(this.p, this.p + 32);
    this.p += 32;
    return h;
  }
  /** serde_varint: 7 bits per byte, low first. */
  varint(): bigint {
    let v = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      const byte = this.u8();
      v |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return v;
    }
    throw new RangeError('varint too long');
  }
  /** solana short_vec length (compact-u16). */
  shortLen(): number {
    let v = 0;
    for (let shift = 0; shift < 21; shift += 7) {
      const byte = this.u8();
      v |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return v;
    }
    throw new RangeError('short_vec length too long');
  }
  optionI64(): bigint | null {
    return this.u8() === 0 ? null : this.i64();
  }
  /** A length that cannot exceed what is left at `size` bytes per item (a hostile length allocates nothing). */
  count(n: bigint | number, size: number): number {
    const c = Number(n);
    if (c * size > this.b.length - this.p) throw new RangeError('vote instruction length beyond its data');
    return c;
  }
}

const NO_ROOT = 0xffff_ffff_ffff_ffffn;

/** The vote of the instruction data, or undefined when it is not one of the vote forms. */
export function parseVoteInstruction(data: Uint8Array): { slots: bigint[]; hash: Uint8Array; timestamp: bigint | null } | undefined {
  const r = new Reader(data);
  try {
    const variant = r.u32();
    switch (variant) {
      case 2:
      case 6: {
        const n = r.count(r.u64(), 8);
        const slots: bigint[] = [];
        for (let i = 0; i < n; i++) slots.push(r.u64());
        return { slots, hash: r.hash(), timestamp: r.optionI64() };
      }
      case 8:
      case 9: {
        const n = r.count(r.u64(), 12);
        const slots: bigint[] = [];
        for (let i = 0; i < n; i++) {
          slots.push(r.u64());
          r.u32();
        }
        if (r.u8() !== 0) r.u64(); // root
        return { slots, hash: r.hash(), timestamp: r.optionI64() };
      }
      case 12:
      case 13:
      case 14:
      case 15: {
        const root = r.u64();
        const n = r.count(r.shortLen(), 2);
        const slots: bigint[] = [];
        let slot = root === NO_ROOT ? 0n : root;
        for (let i = 0; i < n; i++) {
          slot += r.varint();
          r.u8();
          slots.push(slot);
        }
        return { slots, hash: r.hash(), timestamp: r.optionI64() };
      }
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}

/** The vote a transaction casts (its first instruction), or undefined when it casts none. */
export function parseVoteTransaction(tx: TransactionEvent): ParsedVote | undefined {
  const ix = tx.instructions[0];
  const sig = tx.signatures[0];
  if (ix === undefined || sig === undefined) return undefined;
  const keys = [...tx.accountKeys, ...tx.loadedWritable, ...tx.loadedReadonly];
  const program = keys[ix.programIdIndex];
  const first = ix.accounts[0];
  if (program === undefined || first === undefined || base58(program) !== VOTE_PROGRAM) return undefined;
  const account = keys[first];
  if (account === undefined) return undefined;
  const vote = parseVoteInstruction(ix.data);
  if (vote === undefined) return undefined;
  return { votePubkey: base58(account), slots: vote.slots, hash: base58(vote.hash), timestamp: vote.timestamp, signature: base58(sig) };
}
