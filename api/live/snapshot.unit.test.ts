// Snapshot, then stream (issue 23, item 1): the pure parts. Which accounts a snapshot reads for a subscription's
// account filters, how a row of the accounts view becomes an is_startup account write at the snapshot's slot, the
// statement's shape (placeholders only; key columns that do not shadow the filtered ones), and the refusal without
// views. The stream itself runs against real Kafka and ClickHouse in test/snapshot.int.test.ts.
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { streamRequest, type StreamRequestInput } from '../../test/support/filters/stream-request.js';
import { compileSubscribeRequest, type CompiledSubscription } from '../filters/index.js';
import { accountSnapshotSql } from '../views/account-snapshot.js';
import { snapshotAccount, snapshotCandidates, snapshotSlot, SnapshotUnavailable } from './snapshot.js';

const A = bs58.encode(Buffer.alloc(32, 1));
const B = bs58.encode(Buffer.alloc(32, 2));
const P = bs58.encode(Buffer.alloc(32, 3));
const Q = bs58.encode(Buffer.alloc(32, 4));

function compiled(input: StreamRequestInput): CompiledSubscription {
  const c = compileSubscribeRequest(streamRequest(input), { maxFiltersPerKind: 10, maxKeysPerList: 10 });
  if (!c.ok) throw new Error(c.error.message);
  return c.value;
}

describe('snapshotCandidates', () => {
  it('no account filter: nothing to snapshot', () => {
    expect(snapshotCandidates(compiled({ transactions: { t: { accountInclude: [A] } } }))).toBeUndefined();
  });

  it('filters naming pubkeys read those pubkeys only (the union, once each)', () => {
    const c = snapshotCandidates(compiled({ accounts: { x: { account: [A, B], owner: [P] }, y: { account: [B] } } }));
    expect(c).toEqual({ kind: 'pubkeys', pubkeys: [A, B] });
  });

  it('an owner-only filter reads by owner, with the pubkeys other filters name', () => {
    const c = snapshotCandidates(compiled({ accounts: { x: { owner: [P, Q] }, y: { account: [A] } } }));
    expect(c).toEqual({ kind: 'owners', owners: [P, Q], pubkeys: [A] });
  });

  it('a filter naming neither pubkeys nor owners reads every account', () => {
    const c = snapshotCandidates(
      compiled({ accounts: { x: { owner: [P] }, y: { filters: [{ filter: { $case: 'datasize', value: 165n } }] } } }),
    );
    expect(c).toEqual({ kind: 'all' });
  });
});

describe('snapshotAccount', () => {
  it('a row of the view is the account write at the snapshot slot, marked is_startup', () => {
    const owners = new Map<string, Buffer>();
    const row = {
      pubkey_hex: Buffer.alloc(32, 1).toString('hex').toUpperCase(),
      owner_hex: Buffer.alloc(32, 3).toString('hex').toUpperCase(),
      lamports: '18446744073709551615',
      executable: true,
      rent_epoch: '7',
      data: Buffer.from('hello').toString('base64'),
      write_version: '42',
    };
    const a = snapshotAccount(row, 900n, owners);
    expect(a).toEqual({
      pubkey: Buffer.alloc(32, 1),
      lamports: 18446744073709551615n,
      owner: Buffer.alloc(32, 3),
      executable: true,
      rentEpoch: 7n,
      data: Buffer.from('hello'),
      writeVersion: 42n,
      slot: 900n,
      txnSignature: undefined,
      isStartup: true,
    });
    // Owners repeat (a program's accounts): one buffer each.
    expect(snapshotAccount({ ...row, executable: false }, 900n, owners).owner).toBe(a.owner);
    expect(snapshotAccount({ ...row, executable: 0 }, 900n, owners).executable).toBe(false);
  });
});

describe('accountSnapshotSql', () => {
  it('takes every value as a placeholder and names the hex key columns apart from the columns it filters on', () => {
    for (const c of [{ kind: 'all' }, { kind: 'pubkeys', pubkeys: [A] }, { kind: 'owners', owners: [P], pubkeys: [] }] as const) {
      const sql = accountSnapshotSql(c);
      expect(sql).toContain('{slot:UInt64}');
      expect(sql).not.toMatch(/AS (owner|pubkey)\b/);
      expect(sql).toContain('lamports > 0');
    }
    expect(accountSnapshotSql({ kind: 'owners', owners: [P], pubkeys: [] })).toContain('owner IN {owners:Array(String)}');
    expect(accountSnapshotSql({ kind: 'pubkeys', pubkeys: [A] })).toContain('pubkey IN {pubkeys:Array(String)}');
  });
});

describe('snapshotSlot', () => {
  it('without ClickHouse views: SnapshotUnavailable saying so', async () => {
    const sub = compiled({ accounts: { x: { owner: [P] } } });
    await expect(snapshotSlot({ ch: undefined, database: 'd', sub, current: () => true })).rejects.toThrow(SnapshotUnavailable);
    await expect(snapshotSlot({ ch: undefined, database: 'd', sub, current: () => true })).rejects.toThrow(/no ClickHouse views/);
  });
});
