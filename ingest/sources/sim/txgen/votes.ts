// Vote transactions: legacy Vote instruction (variant 2) from each validator in turn, voting for the
// parent block. Two thirds of mainnet's transactions look like this.
import { recordVote } from '../layouts.js';
import type { GenCtx } from './context.js';

export function voteTx(ctx: GenCtx): void {
  const { s, b, parent } = ctx;
  const v = s.validators[s.voteCursor++ % s.validators.length]!;
  // bincode Vote { slots: Vec<u64>, hash, timestamp: Option<i64> } after the u32 variant index.
  const data = Buffer.alloc(4 + 8 + 8 + 32 + 1 + 8);
  data.writeUInt32LE(2, 0);
  data.writeBigUInt64LE(1n, 4);
  data.writeBigUInt64LE(parent.slot, 12);
  parent.blockhash.copy(data, 20);
  data[52] = 1;
  data.writeBigInt64LE(b.blockTime, 53);
  const p = s.programs;
  b.submit({
    payer: v.identity,
    isVote: true,
    infallible: true,
    ixs: [
      {
        program: p.vote,
        accounts: [{ acct: v.vote, writable: true }, { acct: p.slotHashes }, { acct: p.clock }, { acct: v.identity, signer: true }],
        data,
        run: () => recordVote(v.vote.data, parent.slot),
      },
    ],
  });
}
