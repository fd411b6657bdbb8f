// Snapshot, then stream (issue 23, item 1): the pure parts. Which accounts a snapshot reads for a subscription's
// account filters, how a row of the accounts view (RowBinary) becomes an is_startup account record at the snapshot's slot, the
// statement's shape (placeholders only; key columns that do not shadow the filtered ones), and the refusal without
// views. The stream itself runs against real Kafka and ClickHouse in test/snapshot.int.test.ts.
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { streamRequest, type StreamRequestInput } from '../../test/support/filters/stream-request.js';
import { compileSubscribeRequest, type CompiledSubscription } from '../filters/index.js';
import { accountSnapshotSql } from '../views/account-snapshot.js';
import { AccountEvent } from '../../schemas/gen/events.js';
import { scanAccount } from '../../schemas/scan.js';
import { snapshotCandidates, snapshotSlot, SnapshotUnavailable } from './snapshot.js';
import { SnapshotRowDecoder, type SnapshotRecord } from './snapshot-records.js';

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

/** One row as the snapshot statement answers it in RowBinary (SNAPSHOT_ROW_COLUMNS). */
function rowBinary(a: {
  pubkey: Buffer;
  owner: Buffer;
  lamports: bigint;
  executable: boolean;
  rentEpoch: bigint;
  data: Buffer;
  writeVersion: bigint;
}): Buffer {
  const str = (b: Buffer) => {
    const len: number[] = [];
    let n = b.length;
    while (n >= 0x80) {
      len.push((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    len.push(n);
    return Buffer.concat([Buffer.from(len), b]);
  };
  const u64 = (v: bigint) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(v);
    return b;
  };
  return Buffer.concat([
    str(a.pubkey),
    str(a.owner),
    u64(a.lamports),
    Buffer.from([a.executable ? 1 : 0]),
    u64(a.rentEpoch),
    str(a.data),
    u64(a.writeVersion),
  ]);
}

/** Every whole row of `chunk` (after what the chunks before left). */
function take(d: SnapshotRowDecoder, chunk: Buffer): SnapshotRecord[] {
  d.push(chunk);
  const out: SnapshotRecord[] = [];
  for (let r = d.next(); r !== undefined; r = d.next()) out.push(r);
  return out;
}

describe('SnapshotRowDecoder', () => {
  const rows = [
    {
      pubkey: Buffer.alloc(32, 1),
      owner: Buffer.alloc(32, 3),
      lamports: 18446744073709551615n,
      executable: true,
      rentEpoch: 7n,
      data: Buffer.from('hello'),
      writeVersion: 42n,
    },
    {
      pubkey: Buffer.alloc(32, 2),
      owner: Buffer.alloc(32, 3),
      lamports: 1n,
      executable: false,
      rentEpoch: 18446744073709551615n,
      data: Buffer.alloc(300, 9),
      writeVersion: 0n,
    },
    {
      pubkey: Buffer.alloc(32, 5),
      owner: Buffer.alloc(32, 4),
      lamports: 2n ** 53n + 1n,
      executable: false,
      rentEpoch: 0n,
      data: Buffer.alloc(0),
      writeVersion: 2n ** 40n,
    },
  ];
  const bytes = Buffer.concat(rows.map(rowBinary));
  const expected = rows.map((r) => ({ ...r, slot: 900n, txnSignature: undefined, isStartup: true }));

  it('a row of the view is the account write at the snapshot slot, marked is_startup: the record ts-proto writes, with the scan a Kafka record has', () => {
    const got = take(new SnapshotRowDecoder(900n), bytes);
    expect(got.map((r) => r.event)).toEqual(expected);
    for (const [i, r] of got.entries()) {
      // Byte for byte what the event model's encoder writes: the transports cannot tell it from a Kafka record.
      expect(r.scan.bytes).toEqual(Buffer.from(AccountEvent.encode(expected[i]!).finish()));
      expect(r.scan).toEqual(scanAccount(r.scan.bytes));
      expect(r.kind).toBe('account');
      expect(r.snapshot).toBe(true); // PubSub notifies it at once, marked isStartup (not per slot as a write from Kafka)
      expect(r.slot).toBe(900n);
    }
  });

  it('rows cut anywhere between chunks come out the same, once each', () => {
    for (let cut = 1; cut < bytes.length; cut += 7) {
      const d = new SnapshotRowDecoder(900n);
      const got = [...take(d, bytes.subarray(0, cut)), ...take(d, bytes.subarray(cut))];
      d.end();
      expect(got.map((r) => r.event)).toEqual(expected);
    }
  });

  it('a result that ends inside a row is an error saying so, not a lost account', () => {
    const d = new SnapshotRowDecoder(900n);
    expect(take(d, bytes.subarray(0, bytes.length - 3)).length).toBe(2);
    expect(() => d.end()).toThrow(/ended inside a row \(\d+ bytes left over\)/);
  });
});

describe('accountSnapshotSql', () => {
  it('takes every value as a placeholder and names the key byte columns apart from the columns it filters on', () => {
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
    await expect(snapshotSlot({ views: undefined, sub, current: () => true })).rejects.toThrow(SnapshotUnavailable);
    await expect(snapshotSlot({ views: undefined, sub, current: () => true })).rejects.toThrow(/no ClickHouse views/);
  });
});
