// The curve/pool join (join.ts): keyed to chain position, not wall time; bounded; wall time only when idle.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccountEvent, TransactionEvent } from '../../schemas/gen/events.js';
import { PumpJoin, type JoinSubject, type JoinWrite } from './join.js';
import type { ParsedScan } from '../../schemas/pumpfun/parsed-scan.js';

const CURVE = Buffer.alloc(32, 7);
const POOL = Buffer.alloc(32, 8);
let n = 0;
const sigOf = (i: number): Buffer => Buffer.alloc(64, i);

function subject(slot: bigint, sig: Buffer, o: { curve?: Buffer; pool?: Buffer; failed?: boolean } = { curve: CURVE }): JoinSubject {
  const scan = { curve: o.curve, pool: o.pool, failed: o.failed ?? false } as unknown as ParsedScan;
  return { tx: TransactionEvent.fromPartial({ slot, signatures: [sig] }), scan };
}

function write(slot: bigint, sig: Buffer | undefined, pubkey = CURVE): JoinWrite {
  const event = AccountEvent.fromPartial({ slot, pubkey, txnSignature: sig, writeVersion: BigInt(++n) });
  return { slot, pubkey, txnSignature: sig, event };
}

type Out = { slot: bigint; curve: AccountEvent | undefined; pool: AccountEvent | undefined };

describe('PumpJoin', () => {
  let out: Out[];
  let join: PumpJoin;
  const make = (o = {}) => (join = new PumpJoin((s, curve, pool) => out.push({ slot: s.tx.slot, curve, pool }), o));

  beforeEach(() => {
    vi.useFakeTimers();
    out = [];
  });
  afterEach(() => {
    join.stop();
    vi.useRealTimers();
  });

  it('remembers a write that came long before its transaction while the feed moves (no wall-time forgetting)', () => {
    make();
    const w = write(10n, sigOf(1));
    join.onAccount(w, 0);
    // Seconds of wall time with other events (the accounts topic read far ahead): the write stays.
    for (let i = 0; i < 50; i++) {
      vi.advanceTimersByTime(100);
      join.onAccount(write(11n + BigInt(i), undefined), 0);
    }
    join.onTransaction(subject(10n, sigOf(1)), 0);
    expect(out).toEqual([{ slot: 10n, curve: w.event, pool: undefined }]);
    expect(join.sizes).toEqual({ pending: 0, writes: 0 });
  });

  it('a transaction waits for its write as long as the accounts partitions have not passed its slot', () => {
    make();
    join.onAccount(write(5n, undefined), 0);
    join.onAccount(write(5n, undefined), 1);
    join.onTransaction(subject(10n, sigOf(2)), 0);
    for (let i = 0; i < 50; i++) {
      vi.advanceTimersByTime(100);
      join.onTransaction(subject(11n + BigInt(i), sigOf(100 + i), { failed: true }), 1); // other traffic
    }
    expect(out.filter((o) => o.slot === 10n)).toEqual([]);
    const w = write(10n, sigOf(2));
    join.onAccount(w, 1);
    expect(out.filter((o) => o.slot === 10n)).toEqual([{ slot: 10n, curve: w.event, pool: undefined }]);
  });

  it('goes out without a write once every accounts partition handed over a later slot', () => {
    make({ accountPartitions: 2 });
    join.onTransaction(subject(10n, sigOf(3), { curve: CURVE, pool: POOL }), 0);
    const pool = write(10n, sigOf(3), POOL);
    join.onAccount(pool, 0);
    join.onAccount(write(11n, undefined), 0);
    expect(out).toEqual([]); // partition 1 may still hold slot 10's curve write
    join.onAccount(write(10n, undefined), 1);
    expect(out).toEqual([]);
    join.onAccount(write(12n, undefined), 1);
    expect(out).toEqual([{ slot: 10n, curve: undefined, pool: pool.event }]);
    expect(join.unjoined).toBe(1);
  });

  it('a silent partition stops holding the others back after staleEvents', () => {
    make({ staleEvents: 3, accountPartitions: 3 }); // partition 2 never speaks
    join.onAccount(write(1n, undefined), 1); // partition 1 then says nothing more
    join.onTransaction(subject(10n, sigOf(4)), 0);
    join.onAccount(write(11n, undefined), 0);
    expect(out).toEqual([]);
    join.onAccount(write(12n, undefined), 0);
    join.onAccount(write(13n, undefined), 0);
    expect(out).toEqual([{ slot: 10n, curve: undefined, pool: undefined }]);
  });

  it('forgets remembered writes once every transactions partition passed their slot', () => {
    make({ transactionPartitions: 2 });
    join.onAccount(write(10n, sigOf(5)), 0);
    join.onOtherTransaction(9n, 0);
    join.onOtherTransaction(11n, 1);
    expect(join.sizes.writes).toBe(1); // partition 0 may still bring slot 10's transaction
    join.onOtherTransaction(12n, 0);
    expect(join.sizes.writes).toBe(0);
  });

  it('is bounded: beyond maxPending / maxWrites the lowest slot goes first', () => {
    make({ maxPending: 2, maxWrites: 2 });
    join.onTransaction(subject(3n, sigOf(10)), 0);
    join.onTransaction(subject(1n, sigOf(11)), 0);
    join.onTransaction(subject(2n, sigOf(12)), 0);
    expect(out.map((o) => o.slot)).toEqual([1n]);
    join.onAccount(write(30n, sigOf(20)), 0);
    join.onAccount(write(20n, sigOf(21)), 0);
    join.onAccount(write(40n, sigOf(22)), 0);
    expect(join.sizes.writes).toBe(2);
    join.onTransaction(subject(20n, sigOf(21)), 1);
    expect(out.at(-1)?.curve).toBeUndefined(); // slot 20's write was the lowest: forgotten
  });

  it('only a quiet feed releases by wall time; failed transactions and those without a curve or pool never wait', () => {
    make({ idleMs: 1_000 });
    join.onTransaction(subject(10n, sigOf(6), { failed: true, curve: CURVE }), 0);
    join.onTransaction(subject(10n, sigOf(7), {}), 0);
    expect(out.length).toBe(2);
    join.onTransaction(subject(10n, sigOf(8)), 0);
    vi.advanceTimersByTime(900);
    expect(out.length).toBe(2);
    vi.advanceTimersByTime(500);
    expect(out.length).toBe(3);
    expect(out[2]).toEqual({ slot: 10n, curve: undefined, pool: undefined });
  });
});
