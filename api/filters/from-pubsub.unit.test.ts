// PubSub's adapter: each subscribe kind becomes the filter Agave's semantics call for, checked through
// compile and the matcher (what the live hub runs).
import { describe, expect, it } from 'vitest';
import { AccountEvent, TransactionEvent } from '../../schemas/gen/events.js';
import { compileSubscription } from './compile.js';
import { PUBSUB_FILTER_NAME, specFromPubSub, type PubSubRequest } from './from-pubsub.js';
import { matchSlotStatus } from './match-chain.js';
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
});
