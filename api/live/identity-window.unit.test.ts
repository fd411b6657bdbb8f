import { describe, expect, it } from 'vitest';
import { AccountEvent, SlotEvent, SlotStatus, TransactionEvent } from '../../schemas/codec.js';
import { IdentityWindow, liveIdentity } from './identity-window.js';
import { ChainRecord, slotRecord } from './stream-event.js';
import { ParsedTransactionEvent } from '../../schemas/gen/events.js';
import { accountRecord, txRecord } from '../../test/support/live/records.js';

const sig = (n: number) => Buffer.alloc(64, n);

describe('IdentityWindow', () => {
  it('names the first copy of a record seen again, and records each identity once', () => {
    const w = new IdentityWindow(4);
    expect(w.firstCopy(10n, 'a', 0)).toBeUndefined();
    expect(w.firstCopy(10n, 'b', 1)).toBeUndefined();
    expect(w.firstCopy(11n, 'a', 2)).toBeUndefined(); // another slot: another record
    expect(w.firstCopy(10n, 'a', 7)).toBe(0);
    expect(w.firstCopy(10n, 'a', 9)).toBe(0);
    expect(w.size).toBe(3);
  });

  it('keeps only the newest slots: older ones are forgotten and never recorded again', () => {
    const w = new IdentityWindow(2);
    w.firstCopy(10n, 'a', 0);
    w.firstCopy(12n, 'b', 1);
    expect(w.firstCopy(10n, 'a', 2)).toBe(0); // 10 >= 12 - 2: still kept
    w.firstCopy(13n, 'c', 3);
    expect(w.firstCopy(10n, 'a', 4)).toBeUndefined(); // forgotten
    expect(w.firstCopy(10n, 'a', 5)).toBeUndefined(); // and not recorded behind the window
    expect(w.size).toBe(2);
  });
});

describe('liveIdentity', () => {
  const tx = (s: number, slot: bigint) => txRecord(TransactionEvent.fromPartial({ slot, signatures: [sig(s), sig(99)] }));
  const acc = (key: number, wv: bigint) =>
    accountRecord(AccountEvent.fromPartial({ pubkey: Buffer.alloc(32, key), writeVersion: wv, slot: 5n, lamports: 1n }));

  it('is the first signature for transactions, whatever the other signatures (live and replayed records alike)', () => {
    expect(liveIdentity(tx(1, 5n))).toBe(liveIdentity(tx(1, 6n)));
    expect(liveIdentity(tx(1, 5n))).not.toBe(liveIdentity(tx(2, 5n)));
    const firstOnly = txRecord(TransactionEvent.fromPartial({ slot: 5n, signatures: [sig(1)] }));
    expect(liveIdentity(firstOnly)).toBe(liveIdentity(tx(1, 5n)));
    expect(liveIdentity(txRecord(TransactionEvent.fromPartial({ slot: 5n })))).toBeUndefined();
  });

  it('is (pubkey, write_version) for account writes', () => {
    expect(liveIdentity(acc(1, 7n))).toBe(liveIdentity(acc(1, 7n)));
    expect(liveIdentity(acc(1, 7n))).not.toBe(liveIdentity(acc(1, 8n)));
    expect(liveIdentity(acc(1, 7n))).not.toBe(liveIdentity(acc(2, 7n)));
  });

  it('is the status for slot records, gap records apart', () => {
    const slot = (status: SlotStatus, gap?: boolean) =>
      slotRecord(SlotEvent.fromPartial({ slot: 5n, status, ...(gap ? { gap: { firstSlot: 1n, lastSlot: 4n } } : {}) }), 0);
    expect(liveIdentity(slot(SlotStatus.SLOT_STATUS_PROCESSED))).toBe(liveIdentity(slot(SlotStatus.SLOT_STATUS_PROCESSED)));
    expect(liveIdentity(slot(SlotStatus.SLOT_STATUS_PROCESSED))).not.toBe(liveIdentity(slot(SlotStatus.SLOT_STATUS_CONFIRMED)));
    expect(liveIdentity(slot(SlotStatus.SLOT_STATUS_PROCESSED, true))).not.toBe(liveIdentity(slot(SlotStatus.SLOT_STATUS_PROCESSED)));
  });

  it("is the signature for parsed records (its transaction's), never equal to the transaction record's", () => {
    const parsed = (n: number, index: number) =>
      new ChainRecord('parsed', ParsedTransactionEvent.fromPartial({ slot: 5n, index, signature: sig(n) }), 0);
    expect(liveIdentity(parsed(1, 0))).toBe(liveIdentity(parsed(1, 3)));
    expect(liveIdentity(parsed(1, 0))).not.toBe(liveIdentity(parsed(2, 0)));
    expect(liveIdentity(parsed(1, 0))).not.toBe(liveIdentity(tx(1, 5n)));
  });
});
