import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import {
  type DeepPartial,
  type SubscribeRequestFilterAccounts,
  type SubscribeRequestFilterAccountsFilter,
  type SubscribeRequestFilterTransactions,
} from '../../proto/gen/stream.js';
import { AccountEvent, TransactionEvent } from '../../schemas/gen/events.js';
import { scanTransaction } from '../../schemas/scan.js';
import { matchAccount, matchTransaction, scannedTransactionView, transactionFilterMatches } from './match.js';
import { raw, rawSig, key, sig, sub } from '../../test/support/filters/keys.js';

function tx(p: {
  keys?: number[];
  writable?: number[];
  readonly?: number[];
  vote?: boolean;
  err?: string;
  sigs?: number[];
  ixData?: Buffer;
}) {
  return TransactionEvent.fromPartial({
    slot: 5n,
    signatures: (p.sigs ?? [1]).map(rawSig),
    versioned: (p.writable ?? p.readonly) !== undefined,
    accountKeys: (p.keys ?? []).map(raw),
    loadedWritable: (p.writable ?? []).map(raw),
    loadedReadonly: (p.readonly ?? []).map(raw),
    isVote: p.vote ?? false,
    err: p.err,
    instructions: p.ixData ? [{ programIdIndex: 0, accounts: Buffer.from([0]), data: p.ixData }] : [],
  });
}

/** Names matched by a single transaction filter `f` for tx. */
const txMatches = (f: DeepPartial<SubscribeRequestFilterTransactions>, t: TransactionEvent) =>
  matchTransaction(sub({ transactions: { f } }), t).length === 1;

describe('matchTransaction', () => {
  it('a filter with every field empty matches every transaction', () => {
    expect(txMatches({}, tx({}))).toBe(true);
    expect(txMatches({}, tx({ keys: [1, 2], vote: true, err: '"X"' }))).toBe(true);
  });

  it('account_include passes when any listed key is in the transaction', () => {
    expect(txMatches({ accountInclude: [key(9), key(2)] }, tx({ keys: [1, 2] }))).toBe(true);
    expect(txMatches({ accountInclude: [key(9), key(8)] }, tx({ keys: [1, 2] }))).toBe(false);
  });

  it('account_exclude fails when any listed key is in the transaction', () => {
    expect(txMatches({ accountExclude: [key(9), key(2)] }, tx({ keys: [1, 2] }))).toBe(false);
    expect(txMatches({ accountExclude: [key(9)] }, tx({ keys: [1, 2] }))).toBe(true);
  });

  it('account_required passes only when every listed key is in the transaction', () => {
    expect(txMatches({ accountRequired: [key(1), key(2)] }, tx({ keys: [1, 2, 3] }))).toBe(true);
    expect(txMatches({ accountRequired: [key(1), key(4)] }, tx({ keys: [1, 2, 3] }))).toBe(false);
    expect(txMatches({ accountRequired: [key(1), key(2), key(3), key(4)] }, tx({ keys: [1, 2, 3] }))).toBe(false);
  });

  it('the key set includes addresses loaded through lookup tables, writable and readonly', () => {
    const t = tx({ keys: [1], writable: [2], readonly: [3] });
    expect(txMatches({ accountInclude: [key(2)] }, t)).toBe(true);
    expect(txMatches({ accountInclude: [key(3)] }, t)).toBe(true);
    expect(txMatches({ accountExclude: [key(3)] }, t)).toBe(false);
    expect(txMatches({ accountExclude: [key(2)] }, t)).toBe(false);
    expect(txMatches({ accountRequired: [key(1), key(2), key(3)] }, t)).toBe(true);
  });

  it('instruction data is not matched', () => {
    expect(txMatches({ accountInclude: [key(7)] }, tx({ keys: [1], ixData: raw(7) }))).toBe(false);
  });

  it('fields inside one filter combine with AND', () => {
    const f = { accountInclude: [key(1)], accountExclude: [key(2)], accountRequired: [key(3)], vote: false };
    expect(txMatches(f, tx({ keys: [1, 3] }))).toBe(true);
    expect(txMatches(f, tx({ keys: [1, 3, 2] }))).toBe(false);
    expect(txMatches(f, tx({ keys: [1] }))).toBe(false);
    expect(txMatches(f, tx({ keys: [3] }))).toBe(false);
    expect(txMatches(f, tx({ keys: [1, 3], vote: true }))).toBe(false);
  });

  it('vote: unset any, true only votes, false votes excluded', () => {
    expect(txMatches({}, tx({ vote: true }))).toBe(true);
    expect(txMatches({ vote: true }, tx({ vote: true }))).toBe(true);
    expect(txMatches({ vote: true }, tx({ vote: false }))).toBe(false);
    expect(txMatches({ vote: false }, tx({ vote: true }))).toBe(false);
    expect(txMatches({ vote: false }, tx({ vote: false }))).toBe(true);
  });

  it('failed: err present means failed; unset any, true only failed, false failed excluded', () => {
    const bad = tx({ err: '{"InstructionError":[2,{"Custom":6002}]}' });
    const good = tx({});
    expect(txMatches({}, bad)).toBe(true);
    expect(txMatches({ failed: true }, bad)).toBe(true);
    expect(txMatches({ failed: true }, good)).toBe(false);
    expect(txMatches({ failed: false }, bad)).toBe(false);
    expect(txMatches({ failed: false }, good)).toBe(true);
  });

  it('signature matches only the transaction whose first signature it is', () => {
    expect(txMatches({ signature: sig(5) }, tx({ sigs: [5, 6] }))).toBe(true);
    expect(txMatches({ signature: sig(6) }, tx({ sigs: [5, 6] }))).toBe(false);
    expect(txMatches({ signature: sig(6) }, tx({ sigs: [] }))).toBe(false);
  });

  it('named filters combine with OR and every matching name is listed, sorted', () => {
    const s = sub({
      transactions: {
        zeta: { accountInclude: [key(1)] },
        alpha: {},
        mid: { accountInclude: [key(9)] },
        beta: { vote: false },
      },
    });
    expect(matchTransaction(s, tx({ keys: [1] }))).toEqual(['alpha', 'beta', 'zeta']);
    expect(matchTransaction(s, tx({ keys: [2], vote: true }))).toEqual(['alpha']);
    expect(matchTransaction(sub({ transactions: { only: { accountInclude: [key(9)] } } }), tx({ keys: [1] }))).toEqual([]);
  });

  it('a subscription without transaction filters matches nothing', () => {
    expect(matchTransaction(sub({ accounts: { a: {} } }), tx({ keys: [1] }))).toEqual([]);
  });

  it('a filter without key lists never builds the key set (a match-all stream pays nothing per key)', () => {
    const t = TransactionEvent.encode(tx({ keys: [1, 2, 3], vote: true })).finish();
    const view = scannedTransactionView(scanTransaction(Buffer.from(t)));
    let reads = 0;
    const counting = new Proxy(view, {
      get: (target, p) => {
        if (p === 'keys') reads++;
        const v = Reflect.get(target, p, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const [f] = sub({ transactions: { all: {}, votes: { vote: true } } }).transactions;
    expect(transactionFilterMatches(f!, counting)).toBe(true);
    expect(transactionFilterMatches(sub({ transactions: { votes: { vote: true } } }).transactions[0]!, counting)).toBe(true);
    expect(reads).toBe(0);
    // A filter with a key list does read it.
    expect(transactionFilterMatches(sub({ transactions: { k: { accountInclude: [key(2)] } } }).transactions[0]!, counting)).toBe(true);
    expect(reads).toBe(1);
  });
});

function acc(p: { pubkey?: number; owner?: number; data?: number[]; lamports?: bigint }) {
  return AccountEvent.fromPartial({
    pubkey: raw(p.pubkey ?? 1),
    owner: raw(p.owner ?? 2),
    data: Buffer.from(p.data ?? []),
    lamports: p.lamports ?? 1000n,
    slot: 5n,
  });
}
type AccFilter = DeepPartial<SubscribeRequestFilterAccounts>;
type Entry = DeepPartial<SubscribeRequestFilterAccountsFilter>;
const accMatches = (f: AccFilter, a: AccountEvent) => matchAccount(sub({ accounts: { f } }), a).length === 1;
const memcmp = (offset: number, bytes: number[]): Entry => ({
  filter: { $case: 'memcmp' as const, value: { offset: BigInt(offset), data: { $case: 'bytes' as const, value: Buffer.from(bytes) } } },
});
const datasize = (n: number): Entry => ({ filter: { $case: 'datasize' as const, value: BigInt(n) } });
const lamports = (op: 'eq' | 'ne' | 'lt' | 'gt', v: bigint): Entry => ({
  filter: { $case: 'lamports', value: { cmp: { $case: op, value: v } as { $case: 'eq'; value: bigint } } },
});

describe('matchAccount', () => {
  it('an all-empty filter matches every account update', () => {
    expect(accMatches({}, acc({}))).toBe(true);
    expect(accMatches({}, acc({ pubkey: 9, owner: 8, data: [1, 2], lamports: 0n }))).toBe(true);
  });

  it('account: any of the listed pubkeys', () => {
    expect(accMatches({ account: [key(5), key(1)] }, acc({ pubkey: 1 }))).toBe(true);
    expect(accMatches({ account: [key(5)] }, acc({ pubkey: 1 }))).toBe(false);
  });

  it('owner: any of the listed owners', () => {
    expect(accMatches({ owner: [key(5), key(2)] }, acc({ owner: 2 }))).toBe(true);
    expect(accMatches({ owner: [key(5)] }, acc({ owner: 2 }))).toBe(false);
  });

  it('account AND owner AND every filters entry', () => {
    const f = { account: [key(1)], owner: [key(2)], filters: [datasize(3), memcmp(1, [7])] };
    expect(accMatches(f, acc({ pubkey: 1, owner: 2, data: [0, 7, 0] }))).toBe(true);
    expect(accMatches(f, acc({ pubkey: 3, owner: 2, data: [0, 7, 0] }))).toBe(false);
    expect(accMatches(f, acc({ pubkey: 1, owner: 3, data: [0, 7, 0] }))).toBe(false);
    expect(accMatches(f, acc({ pubkey: 1, owner: 2, data: [0, 7, 0, 0] }))).toBe(false);
    expect(accMatches(f, acc({ pubkey: 1, owner: 2, data: [0, 8, 0] }))).toBe(false);
  });

  it('memcmp: the data at offset equals the bytes', () => {
    expect(accMatches({ filters: [memcmp(2, [3, 4])] }, acc({ data: [1, 2, 3, 4, 5] }))).toBe(true);
    expect(accMatches({ filters: [memcmp(2, [3, 5])] }, acc({ data: [1, 2, 3, 4, 5] }))).toBe(false);
    expect(accMatches({ filters: [memcmp(0, [1])] }, acc({ data: [1, 2, 3, 4, 5] }))).toBe(true);
  });

  it('memcmp running past the end of the data does not match', () => {
    expect(accMatches({ filters: [memcmp(3, [4, 5])] }, acc({ data: [1, 2, 3, 4, 5] }))).toBe(true);
    expect(accMatches({ filters: [memcmp(4, [5, 0])] }, acc({ data: [1, 2, 3, 4, 5] }))).toBe(false);
    expect(accMatches({ filters: [memcmp(9, [1])] }, acc({ data: [1, 2, 3, 4, 5] }))).toBe(false);
    expect(accMatches({ filters: [memcmp(0, [1])] }, acc({ data: [] }))).toBe(false);
  });

  it('empty memcmp data matches when the offset is within the data', () => {
    expect(accMatches({ filters: [memcmp(5, [])] }, acc({ data: [1, 2, 3, 4, 5] }))).toBe(true);
    expect(accMatches({ filters: [memcmp(6, [])] }, acc({ data: [1, 2, 3, 4, 5] }))).toBe(false);
  });

  it('memcmp from base58 and base64 matches like bytes', () => {
    const data = [9, 8, 7, 6];
    const b58: Entry = {
      filter: {
        $case: 'memcmp' as const,
        value: { offset: 1n, data: { $case: 'base58' as const, value: bs58.encode(Buffer.from([8, 7])) } },
      },
    };
    const b64: Entry = {
      filter: {
        $case: 'memcmp' as const,
        value: { offset: 2n, data: { $case: 'base64' as const, value: Buffer.from([7, 6]).toString('base64') } },
      },
    };
    expect(accMatches({ filters: [b58, b64] }, acc({ data }))).toBe(true);
    expect(accMatches({ filters: [b58, b64] }, acc({ data: [9, 8, 7, 5] }))).toBe(false);
  });

  it('datasize: the data length equals the value', () => {
    expect(accMatches({ filters: [datasize(3)] }, acc({ data: [1, 2, 3] }))).toBe(true);
    expect(accMatches({ filters: [datasize(3)] }, acc({ data: [1, 2] }))).toBe(false);
    expect(accMatches({ filters: [datasize(0)] }, acc({ data: [] }))).toBe(true);
  });

  it('lamports eq, ne, lt, gt compare the balance', () => {
    const a = acc({ lamports: 18446744073709551615n });
    expect(accMatches({ filters: [lamports('eq', 18446744073709551615n)] }, a)).toBe(true);
    expect(accMatches({ filters: [lamports('eq', 5n)] }, a)).toBe(false);
    expect(accMatches({ filters: [lamports('ne', 5n)] }, a)).toBe(true);
    expect(accMatches({ filters: [lamports('ne', 18446744073709551615n)] }, a)).toBe(false);
    expect(accMatches({ filters: [lamports('lt', 10n)] }, acc({ lamports: 9n }))).toBe(true);
    expect(accMatches({ filters: [lamports('lt', 10n)] }, acc({ lamports: 10n }))).toBe(false);
    expect(accMatches({ filters: [lamports('gt', 10n)] }, acc({ lamports: 11n }))).toBe(true);
    expect(accMatches({ filters: [lamports('gt', 10n)] }, acc({ lamports: 10n }))).toBe(false);
  });

  it('several lamports comparisons must all pass', () => {
    const f = { filters: [lamports('gt', 10n), lamports('lt', 20n), lamports('ne', 15n)] };
    expect(accMatches(f, acc({ lamports: 12n }))).toBe(true);
    expect(accMatches(f, acc({ lamports: 15n }))).toBe(false);
    expect(accMatches(f, acc({ lamports: 25n }))).toBe(false);
    expect(accMatches(f, acc({ lamports: 5n }))).toBe(false);
  });

  it('named filters combine with OR and every matching name is listed, sorted', () => {
    const s = sub({ accounts: { b: { owner: [key(2)] }, a: { account: [key(1)] }, c: { account: [key(3)] }, d: {} } });
    expect(matchAccount(s, acc({ pubkey: 1, owner: 2 }))).toEqual(['a', 'b', 'd']);
    expect(matchAccount(s, acc({ pubkey: 3, owner: 9 }))).toEqual(['c', 'd']);
  });

  it('a subscription without account filters matches nothing', () => {
    expect(matchAccount(sub({ transactions: { t: {} } }), acc({}))).toEqual([]);
  });
});
