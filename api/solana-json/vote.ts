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
import { ByteReader } from '../../schemas/byte-reader.js';

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

/** A bincode `Option<i64>` (the vote's timestamp). */
const optionI64 = (r: ByteReader): bigint | null => (r.option('timestamp') ? r.i64('timestamp') : null);

const NO_ROOT = 0xffff_ffff_ffff_ffffn;

/** The vote of the instruction data, or undefined when it is not one of the vote forms. */
export function parseVoteInstruction(data: Uint8Array): { slots: bigint[]; hash: Uint8Array; timestamp: bigint | null } | undefined {
  const r = new ByteReader(data);
  try {
    const variant = r.u32('vote instruction');
    switch (variant) {
      case 2:
      case 6: {
        const n = r.count(r.u64('slot count'), 8, 'slots');
        const slots: bigint[] = [];
        for (let i = 0; i < n; i++) slots.push(r.u64('slot'));
        return { slots, hash: r.view(32, 'hash'), timestamp: optionI64(r) };
      }
      case 8:
      case 9: {
        const n = r.count(r.u64('lockout count'), 12, 'lockouts');
        const slots: bigint[] = [];
        for (let i = 0; i < n; i++) {
          slots.push(r.u64('lockout slot'));
          r.u32('confirmation count');
        }
        if (r.option('root')) r.u64('root');
        return { slots, hash: r.view(32, 'hash'), timestamp: optionI64(r) };
      }
      case 12:
      case 13:
      case 14:
      case 15: {
        const root = r.u64('root');
        const n = r.count(r.shortU16('lockout count'), 2, 'lockouts');
        const slots: bigint[] = [];
        let slot = root === NO_ROOT ? 0n : root;
        for (let i = 0; i < n; i++) {
          slot += r.varint('lockout offset');
          r.u8('confirmation count');
          slots.push(slot);
        }
        return { slots, hash: r.view(32, 'hash'), timestamp: optionI64(r) };
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
