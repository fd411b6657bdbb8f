// PubSub's adapter: each subscribe kind becomes the filter Agave's semantics call for, checked through
// compile and the matcher (what the live hub runs).
import { describe, expect, it } from 'vitest';
import { AccountEvent, TransactionEvent } from '../../schemas/gen/events.js';
import { compileSubscription } from './compile.js';
import { PUBSUB_FILTER_NAME, specFromPubSub, type PubSubRequest } from './from-pubsub.js';
import { matchBlocks, matchSlotStatus } from './match-chain.js';
import { matchAccount, matchTransaction } from './match.js';
import { Commitment } from './model.js';

const k = (n: number): Buffer => Buffer.alloc(32, n);
const compiled = (r: PubSubRequest) => compileSubscription(specFromPubSub(r));
const tx = (keys: Buffer[], extra: Partial<TransactionEvent> = {}) =>
  TransactionEvent.fromPartial({ slot: 5n, signatures: [Buffer.alloc(64, 9)], accountKeys: keys, ...extra });
const acc = (pubkey: Buffer, owner: Buffer, data: Buffer) => AccountEvent.fromPartial({ pubkey, owner, data, lamports: 1n, slot: 5n });

describe('specFromPubSub', () => {
  it('accountSubscribe: writes of that account only, at the asked commitment', () => {
    const sub = compiled({ kind: 'account', pubkey: k(1), commitment: Commitment.confirmed });
    expect(sub.commitment).toBe(Commitment.confirmed);
    expect(matchAccount(sub, acc(k(1), k(7), Buffer.alloc(3)))).toEqual([PUBSUB_FILTER_NAME]);
    expect(matchAccount(sub, acc(k(2), k(7), Buffer.alloc(3)))).toEqual([]);
    expect(matchTransaction(sub, tx([k(1)]))).toEqual([]);
  });

  it('programSubscribe: owner AND dataSize AND memcmp', () => {
    const sub = compiled({
      kind: 'program',
      program: k(7),
      filters: [
        { kind: 'dataSize', size: 4n },
        { kind: 'memcmp', offset: 1n, bytes: Buffer.from([5, 6]) },
      ],
      commitment: Commitment.processed,
    });
    expect(matchAccount(sub, acc(k(1), k(7), Buffer.from([0, 5, 6, 0])))).toEqual([PUBSUB_FILTER_NAME]);
    expect(matchAccount(sub, acc(k(1), k(7), Buffer.from([0, 5, 6])))).toEqual([]); // size
    expect(matchAccount(sub, acc(k(1), k(7), Buffer.from([0, 5, 7, 0])))).toEqual([]); // memcmp
    expect(matchAccount(sub, acc(k(1), k(8), Buffer.from([0, 5, 6, 0])))).toEqual([]); // owner
  });

  it('logsSubscribe all leaves votes out; allWithVotes keeps them; mentions matches the key, votes included', () => {
    const all = compiled({ kind: 'logs', mentions: undefined, votes: false, commitment: Commitment.finalized });
    expect(matchTransaction(all, tx([k(1)]))).toEqual([PUBSUB_FILTER_NAME]);
    expect(matchTransaction(all, tx([k(1)], { isVote: true }))).toEqual([]);
    const withVotes = compiled({ kind: 'logs', mentions: undefined, votes: true, commitment: Commitment.finalized });
    expect(matchTransaction(withVotes, tx([k(1)], { isVote: true }))).toEqual([PUBSUB_FILTER_NAME]);
    const mentions = compiled({ kind: 'logs', mentions: k(3), votes: false, commitment: Commitment.processed });
    expect(matchTransaction(mentions, tx([k(1), k(3)], { isVote: true }))).toEqual([PUBSUB_FILTER_NAME]);
    expect(matchTransaction(mentions, tx([k(1)], { loadedReadonly: [k(3)] }))).toEqual([PUBSUB_FILTER_NAME]);
    expect(matchTransaction(mentions, tx([k(1), k(2)]))).toEqual([]);
  });

  it('signatureSubscribe: the transaction whose first signature it is', () => {
    const sub = compiled({ kind: 'signature', signature: Buffer.alloc(64, 9), commitment: Commitment.confirmed });
    expect(matchTransaction(sub, tx([k(1)]))).toEqual([PUBSUB_FILTER_NAME]);
    expect(matchTransaction(sub, tx([k(1)], { signatures: [Buffer.alloc(64, 8), Buffer.alloc(64, 9)] }))).toEqual([]);
  });

  it('slotSubscribe takes processed statuses, rootSubscribe finalized ones', () => {
    const slot = compiled({ kind: 'slot' });
    const root = compiled({ kind: 'root' });
    expect([0, 1, 2, 3, 4].map((s) => matchSlotStatus(slot, s).length)).toEqual([1, 0, 0, 0, 0]);
    expect([0, 1, 2, 3, 4].map((s) => matchSlotStatus(root, s).length)).toEqual([0, 0, 1, 0, 0]);
  });

  it('slotsUpdatesSubscribe: every status but skipped and gaps, and whole blocks with their transactions and entries', () => {
    const sub = compiled({ kind: 'slotsUpdates' });
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map((s) => matchSlotStatus(sub, s).length)).toEqual([1, 1, 1, 0, 1, 1, 1, 1, 0]);
    expect(sub.commitment).toBe(Commitment.processed);
    expect(matchBlocks(sub)).toEqual([PUBSUB_FILTER_NAME]);
    expect(sub.blocks[0]).toMatchObject({ includeTransactions: true, includeEntries: true, includeAccounts: false });
  });

  it('blockSubscribe: whole blocks at the asked commitment (mentions are applied by the transport)', () => {
    const sub = compiled({ kind: 'block', mentions: k(3), commitment: Commitment.confirmed });
    expect(sub.commitment).toBe(Commitment.confirmed);
    expect(matchBlocks(sub)).toEqual([PUBSUB_FILTER_NAME]);
    expect(sub.blocks[0]).toMatchObject({ includeTransactions: true, includeAccounts: false });
    expect(matchTransaction(sub, tx([k(3)]))).toEqual([]);
  });

  it('voteSubscribe: vote transactions only, at processed', () => {
    const sub = compiled({ kind: 'vote' });
    expect(sub.commitment).toBe(Commitment.processed);
    expect(matchTransaction(sub, tx([k(1)], { isVote: true }))).toEqual([PUBSUB_FILTER_NAME]);
    expect(matchTransaction(sub, tx([k(1)]))).toEqual([]);
  });

  it("transactionSubscribe: Helius's filter as Yellowstone's (include any, exclude none, required all, vote, failed)", () => {
    const sub = compiled({
      kind: 'transaction',
      vote: false,
      failed: true,
      signature: undefined,
      accountInclude: [k(1), k(2)],
      accountExclude: [k(3)],
      accountRequired: [k(4)],
      commitment: Commitment.finalized,
    });
    expect(sub.commitment).toBe(Commitment.finalized);
    const err = '{"InstructionError":[0,"InvalidArgument"]}';
    expect(matchTransaction(sub, tx([k(2), k(4)], { err }))).toEqual([PUBSUB_FILTER_NAME]);
    expect(matchTransaction(sub, tx([k(2), k(4)]))).toEqual([]); // not failed
    expect(matchTransaction(sub, tx([k(2)], { err }))).toEqual([]); // required missing
    expect(matchTransaction(sub, tx([k(2), k(4), k(3)], { err }))).toEqual([]); // excluded
    expect(matchTransaction(sub, tx([k(4)], { err }))).toEqual([]); // none included
    expect(matchTransaction(sub, tx([k(2), k(4)], { err, isVote: true }))).toEqual([]); // a vote
  });
});
