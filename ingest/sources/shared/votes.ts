// The ingest's vote selection (--votes, issue 33 item 4): many deployments never serve votes, which are
// about two thirds of mainnet's transactions and, through the vote accounts' 3.7 KB states, most account
// writes by bytes. `exclude` drops, before anything is published, every vote transaction (is_vote) and
// every write of an account the Vote program owns. Sources whose upstream can filter do it there too
// (Yellowstone's `vote: false`); this pass is what makes the selection exact whatever the upstream does
// (no upstream filters account writes by owner). The fee payer's balance change of a vote transaction is
// kept: it is the balance of a real account, and dropping it would leave that account's state wrong.
// Block meta keeps the counts the source knows (the chain's vote count included): they describe the block.
import { getBase58Encoder } from '@solana/kit';
import type { ChainEvent } from '../../../schemas/codec.js';
import { VOTE_PROGRAM } from '../../../schemas/programs.js';
import type { ChainSource, SlotBatch } from '../../source.js';

export type VoteSelection = 'include' | 'exclude';

const VOTE_OWNER = Buffer.from(getBase58Encoder().encode(VOTE_PROGRAM));

/** A vote transaction, or a write of a vote account. */
export function isVoteEvent(e: ChainEvent): boolean {
  if (e.kind === 'transactions') return e.event.isVote;
  if (e.kind === 'accounts') return VOTE_OWNER.equals(e.event.owner);
  return false;
}

/** The batch without its votes (the same batch when it holds none). */
export function withoutVotes(batch: SlotBatch): SlotBatch {
  if (!batch.events.some(isVoteEvent)) return batch;
  return { ...batch, events: batch.events.filter((e) => !isVoteEvent(e)) };
}

/** `source` as `votes` selects: the same source for include, one whose batches drop votes for exclude. */
export function selectVotes(source: ChainSource, votes: VoteSelection): ChainSource {
  if (votes === 'include') return source;
  return {
    notes: [...source.notes, 'votes excluded (--votes exclude): no vote transaction and no vote-account write is published'],
    async *batches(opts) {
      for await (const batch of source.batches(opts)) yield withoutVotes(batch);
    },
  };
}
