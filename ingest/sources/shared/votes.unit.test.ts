import { getBase58Encoder } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { ingestSection } from '../../../cli/config-sections.js';
import { makeConfig, parseConfig } from '../../../cli/config.js';
import type { ChainEvent } from '../../../schemas/codec.js';
import { VOTE_PROGRAM } from '../../../schemas/programs.js';
import type { SlotBatch } from '../../source.js';
import { createSimSource, DEFAULT_SIM_OPTIONS } from '../sim/index.js';
import { subscribeRequest } from '../yellowstone/subscription.js';
import { isVoteEvent, selectVotes, withoutVotes } from './votes.js';
import { expectEqual } from '../../../test/support/harness/expect-equal.js';

const VOTE = Buffer.from(getBase58Encoder().encode(VOTE_PROGRAM));

async function simSlots(votes: 'include' | 'exclude', maxSlots = 6): Promise<SlotBatch[]> {
  const sim = createSimSource({ ...DEFAULT_SIM_OPTIONS, seed: 5, slotMs: 0, fast: true, tps: 300, validators: 30, maxSlots, votes });
  const out: SlotBatch[] = [];
  for await (const b of sim.batches({})) out.push(b);
  return out;
}

const isVoteTx = (e: ChainEvent) => e.kind === 'transactions' && e.event.isVote;
const isVoteAccount = (e: ChainEvent) => e.kind === 'accounts' && VOTE.equals(e.event.owner);

describe('--votes exclude', () => {
  it('the simulator hands over its chain minus the vote transactions and vote-account writes, the rest in the same order', async () => {
    const all = await simSlots('include');
    const some = await simSlots('exclude');
    const allEvents = all.flatMap((b) => b.events);
    // The chain has votes to drop, and vote-account writes.
    expect(allEvents.filter(isVoteTx).length).toBeGreaterThan(50);
    expect(allEvents.filter(isVoteAccount).length).toBeGreaterThan(50);
    const kept = some.flatMap((b) => b.events);
    expect(kept.filter(isVoteTx)).toEqual([]);
    expect(kept.filter(isVoteAccount)).toEqual([]);
    expectEqual(
      kept,
      allEvents.filter((e) => !isVoteTx(e) && !isVoteAccount(e)),
    );
    // Same slots, same block meta (its counts describe the block, votes counted).
    expect(some.map((b) => b.slot)).toEqual(all.map((b) => b.slot));
    const votesCounted = kept.flatMap((e) => (e.kind === 'slots' && e.event.block ? [e.event.block.voteTransactionCount] : []));
    expect(votesCounted.some((n) => n > 0)).toBe(true);
  });

  it("keeps the vote's other writes (the fee payer's balance)", async () => {
    const all = (await simSlots('include', 4)).flatMap((b) => b.events);
    const voteSigs = new Set(
      all.flatMap((e) => (isVoteTx(e) && e.kind === 'transactions' ? [Buffer.from(e.event.signatures[0]!).toString('hex')] : [])),
    );
    const payerWrites = all.filter(
      (e) =>
        e.kind === 'accounts' &&
        !isVoteAccount(e) &&
        e.event.txnSignature &&
        voteSigs.has(Buffer.from(e.event.txnSignature).toString('hex')),
    );
    expect(payerWrites.length).toBeGreaterThan(0);
    for (const e of payerWrites) expect(isVoteEvent(e)).toBe(false);
  });

  it('withoutVotes returns a batch without votes as it is; selectVotes include is the source itself', async () => {
    const batch: SlotBatch = { slot: 3n, events: [] };
    expect(withoutVotes(batch)).toBe(batch);
    const source = createSimSource({ ...DEFAULT_SIM_OPTIONS, maxSlots: 1 });
    expect(selectVotes(source, 'include')).toBe(source);
    expect(selectVotes(source, 'exclude').notes.at(-1)).toMatch(/votes excluded/);
  });

  it("maps to Yellowstone's own filter: the subscription asks for vote: false", () => {
    const section = (votes: 'include' | 'exclude') =>
      ingestSection(makeConfig('ingest', { source: 'yellowstone', yellowstoneUrl: ['http://127.0.0.1:1'], votes }));
    const request = (votes: 'include' | 'exclude') =>
      subscribeRequest({ ...section(votes).yellowstone.filters, streams: ['transactions'] }, undefined).transactions['slotstream']!;
    expect(request('exclude').vote).toBe(false);
    expect(request('include').vote).toBeUndefined();
  });

  it('is a config choice: another value fails naming the option', () => {
    expect(() => parseConfig('ingest', ['--votes', 'maybe'])).toThrow(/--votes/);
  });
});
