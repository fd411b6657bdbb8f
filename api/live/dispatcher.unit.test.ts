// The one dispatcher of the live layer (the hub's fan-out and each replay's): records to per-subscription deliveries.
import { describe, expect, it } from 'vitest';
import { AccountEvent, EntryEvent, ParsedTransactionEvent, SlotEvent, SlotStatus, TransactionEvent } from '../../schemas/gen/events.js';
import {
  Commitment,
  compileSubscription,
  EMPTY_SUBSCRIPTION,
  keyId,
  matchAccountView,
  matchTransactionView,
  scannedAccountView,
  scannedTransactionView,
  type CompiledSubscription,
} from '../filters/index.js';
import type { SubscriptionSpec } from '../filters/model.js';
import { accountRecord, txRecord } from '../../test/support/live/records.js';
import { ChainState } from './chain-state.js';
import { Dispatcher } from './dispatcher.js';
import { ChainRecord, entryRecord, slotRecord, type AccountRecord, type StreamEvent, type TransactionRecord } from './stream-event.js';

const key = (n: number): Buffer => Buffer.alloc(32, n);
const tx = (slot: bigint, keys: number[], vote = false): TransactionRecord =>
  txRecord(TransactionEvent.fromPartial({ slot, signatures: [Buffer.alloc(64, keys[0] ?? 0)], accountKeys: keys.map(key), isVote: vote }));
const acc = (slot: bigint, pubkey: number, writeVersion: bigint, lamports = 1n, owner = 9): AccountRecord =>
  accountRecord(AccountEvent.fromPartial({ slot, pubkey: key(pubkey), owner: key(owner), writeVersion, lamports }));
const slot = (n: bigint, status: SlotStatus, meta = false): StreamEvent =>
  slotRecord(SlotEvent.fromPartial({ slot: n, status, block: meta ? { parentSlot: n - 1n } : undefined }), 0);
const sub = (spec: Partial<SubscriptionSpec>): CompiledSubscription => compileSubscription({ ...EMPTY_SUBSCRIPTION, ...spec });
const txFilter = (name: string, include: number[], extra: { vote?: boolean; required?: number[] } = {}) => ({
  name,
  accountInclude: include.map(key),
  accountExclude: [],
  accountRequired: (extra.required ?? []).map(key),
  vote: extra.vote,
});
const accFilter = (name: string, account: number[], owner: number[] = [], lamportsOver?: bigint) => ({
  name,
  account: account.map(key),
  owner: owner.map(key),
  filters: lamportsOver === undefined ? [] : [{ kind: 'lamports' as const, op: 'gt' as const, value: lamportsOver }],
});

/** A dispatcher whose deliveries are kept as `subscription kind slot [names]`. */
function recorded(): { d: Dispatcher<string>; got: string[] } {
  const got: string[] = [];
  const d = new Dispatcher<string>((s, u, names) => {
    const status = u.live.kind === 'slot' ? ` ${u.live.event.status}` : '';
    got.push(`${s} ${u.live.kind}${status} ${u.slot} [${names.join(',')}]`);
  });
  return { d, got };
}

describe('Dispatcher', () => {
  it('hands a record to each subscription it matches, wrapped once, under the names of the filters it matched', () => {
    const updates: unknown[] = [];
    const got: string[] = [];
    const d = new Dispatcher<string>((s, u, names) => {
      updates.push(u);
      got.push(`${s} [${names.join(',')}]`);
    });
    d.register('a', sub({ transactions: [txFilter('t1', [1]), txFilter('t2', [2])] }));
    d.register('b', sub({ transactions: [txFilter('x', [2])] }));
    d.register('c', sub({ accounts: [accFilter('acc', [1])] }));
    d.record(tx(5n, [1, 2]));
    expect(got).toEqual(['a [t1,t2]', 'b [x]']);
    expect(updates[0]).toBe(updates[1]);
    got.length = 0;
    d.record(tx(5n, [3])); // no filter names key 3
    d.unregister('b');
    d.record(tx(6n, [2]));
    expect(got).toEqual(['a [t2]']);
  });

  // What a replay used to do on its own: each filter of its one subscription tested in turn. The shared dispatcher
  // answers the same names for a subscription registered alone, whatever the filter's placement in the index.
  it('for a subscription alone, the same names as matching it filter by filter', () => {
    const s = sub({
      transactions: [
        txFilter('any', []),
        txFilter('inc', [1, 4]),
        txFilter('req', [], { required: [2, 3] }),
        txFilter('novote', [3], { vote: false }),
      ],
      accounts: [accFilter('byKey', [1, 2]), accFilter('byOwner', [], [9], 5n), accFilter('all', [])],
    });
    const d = new Dispatcher<number>((_, u, names) => got.push([u.live.kind, names]));
    d.register(0, s);
    const got: [string, string[]][] = [];
    const records = [
      tx(1n, [1]),
      tx(1n, [2, 3]),
      tx(1n, [3], true),
      tx(1n, [5]),
      acc(1n, 1, 1n),
      acc(1n, 3, 1n, 9n),
      acc(1n, 3, 2n, 1n),
      acc(1n, 4, 1n, 7n, 8),
    ];
    const want: [string, string[]][] = [];
    for (const r of records) {
      d.record(r);
      const names =
        r.kind === 'transaction'
          ? matchTransactionView(s, scannedTransactionView(r.scan))
          : r.kind === 'account'
            ? matchAccountView(s, scannedAccountView(r.scan))
            : [];
      if (names.length > 0) want.push([r.kind, names]);
    }
    expect(got).toEqual(want);
    expect(got.length).toBe(records.length); // every record matched something: the comparison is not empty
  });

  it('`only` narrows a record to the subscriptions it accepts; entries and parsed records go to their filters only', () => {
    const { d, got } = recorded();
    d.register('a', sub({ transactions: [txFilter('t', [1])], entry: [{ name: 'e' }] }));
    d.register('b', sub({ transactions: [txFilter('t', [1])], parsed: [{ name: 'p' }] }));
    d.record(tx(5n, [1]), (s) => s === 'b');
    d.record(entryRecord(EntryEvent.fromPartial({ slot: 5n }), 0), (s) => s === 'b');
    d.record(entryRecord(EntryEvent.fromPartial({ slot: 6n }), 0));
    d.record(new ChainRecord('parsed', ParsedTransactionEvent.fromPartial({ slot: 6n }), 0));
    expect(got).toEqual(['b transaction 5 [t]', 'a entry 6 [e]', 'b parsed 6 [p]']);
  });

  // The order of a slot record's news (and the filling in of skipped levels) is tested through the hub
  // (hub.unit.test.ts); here what is the dispatcher's own: the chain state hears the record before anyone, and
  // progress statuses take part in no commitment but reach the slot filters that want them.
  it('a slot record: the chain state first; progress statuses only to interslot filters, never to `level`', () => {
    const chain = new ChainState();
    const seen: [string, bigint, number | undefined][] = [];
    const d = new Dispatcher<string>((s, u) => seen.push([s, u.slot, u.live.kind === 'slot' ? u.live.event.status : undefined]), chain);
    d.register('inter', sub({ slots: [{ name: 'i', filterByCommitment: false, interslotUpdates: true }] }));
    d.register(
      'mine',
      sub({ commitment: Commitment.confirmed, slots: [{ name: 'c', filterByCommitment: true, interslotUpdates: false }] }),
    );
    const levels: number[] = [];
    d.event(slot(11n, SlotStatus.SLOT_STATUS_PROCESSED), (n, st) => {
      expect(chain.slot(Commitment.processed)).toBe(n);
      levels.push(st);
    });
    d.event(slot(11n, SlotStatus.SLOT_STATUS_COMPLETED), (_, st) => levels.push(st));
    d.event(slot(11n, SlotStatus.SLOT_STATUS_CONFIRMED), (_, st) => levels.push(st));
    expect(levels).toEqual([SlotStatus.SLOT_STATUS_PROCESSED, SlotStatus.SLOT_STATUS_CONFIRMED]);
    expect(seen).toEqual([
      ['inter', 11n, SlotStatus.SLOT_STATUS_PROCESSED],
      ['inter', 11n, SlotStatus.SLOT_STATUS_COMPLETED],
      ['inter', 11n, SlotStatus.SLOT_STATUS_CONFIRMED],
      ['mine', 11n, SlotStatus.SLOT_STATUS_CONFIRMED],
    ]);
  });

  // Yellowstone deduplicates before its filters: the later writes of an account a gated subscription matched count,
  // matched or not; processed subscriptions keep nothing.
  it('remembers the newest write of the accounts a gated subscription matched, moved by writes it did not match', () => {
    const { d } = recorded();
    d.register('processed', sub({ accounts: [accFilter('all', [])] }));
    d.record(acc(5n, 1, 1n));
    expect(d.writes.newest(5n, keyId(key(1)))).toBeUndefined();
    d.register('confirmed', sub({ commitment: Commitment.confirmed, accounts: [accFilter('rich', [1, 2], [], 5n)] }));
    d.record(acc(5n, 1, 2n, 9n)); // matched
    d.record(acc(5n, 1, 3n, 1n)); // not matched (lamports): still the account's newest write
    d.record(acc(5n, 2, 1n, 1n)); // never matched: not remembered
    expect(d.writes.newest(5n, keyId(key(1)))).toBe(3n);
    expect(d.writes.newest(5n, keyId(key(2)))).toBeUndefined();
  });

  it('assembles blocks while a subscription has blocks filters, and hands each to those subscriptions', () => {
    const { d, got } = recorded();
    const blocks = { name: 'b', accountInclude: [], includeTransactions: true, includeAccounts: false, includeEntries: false };
    d.register('x', sub({ blocks: [blocks] }));
    expect(d.blocks).toBeDefined();
    const marker = slotRecord(
      SlotEvent.fromPartial({
        slot: 8n,
        status: SlotStatus.SLOT_STATUS_PROCESSED,
        block: { blockhash: Buffer.alloc(32, 1), executedTransactionCount: 1n, entryCount: 0n },
        end: { counts: [{ kind: 'transactions', partition: 0, count: 1 }] },
      }),
      0,
    );
    d.event(tx(8n, [1]), () => undefined);
    d.event(marker, () => undefined);
    expect(got).toEqual(['x block 8 [b]']);
    d.unregister('x');
    expect(d.blocks).toBeUndefined();
  });
});
