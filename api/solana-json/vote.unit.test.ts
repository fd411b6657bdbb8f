// The vote of a vote transaction (Agave's vote_parser): every instruction form voteSubscribe reports, built
// here byte by byte from the vote program's layouts, and what is not a vote.
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { TransactionEvent } from '../../schemas/codec.js';
import { parseVoteInstruction, parseVoteTransaction, VOTE_PROGRAM } from './vote.js';

const HASH = Buffer.alloc(32, 7);
const u32 = (v: number) => Buffer.from(new Uint32Array([v]).buffer);
const u64 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return b;
};
const i64 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigInt64LE(v);
  return b;
};
const some = (v: bigint) => Buffer.concat([Buffer.from([1]), i64(v)]);
const NONE = Buffer.from([0]);
const varint = (v: bigint) => {
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return Buffer.from(out);
};

/** TowerSync/CompactUpdateVoteState: root, short_vec of (varint offset, u8 conf), hash, timestamp [, block_id]. */
function compact(variant: number, root: bigint, offsets: bigint[], ts: Buffer, extra: Buffer[] = []): Buffer {
  return Buffer.concat([
    u32(variant),
    u64(root),
    Buffer.from([offsets.length]),
    ...offsets.map((o, i) => Buffer.concat([varint(o), Buffer.from([31 - i])])),
    HASH,
    ts,
    ...extra,
  ]);
}

describe('parseVoteInstruction', () => {
  it('Vote and VoteSwitch: the slots, hash and timestamp', () => {
    const vote = Buffer.concat([u32(2), u64(2n), u64(10n), u64(11n), HASH, some(1_700_000_000n)]);
    expect(parseVoteInstruction(vote)).toEqual({ slots: [10n, 11n], hash: HASH, timestamp: 1_700_000_000n });
    const sw = Buffer.concat([u32(6), u64(1n), u64(12n), HASH, NONE, Buffer.alloc(32, 9)]);
    expect(parseVoteInstruction(sw)).toMatchObject({ slots: [12n], timestamp: null });
  });

  it('UpdateVoteState: the lockouts slots, the root skipped', () => {
    const lockouts = Buffer.concat([u64(100n), u32(2), u64(101n), u32(1)]);
    const data = Buffer.concat([u32(8), u64(2n), lockouts, Buffer.from([1]), u64(90n), HASH, some(5n)]);
    expect(parseVoteInstruction(data)).toEqual({ slots: [100n, 101n], hash: HASH, timestamp: 5n });
  });

  it('CompactUpdateVoteState and TowerSync: offsets counted from the root (0 without one), 2-byte varints', () => {
    expect(parseVoteInstruction(compact(12, 1000n, [5n, 1n, 200n], some(-1n)))).toMatchObject({
      slots: [1005n, 1006n, 1206n],
      timestamp: -1n,
    });
    const tower = compact(14, 398202700n, [1n, 1n, 2n], NONE, [Buffer.alloc(32, 3)]);
    expect(parseVoteInstruction(tower)).toEqual({ slots: [398202701n, 398202702n, 398202704n], hash: HASH, timestamp: null });
    const noRoot = compact(15, 0xffffffffffffffffn, [7n], NONE, [Buffer.alloc(32, 3), Buffer.alloc(32, 4)]);
    expect(parseVoteInstruction(noRoot)).toMatchObject({ slots: [7n] });
  });

  it('not a vote: other variants, truncated data, a length beyond the data', () => {
    expect(parseVoteInstruction(u32(0))).toBeUndefined(); // InitializeAccount
    expect(parseVoteInstruction(Buffer.concat([u32(2), u64(1n), u64(10n)]))).toBeUndefined();
    expect(parseVoteInstruction(Buffer.concat([u32(2), u64(1n << 40n), HASH]))).toBeUndefined();
    expect(parseVoteInstruction(Buffer.alloc(2))).toBeUndefined();
  });
});

describe('parseVoteTransaction', () => {
  const voteAccount = Buffer.alloc(32, 4);
  const identity = Buffer.alloc(32, 5);
  const program = Buffer.from(bs58.decode(VOTE_PROGRAM));
  const data = Buffer.concat([u32(2), u64(1n), u64(10n), HASH, some(3n)]);
  const tx = (programIndex: number) =>
    TransactionEvent.fromPartial({
      slot: 11n,
      signatures: [Buffer.alloc(64, 6)],
      accountKeys: [identity, voteAccount, program],
      instructions: [{ programIdIndex: programIndex, accounts: Buffer.from([1, 0]), data }],
    });

  it("RpcVote: the first instruction's first account, the voted slots, the hash, the first signature", () => {
    expect(parseVoteTransaction(tx(2))).toEqual({
      votePubkey: bs58.encode(voteAccount),
      slots: [10n],
      hash: bs58.encode(HASH),
      timestamp: 3n,
      signature: bs58.encode(Buffer.alloc(64, 6)),
    });
  });

  it('a first instruction of another program is no vote', () => {
    expect(parseVoteTransaction(tx(0))).toBeUndefined();
    expect(parseVoteTransaction(TransactionEvent.fromPartial({ signatures: [Buffer.alloc(64)] }))).toBeUndefined();
  });
});
