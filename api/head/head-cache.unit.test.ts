import { describe, expect, it } from 'vitest';
import { AccountEvent, SlotStatus, TransactionEvent } from '../../schemas/codec.js';
import { scanAccount, scanTransaction } from '../../schemas/scan.js';
import { account, keyOf, slotStatus } from '../../test/support/projector/events.js';
import { transferTx, txSig } from '../../test/support/jsonrpc/tx-chain.js';
import {
  HeadCache,
  LATE_START_MARGIN,
  META_EXTRA_SLOTS,
  expectedAccounts,
  expectedTransactions,
  heldTransaction,
  rawSignature,
  type HeadEvent,
} from './head-cache.js';

const tx = (slot: number, index: number, sig = txSig(slot, index), err?: string): HeadEvent => {
  const e = transferTx(slot, index, sig);
  if (err !== undefined) e.err = err;
  return { kind: 'transaction', scan: scanTransaction(Buffer.from(TransactionEvent.encode(e).finish())) };
};
const marker = (slot: number, txs: number, parent = slot - 1): HeadEvent => ({
  kind: 'slot',
  event: slotStatus(slot, SlotStatus.SLOT_STATUS_PROCESSED, { parent, height: 1000 + slot, time: 1_700_000_000 + slot, txs }),
});
const status = (slot: number, s: SlotStatus): HeadEvent => ({ kind: 'slot', event: slotStatus(slot, s) });
/** A produced block of `n` transactions, then its marker. */
const block = (c: HeadCache, slot: number, n = 2): void => {
  for (let i = 0; i < n; i++) c.onEvent(tx(slot, i));
  c.onEvent(marker(slot, n));
};
const sig = (slot: number, i: number): string => rawSignature(txSig(slot, i));
const write = (slot: number, writeVersion: number, lamports: number, pubkey = 'pool'): HeadEvent => ({
  kind: 'account',
  scan: scanAccount(Buffer.from(AccountEvent.encode(account({ pubkey, owner: 'amm', slot, writeVersion, lamports })).finish())),
});
/** A marker whose end counts `accounts` account records (and no transaction). */
const accountsMarker = (slot: number, accounts: number): HeadEvent => {
  const m = marker(slot, 0) as Extract<HeadEvent, { kind: 'slot' }>;
  m.event.end = { counts: [{ kind: 'accounts', partition: 0, count: accounts }] };
  return m;
};
const key = (label: string): string => keyOf(label).toString('latin1');
const lamportsAt = (c: HeadCache, slot: number, pubkey = 'pool'): bigint | undefined => {
  const w = c.newestWrite(key(pubkey), BigInt(slot));
  return w === undefined ? undefined : scanAccount(w.bytes).lamports;
};

describe('heldTransaction', () => {
  it('reads the position, first signature and error from the scan, as the projector stores them', () => {
    const e = tx(7, 3, txSig(7, 3), '{"InstructionError":[0,{"Custom":1}]}') as Extract<HeadEvent, { kind: 'transaction' }>;
    const t = heldTransaction(e.scan)!;
    expect(t).toMatchObject({ slot: 7n, position: 3, err: '{"InstructionError":[0,{"Custom":1}]}' });
    expect(t.signature).toBe(sig(7, 3));
    const ok = heldTransaction((tx(7, 0) as Extract<HeadEvent, { kind: 'transaction' }>).scan)!;
    expect(ok).toMatchObject({ position: 0, err: null });
  });

  it('leaves out a transaction without a 64-byte signature (the views never hold it)', () => {
    const e = transferTx(7, 0, txSig(7, 0));
    e.signatures = [Buffer.alloc(10)];
    expect(heldTransaction(scanTransaction(Buffer.from(TransactionEvent.encode(e).finish())))).toBeUndefined();
  });
});

describe('HeadCache', () => {
  it('rejects fewer slots than Yellowstone holds', () => {
    expect(() => new HeadCache({ slots: 149, fromStart: true })).toThrow(/at least 150, got 149/);
  });

  it('moves heads as the views do: per level, never back, a level implying the weaker ones', () => {
    const c = new HeadCache({ slots: 150, fromStart: true });
    expect(c.head('processed')).toBeUndefined();
    block(c, 10);
    block(c, 11);
    c.onEvent(status(10, SlotStatus.SLOT_STATUS_FINALIZED));
    expect([c.head('processed'), c.head('confirmed'), c.head('finalized')]).toEqual([11n, 10n, 10n]);
    c.onEvent(status(9, SlotStatus.SLOT_STATUS_CONFIRMED));
    expect(c.head('confirmed')).toBe(10n);
    c.onEvent(status(11, SlotStatus.SLOT_STATUS_DEAD));
    expect(c.head('processed')).toBe(11n);
    expect(c.isDead(11n)).toBe(true);
  });

  it('finds the newest block at or below a slot, dead ones included (the views keep their block rows)', () => {
    const c = new HeadCache({ slots: 150, fromStart: true });
    block(c, 10);
    c.onEvent(status(11, SlotStatus.SLOT_STATUS_SKIPPED));
    block(c, 12);
    c.onEvent(status(12, SlotStatus.SLOT_STATUS_DEAD));
    expect(c.blockAtOrBelow(11n)?.slot).toBe(10n);
    expect(c.blockAtOrBelow(13n)).toMatchObject({ slot: 12n, dead: true });
    expect(c.blockAtOrBelow(9n)).toBeUndefined();
    expect(c.blockhashSlot(Buffer.from(c.block(10n)!.meta.blockhash).toString('latin1'))).toBe(10n);
    expect(c.blocksBetween(9n, 12n)!.map((b) => b.slot)).toEqual([10n]);
  });

  it("serves a slot's transactions only once its marker and every record it counts are held", () => {
    const c = new HeadCache({ slots: 150, fromStart: true });
    c.onEvent(tx(20, 1));
    c.onEvent(marker(20, 2));
    expect(c.transactions(20n)).toBeUndefined();
    expect(c.holdsAll(0n, 20n)).toBe(false);
    c.onEvent(tx(20, 0));
    expect(c.transactions(20n)!.map((t) => t.position)).toEqual([0, 1]);
    expect(c.holdsAll(0n, 20n)).toBe(true);
    // A re-published copy (read uncommitted) replaces its first copy: one landing, not two.
    c.onEvent(tx(20, 0));
    expect(c.landings(sig(20, 0))).toHaveLength(1);
    expect(c.transactions(20n)).toHaveLength(2);
  });

  it("counts a marker's records from its end counts when it has them (accounts only from them)", () => {
    const ev = slotStatus(5, SlotStatus.SLOT_STATUS_PROCESSED, { parent: 4, height: 1, txs: 9 });
    expect([expectedTransactions(ev), expectedAccounts(ev)]).toEqual([9, undefined]);
    ev.end = {
      counts: [
        { kind: 'transactions', partition: 0, count: 2 },
        { kind: 'accounts', partition: 0, count: 5 },
        { kind: 'transactions', partition: 1, count: 1 },
        { kind: 'accounts', partition: 2, count: 1 },
      ],
    };
    expect([expectedTransactions(ev), expectedAccounts(ev)]).toEqual([3, 6]);
  });

  it("answers an account's newest write at or below a slot, the higher write_version of a slot winning", () => {
    const c = new HeadCache({ slots: 150, fromStart: true });
    c.onEvent(write(10, 7, 100));
    c.onEvent(write(12, 9, 300));
    c.onEvent(write(12, 8, 200));
    c.onEvent(write(11, 1, 150, 'other'));
    expect([lamportsAt(c, 10), lamportsAt(c, 11), lamportsAt(c, 12), lamportsAt(c, 99)]).toEqual([100n, 100n, 300n, 300n]);
    expect(lamportsAt(c, 9)).toBeUndefined();
    expect(lamportsAt(c, 11, 'other')).toBe(150n);
    expect(lamportsAt(c, 11, 'never')).toBeUndefined();
    // The same write again (an aborted record re-read) replaces itself.
    c.onEvent(write(12, 9, 300));
    expect(lamportsAt(c, 12)).toBe(300n);
  });

  it('answers a write only when every account record its slots count is held', () => {
    const c = new HeadCache({ slots: 150, fromStart: true });
    c.onEvent(write(10, 1, 100));
    c.onEvent(accountsMarker(10, 1));
    c.onEvent(accountsMarker(11, 2));
    c.onEvent(write(11, 2, 5, 'other'));
    // Slot 11 counts two records and one is held: a write of the pool's in it may be the one not read yet.
    expect(lamportsAt(c, 10)).toBe(100n);
    expect(lamportsAt(c, 11)).toBeUndefined();
    c.onEvent(write(11, 3, 6, 'third'));
    expect(lamportsAt(c, 11)).toBe(100n);
    // A marker without end counts proves nothing about accounts.
    c.onEvent(marker(12, 0));
    expect(lamportsAt(c, 12)).toBeUndefined();
    // A write the views reject (no 32-byte pubkey) is counted, not held.
    const bad = AccountEvent.fromPartial({ pubkey: Buffer.alloc(5), owner: keyOf('amm'), slot: 13n, lamports: 1n });
    c.onEvent({ kind: 'account', scan: scanAccount(Buffer.from(AccountEvent.encode(bad).finish())) });
    c.onEvent(accountsMarker(13, 1));
    expect(c.newestWrite(Buffer.alloc(5).toString('latin1'), 13n)).toBeUndefined();
  });

  it('keeps of an account only the writes a commitment can read, and drops them with their slot', () => {
    const c = new HeadCache({ slots: 150, fromStart: true });
    for (let s = 1; s <= 5; s++) c.onEvent(write(s, s, s * 10));
    c.onEvent(status(3, SlotStatus.SLOT_STATUS_FINALIZED));
    c.onEvent(write(6, 6, 60));
    // Finalized at 3: the write of slot 3 and those after it stay; slots 1 and 2's are read by nothing.
    expect([lamportsAt(c, 3), lamportsAt(c, 5), lamportsAt(c, 6)]).toEqual([30n, 50n, 60n]);
    expect(lamportsAt(c, 2)).toBeUndefined();
    for (let s = 7; s <= 154; s++) c.onEvent(status(s, SlotStatus.SLOT_STATUS_PROCESSED));
    // 154 slots: the 4 oldest evicted with their writes (the floor at 5).
    expect(c.floor).toBe(5n);
    expect(lamportsAt(c, 4)).toBeUndefined();
    expect(lamportsAt(c, 154)).toBe(60n);
    for (let s = 155; s <= 160; s++) c.onEvent(status(s, SlotStatus.SLOT_STATUS_PROCESSED));
    // Its last write's slot evicted: the account is not known any more (the views answer).
    expect(lamportsAt(c, 160)).toBeUndefined();
  });

  it("finds an address's newest transactions by any of its keys, and only when the slots down to them are whole", () => {
    const c = new HeadCache({ slots: 150, fromStart: false });
    const other = keyOf('other-payer');
    const txWith = (slot: number, index: number, keys: Buffer[]): HeadEvent => {
      const e = transferTx(slot, index, txSig(slot, index));
      e.accountKeys = keys;
      return { kind: 'transaction', scan: scanTransaction(Buffer.from(TransactionEvent.encode(e).finish())) };
    };
    const loaded = (slot: number, index: number): HeadEvent => {
      const e = transferTx(slot, index, txSig(slot, index));
      e.loadedReadonly = [other];
      return { kind: 'transaction', scan: scanTransaction(Buffer.from(TransactionEvent.encode(e).finish())) };
    };
    c.onEvent(status(1, SlotStatus.SLOT_STATUS_PROCESSED)); // the read starts: coverage from slot 65
    for (const slot of [70, 71, 72]) {
      c.onEvent(txWith(slot, 0, [other]));
      c.onEvent(loaded(slot, 1));
      c.onEvent(tx(slot, 2));
      c.onEvent(marker(slot, 3));
    }
    const found = (key: Buffer, maxSlot: number, limit: number) =>
      c.transactionsWith(key, BigInt(maxSlot), limit)?.map((t) => `${t.slot}/${t.position}`);
    // Static and loaded keys both count; newest first by slot, then position.
    expect(found(other, 72, 4)).toEqual(['72/1', '72/0', '71/1', '71/0']);
    expect(found(other, 71, 2)).toEqual(['71/1', '71/0']);
    // Fewer than asked while the cache does not hold the chain from its start: older ones may exist.
    expect(found(other, 72, 7)).toBeUndefined();
    // A key sharing the bucket but not the bytes is not a match.
    const twin = Buffer.from(other);
    twin[31] = twin[31]! ^ 1;
    expect(found(twin, 72, 1)).toBeUndefined();
    // A slot counted but not whole: a page reaching into it cannot be proven.
    c.onEvent(txWith(73, 0, [other]));
    c.onEvent(marker(73, 2));
    expect(found(other, 73, 1)).toBeUndefined();
    expect(found(other, 72, 1)).toEqual(['72/1']);
  });

  it('leaves out of the address index a transaction with a key that is not 32 bytes (the projector rejects it)', () => {
    const e = transferTx(7, 0, txSig(7, 0));
    e.accountKeys = [keyOf('a'), Buffer.alloc(31)];
    expect(heldTransaction(scanTransaction(Buffer.from(TransactionEvent.encode(e).finish())))).toBeUndefined();
  });

  it("drops an evicted slot's transactions from the address index", () => {
    const c = new HeadCache({ slots: 150, fromStart: true });
    const payer = transferTx(1, 0, txSig(1, 0)).accountKeys[0]! as Buffer;
    for (let s = 1; s <= 160; s++) block(c, s, 1);
    const all = c.transactionsWith(payer, 160n, 150)!;
    expect(all.map((t) => t.slot)).toEqual(Array.from({ length: 150 }, (_, i) => BigInt(160 - i)));
    // 151 would reach below the floor (slot 11): not provable.
    expect(c.transactionsWith(payer, 160n, 151)).toBeUndefined();
  });

  it('keeps every landing of a signature (forks), until its slot is evicted', () => {
    const c = new HeadCache({ slots: 150, fromStart: true });
    c.onEvent(tx(30, 0, txSig(1, 1)));
    c.onEvent(tx(31, 4, txSig(1, 1)));
    expect(
      c
        .landings(sig(1, 1))
        .map((t) => [t.slot, t.position])
        .sort(),
    ).toEqual([
      [30n, 0],
      [31n, 4],
    ]);
  });

  it("holds the newest `slots` slots' transactions and more slots' metas, evicting the oldest and raising its floors", () => {
    const c = new HeadCache({ slots: 150, fromStart: true });
    expect([c.floor, c.metaFloor]).toEqual([0n, 0n]);
    for (let s = 1; s <= 200; s++) block(c, s);
    // 200 slots held: the oldest 50 kept their metas only.
    expect(c.floor).toBe(51n);
    expect(c.metaFloor).toBe(0n);
    expect(c.landings(sig(50, 0))).toEqual([]);
    expect(c.transactions(50n)).toBeUndefined();
    expect(c.block(50n)).toBeDefined();
    expect(c.transactions(51n)).toHaveLength(2);
    expect(c.holdsAll(50n, 200n)).toBe(false);
    expect(c.holdsAll(51n, 200n)).toBe(true);
    for (let s = 201; s <= 150 + META_EXTRA_SLOTS + 10; s++) block(c, s);
    expect(c.size).toBe(150 + META_EXTRA_SLOTS);
    expect(c.metaFloor).toBe(11n);
    expect(c.block(10n)).toBeUndefined();
    expect(c.oldestBlock()?.slot).toBe(11n);
    // Nothing below the floors comes back.
    block(c, 5);
    expect(c.block(5n)).toBeUndefined();
  });

  it('starting inside a used log, covers only slots past the first one seen by a margin', () => {
    const c = new HeadCache({ slots: 150, fromStart: false });
    expect(c.floor).toBeUndefined();
    c.onEvent(tx(300, 0));
    expect(c.floor).toBe(300n + LATE_START_MARGIN);
    c.onEvent(marker(300, 1));
    expect(c.block(300n)).toBeUndefined();
    expect(c.head('processed')).toBe(300n);
    const s = Number(300n + LATE_START_MARGIN);
    block(c, s);
    expect(c.transactions(BigInt(s))).toHaveLength(2);
  });

  it('answers the newest n blocks only when it holds n, or the chain from its start', () => {
    const fromStart = new HeadCache({ slots: 150, fromStart: true });
    for (let s = 1; s <= 5; s++) block(fromStart, s);
    fromStart.onEvent(status(3, SlotStatus.SLOT_STATUS_DEAD));
    expect(fromStart.newestBlocks(4n, 150)!.map((b) => b.slot)).toEqual([1n, 2n, 4n]);
    const late = new HeadCache({ slots: 150, fromStart: false });
    for (let s = 1; s <= 100; s++) block(late, s);
    expect(late.newestBlocks(100n, 10)!.map((b) => b.slot)).toEqual([91n, 92n, 93n, 94n, 95n, 96n, 97n, 98n, 99n, 100n]);
    expect(late.newestBlocks(100n, 50)).toBeUndefined();
  });

  it("makes a summary once, and once asked, before dropping a block's records, so it outlives them", () => {
    const c = new HeadCache({ slots: 150, fromStart: true });
    for (let s = 1; s <= 10; s++) block(c, s);
    let made = 0;
    const count = (records: readonly Buffer[]) => {
      made++;
      return records.length;
    };
    expect(c.summary(1n, 'n', count)).toBe(2);
    expect(c.summary(1n, 'n', count)).toBe(2);
    expect(made).toBe(1);
    for (let s = 11; s <= 160; s++) block(c, s);
    expect(c.transactions(2n)).toBeUndefined();
    expect(c.summary(2n, 'n', count)).toBe(2);
    c.onEvent(tx(161, 0));
    c.onEvent(marker(161, 3));
    expect(c.summary(161n, 'n', count)).toBeUndefined();
  });
});
