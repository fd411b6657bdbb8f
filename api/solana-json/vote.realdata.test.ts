// The vote parser on real mainnet vote transactions (block 43200000: 192 votes, the Vote instruction of 2020):
// every vote transaction casts a vote for recent slots of its own fork, from the vote account its instruction
// names, and no other transaction casts one.
import { describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { blockFromConfirmedBlock, ConfirmedBlock } from '../../schemas/yellowstone/index.js';
import { readMainnetBlock } from '../../test/support/mainnet/data.js';
import { parseVoteTransaction, VOTE_PROGRAM } from './vote.js';

describe('parseVoteTransaction on mainnet block 43200000', () => {
  const slot = 43200000n;
  const txs = blockFromConfirmedBlock(slot, ConfirmedBlock.decode(readMainnetBlock(slot))).transactions;

  it("each of the 192 votes: slots just below the block, the first instruction's vote account, a 32-byte hash", () => {
    const votes = txs.filter((t) => t.isVote);
    expect(votes).toHaveLength(192);
    for (const t of votes) {
      const v = parseVoteTransaction(t);
      expect(v, bs58.encode(t.signatures[0]!)).toBeDefined();
      const ix = t.instructions[0]!;
      expect(bs58.encode(t.accountKeys[ix.programIdIndex]!)).toBe(VOTE_PROGRAM);
      expect(v!.votePubkey).toBe(bs58.encode(t.accountKeys[ix.accounts[0]!]!));
      expect(v!.signature).toBe(bs58.encode(t.signatures[0]!));
      expect(v!.slots.length).toBeGreaterThan(0);
      for (const s of v!.slots) expect(s < slot && s > slot - 1000n, `voted slot ${s}`).toBe(true);
      expect(bs58.decode(v!.hash)).toHaveLength(32);
    }
  });

  it('no other transaction is a vote', () => {
    for (const t of txs.filter((x) => !x.isVote)) expect(parseVoteTransaction(t)).toBeUndefined();
  });
});
