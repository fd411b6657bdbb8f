import { describe, expect, it } from 'vitest';
import { SlotStatus, TransactionEvent } from '../../schemas/codec.js';
import { identityOf, ownSlotOf } from './identity.js';

describe('identityOf', () => {
  it('names a record by what it is, not where it sits: first signature, pubkey + write version, slot + status, slot + index', () => {
    const tx = (index: number, sig: number) => ({
      kind: 'transactions' as const,
      event: TransactionEvent.fromPartial({ slot: 5n, index, signatures: [Buffer.alloc(64, sig), Buffer.alloc(64, 9)] }),
    });
    // Same first signature at another position: the same transaction.
    expect(identityOf(tx(0, 1))).toBe(identityOf(tx(7, 1)));
    expect(identityOf(tx(0, 1))).not.toBe(identityOf(tx(0, 2)));
    const acct = (wv: bigint) => ({
      kind: 'accounts' as const,
      event: {
        pubkey: Buffer.alloc(32, 3),
        lamports: 1n,
        owner: Buffer.alloc(32),
        executable: false,
        rentEpoch: 0n,
        data: Buffer.alloc(0),
        writeVersion: wv,
        slot: 5n,
        isStartup: false,
      },
    });
    expect(identityOf(acct(10n))).not.toBe(identityOf(acct(11n)));
    const slot = (status: SlotStatus) => ({ kind: 'slots' as const, event: { slot: 5n, status } });
    expect(identityOf(slot(SlotStatus.SLOT_STATUS_PROCESSED))).not.toBe(identityOf(slot(SlotStatus.SLOT_STATUS_CONFIRMED)));
    // A marker is the same record as the PROCESSED status it carries.
    expect(identityOf({ kind: 'slots', event: { slot: 5n, status: SlotStatus.SLOT_STATUS_PROCESSED, end: { counts: [] } } })).toBe(
      identityOf(slot(SlotStatus.SLOT_STATUS_PROCESSED)),
    );
    const entry = (index: bigint) => ({
      kind: 'entries' as const,
      event: { slot: 5n, index, numHashes: 1n, hash: Buffer.alloc(32), executedTransactionCount: 0n, startingTransactionIndex: 0n },
    });
    expect(identityOf(entry(0n))).not.toBe(identityOf(entry(1n)));
    // Kinds never collide.
    expect(new Set([identityOf(tx(0, 1)), identityOf(acct(10n)), identityOf(slot(0)), identityOf(entry(0n))]).size).toBe(4);
  });

  it('a record belongs to its own slot; epoch and gap records to none', () => {
    expect(ownSlotOf({ kind: 'slots', event: { slot: 3n, status: SlotStatus.SLOT_STATUS_CONFIRMED } })).toBe(3n);
    expect(
      ownSlotOf({
        kind: 'slots',
        event: { slot: 3n, status: SlotStatus.SLOT_STATUS_GAP, gap: { firstSlot: 3n, lastSlot: 9n, reason: 'r' } },
      }),
    ).toBeUndefined();
    expect(
      ownSlotOf({
        kind: 'epochs',
        event: { epoch: 1n, firstSlot: 32n, slotsPerEpoch: 32n, slotsPerLeader: 4, identities: [], schedule: [] },
      }),
    ).toBeUndefined();
  });
});
