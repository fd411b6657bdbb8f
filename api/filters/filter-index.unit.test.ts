import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import {
  type SubscribeRequest,
  type SubscribeRequestFilterAccounts,
  type SubscribeRequestFilterAccountsFilter,
  type SubscribeRequestFilterTransactions,
} from '../../proto/gen/stream.js';
import { AccountEvent, TransactionEvent } from '../../schemas/gen/events.js';
import { FilterIndex } from './filter-index.js';
import { raw, rawSig, key, sig, sub } from '../../test/support/filters/keys.js';
import { seededRandom } from '../../test/support/harness/random.js';
import { streamRequest } from '../../test/support/filters/stream-request.js';


const tx = (keys: number[], p: { writable?: number[]; readonly?: number[]; sig?: number; vote?: boolean; err?: string } = {}) =>
  TransactionEvent.fromPartial({
    signatures: [rawSig(p.sig ?? 200)],
    accountKeys: keys.map(raw),
    loadedWritable: (p.writable ?? []).map(raw),
    loadedReadonly: (p.readonly ?? []).map(raw),
    isVote: p.vote ?? false,
    err: p.err,
  });
const acc = (pubkey: number, owner: number, data: number[] = [], lamports = 1n) =>
  AccountEvent.fromPartial({ pubkey: raw(pubkey), owner: raw(owner), data: Buffer.from(data), lamports });

const asObject = <K, V>(m: Map<K, V>) => Object.fromEntries([...m].map(([k, v]) => [String(k), v]));

describe('FilterIndex', () => {
  it('returns, per stream, the sorted names of every matching filter', () => {
    const index = new FilterIndex<string>();
    index.set('s1', sub({ transactions: { z: { accountInclude: [key(1)] }, a: { accountRequired: [key(1), key(2)] }, w: {} } }));
    index.set('s2', sub({ transactions: { only: { accountInclude: [key(3)] } } }));
    expect(asObject(index.matchTransaction(tx([1, 2])))).toEqual({ s1: ['a', 'w', 'z'] });
    expect(asObject(index.matchTransaction(tx([3], { writable: [1] })))).toEqual({ s1: ['w', 'z'], s2: ['only'] });
  });

  it('indexes by signature', () => {
    const index = new FilterIndex<number>();
    index.set(1, sub({ transactions: { one: { signature: sig(7) } } }));
    expect(asObject(index.matchTransaction(tx([1], { sig: 7 })))).toEqual({ 1: ['one'] });
    expect(index.matchTransaction(tx([1], { sig: 8 })).size).toBe(0);
  });

  it('indexes accounts by pubkey and owner, with wildcards for the rest', () => {
    const index = new FilterIndex<string>();
    index.set('a', sub({ accounts: { byKey: { account: [key(1), key(5)] }, byOwner: { owner: [key(2)] } } }));
    index.set('b', sub({ accounts: { big: { filters: [{ filter: { $case: 'datasize', value: 2n } }] } } }));
    expect(asObject(index.matchAccount(acc(1, 2, [0, 0])))).toEqual({ a: ['byKey', 'byOwner'], b: ['big'] });
    expect(asObject(index.matchAccount(acc(5, 9)))).toEqual({ a: ['byKey'] });
    expect(asObject(index.matchAccount(acc(9, 9)))).toEqual({});
  });

  it('set replaces the whole filter set of a stream; delete removes it', () => {
    const index = new FilterIndex<string>();
    index.set('s', sub({ transactions: { old: { accountInclude: [key(1)] } }, accounts: { acc: {} } }));
    index.set('s', sub({ transactions: { new: { accountInclude: [key(2)] } } }));
    expect(index.matchTransaction(tx([1])).size).toBe(0);
    expect(asObject(index.matchTransaction(tx([2])))).toEqual({ s: ['new'] });
    expect(index.matchAccount(acc(1, 1)).size).toBe(0);
    expect(index.size).toBe(1);
    expect(index.delete('s')).toBe(true);
    expect(index.delete('s')).toBe(false);
    expect(index.size).toBe(0);
    expect(index.matchTransaction(tx([2])).size).toBe(0);
  });

  it('verifies candidates in proportion to the event keys, not to the number of streams', () => {
    const index = new FilterIndex<number>();
    for (let i = 0; i < 5000; i++) {
      const k = bs58.encode(Buffer.from(new Uint32Array([i, 9, 9, 9, 9, 9, 9, 9]).buffer));
      index.set(i, sub({ transactions: { t: { accountInclude: [k] } }, accounts: { a: { owner: [k] } } }));
    }
    const k42 = Buffer.from(new Uint32Array([42, 9, 9, 9, 9, 9, 9, 9]).buffer);
    const before = index.candidatesChecked;
    const hits = index.matchTransaction(TransactionEvent.fromPartial({ signatures: [rawSig(1)], accountKeys: [raw(1), k42, raw(3)] }));
    expect(asObject(hits)).toEqual({ 42: ['t'] });
    const accHits = index.matchAccount(AccountEvent.fromPartial({ pubkey: raw(1), owner: k42 }));
    expect(asObject(accHits)).toEqual({ 42: ['a'] });
    expect(index.candidatesChecked - before).toBe(2);
  });

  it('owner-bound account filters with a memcmp are verified per (owner, memcmp) group, not per stream', () => {
    const index = new FilterIndex<number>();
    const token = key(7);
    const wallet = (i: number): Buffer => Buffer.from(new Uint32Array([i, 5, 5, 5, 5, 5, 5, 5]).buffer);
    for (let i = 0; i < 500; i++) {
      const memcmp = { offset: 32n, data: { $case: 'bytes' as const, value: wallet(i) } };
      index.set(i, sub({ accounts: { mine: { owner: [token], filters: [{ filter: { $case: 'memcmp', value: memcmp } }] } } }));
    }
    const data = Buffer.concat([Buffer.alloc(32, 1), wallet(42), Buffer.alloc(101)]);
    const before = index.candidatesChecked;
    expect(asObject(index.matchAccount(AccountEvent.fromPartial({ pubkey: raw(1), owner: raw(7), data })))).toEqual({ 42: ['mine'] });
    expect(index.candidatesChecked - before).toBe(1);
    // Data too short for the memcmp: no candidate at all; another owner: none either.
    expect(index.matchAccount(AccountEvent.fromPartial({ pubkey: raw(1), owner: raw(7), data: Buffer.alloc(40) })).size).toBe(0);
    expect(index.matchAccount(AccountEvent.fromPartial({ pubkey: raw(1), owner: raw(8), data })).size).toBe(0);
    index.delete(42);
    expect(index.matchAccount(AccountEvent.fromPartial({ pubkey: raw(1), owner: raw(7), data })).size).toBe(0);
  });

  it('a filter reached through several keys of one event is checked and reported once', () => {
    const index = new FilterIndex<string>();
    index.set('s', sub({ transactions: { t: { accountInclude: [key(1), key(2), key(3)] } } }));
    const before = index.candidatesChecked;
    expect(asObject(index.matchTransaction(tx([1, 2], { readonly: [3] })))).toEqual({ s: ['t'] });
    expect(index.candidatesChecked - before).toBe(1);
  });
});

// ---- Seeded randomized comparison against an independent reference matcher ----


const KEYS = 8; // small universes so that matches are frequent
const SIGS = 4;

/**
 * The reference: works on the raw request (base58 strings, proto oneofs) and the raw event, straight from
 * behaviour.md, sharing no code with match.ts or filter-index.ts.
 */
function refTxFilter(f: SubscribeRequestFilterTransactions, t: TransactionEvent): boolean {
  const keys = [...t.accountKeys, ...t.loadedWritable, ...t.loadedReadonly].map((k) => bs58.encode(k));
  const has = (k: string) => keys.includes(k);
  if (f.accountInclude.length > 0 && !f.accountInclude.some(has)) return false;
  if (f.accountExclude.some(has)) return false;
  if (!f.accountRequired.every(has)) return false;
  if (f.vote !== undefined && f.vote !== t.isVote) return false;
  if (f.failed !== undefined && f.failed !== (t.err !== undefined)) return false;
  if (f.signature !== undefined && (t.signatures.length === 0 || bs58.encode(t.signatures[0]!) !== f.signature)) return false;
  return true;
}

function refMemcmpBytes(f: SubscribeRequestFilterAccountsFilter): { offset: number; bytes: Buffer } | undefined {
  if (f.filter?.$case !== 'memcmp') return undefined;
  const d = f.filter.value.data!;
  const bytes = d.$case === 'bytes' ? d.value : d.$case === 'base58' ? Buffer.from(bs58.decode(d.value)) : Buffer.from(d.value, 'base64');
  return { offset: Number(f.filter.value.offset), bytes };
}

function refAccFilter(f: SubscribeRequestFilterAccounts, a: AccountEvent): boolean {
  if (f.account.length > 0 && !f.account.includes(bs58.encode(a.pubkey))) return false;
  if (f.owner.length > 0 && !f.owner.includes(bs58.encode(a.owner))) return false;
  for (const e of f.filters) {
    const c = e.filter!;
    if (c.$case === 'datasize' && BigInt(a.data.length) !== c.value) return false;
    if (c.$case === 'memcmp') {
      const m = refMemcmpBytes(e)!;
      if (m.offset + m.bytes.length > a.data.length) return false;
      if (!a.data.subarray(m.offset, m.offset + m.bytes.length).equals(m.bytes)) return false;
    }
    if (c.$case === 'lamports') {
      const cmp = c.value.cmp!;
      const ok =
        cmp.$case === 'eq' ? a.lamports === cmp.value : cmp.$case === 'ne' ? a.lamports !== cmp.value : cmp.$case === 'lt' ? a.lamports < cmp.value : a.lamports > cmp.value;
      if (!ok) return false;
    }
  }
  return true;
}

function refMatch<F, E>(requests: Map<number, ReadonlyMap<string, F>>, event: E, test: (f: F, e: E) => boolean): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [stream, filters] of requests) {
    const names = [...filters.keys()]
      .filter((n) => test(filters.get(n)!, event))
      .sort();
    if (names.length > 0) out[String(stream)] = names;
  }
  return out;
}

function generators(rand: () => number) {
  const int = (n: number) => Math.floor(rand() * n);
  const chance = (p: number) => rand() < p;
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const some = (max: number, universe: number) => Array.from({ length: int(max + 1) }, () => int(universe));
  const optBool = () => pick([undefined, undefined, true, false]);
  const smallBytes = (max: number) => Buffer.from(Array.from({ length: int(max + 1) }, () => int(2)));

  const txFilter = (): SubscribeRequestFilterTransactions => ({
    accountInclude: chance(0.6) ? some(3, KEYS).map(key) : [],
    accountExclude: chance(0.3) ? some(2, KEYS).map(key) : [],
    accountRequired: chance(0.3) ? some(2, KEYS).map(key) : [],
    vote: optBool(),
    failed: optBool(),
    signature: chance(0.15) ? sig(int(SIGS)) : undefined,
  });

  const accEntry = (): SubscribeRequestFilterAccountsFilter => {
    const kind = int(3);
    if (kind === 0) {
      const bytes = smallBytes(2);
      const enc = int(3);
      const data =
        enc === 0
          ? { $case: 'bytes' as const, value: bytes }
          : enc === 1
            ? { $case: 'base58' as const, value: bs58.encode(bytes) }
            : { $case: 'base64' as const, value: bytes.toString('base64') };
      return { filter: { $case: 'memcmp', value: { offset: BigInt(int(4)), data } } };
    }
    if (kind === 1) return { filter: { $case: 'datasize', value: BigInt(int(5)) } };
    const op = pick(['eq', 'ne', 'lt', 'gt'] as const);
    return { filter: { $case: 'lamports', value: { cmp: { $case: op, value: BigInt(int(6)) } } } };
  };

  const accFilter = (): SubscribeRequestFilterAccounts => {
    const entries: SubscribeRequestFilterAccountsFilter[] = [];
    let hasDatasize = false;
    for (let i = int(3); i > 0; i--) {
      const e = accEntry();
      if (e.filter?.$case === 'datasize') {
        if (hasDatasize) continue;
        hasDatasize = true;
      }
      entries.push(e);
    }
    return {
      account: chance(0.5) ? some(3, KEYS).map(key) : [],
      owner: chance(0.4) ? some(2, KEYS).map(key) : [],
      filters: entries,
    };
  };

  const names = ['a', 'b', 'c', 'd', 'B', '10', '9'];
  const request = (): SubscribeRequest => {
    const transactions = new Map<string, SubscribeRequestFilterTransactions>();
    const accounts = new Map<string, SubscribeRequestFilterAccounts>();
    for (let i = int(4); i > 0; i--) transactions.set(pick(names), txFilter());
    for (let i = int(4); i > 0; i--) accounts.set(pick(names), accFilter());
    return streamRequest({ transactions, accounts });
  };

  const transaction = (): TransactionEvent =>
    TransactionEvent.fromPartial({
      signatures: chance(0.05) ? [] : [rawSig(int(SIGS)), rawSig(int(SIGS))],
      accountKeys: some(4, KEYS).map(raw),
      loadedWritable: chance(0.4) ? some(2, KEYS).map(raw) : [],
      loadedReadonly: chance(0.4) ? some(2, KEYS).map(raw) : [],
      isVote: chance(0.3),
      err: chance(0.3) ? '{"InstructionError":[0,{"Custom":1}]}' : undefined,
    });

  const account = (): AccountEvent =>
    AccountEvent.fromPartial({ pubkey: raw(int(KEYS)), owner: raw(int(KEYS)), data: smallBytes(5), lamports: BigInt(int(7)) });

  return { int, chance, request, transaction, account };
}

describe('FilterIndex against a reference matcher (seeded, randomized)', () => {
  it.each([1, 2, 3, 42, 1234])('seed %i: 1500 events over changing subscriptions agree with the reference', (seed) => {
    const g = generators(seededRandom(seed));
    const index = new FilterIndex<number>();
    const model = new Map<number, SubscribeRequest>();
    let compared = 0;
    let nonEmpty = 0;
    for (let step = 0; step < 1500; step++) {
      // Churn: add, replace or remove streams now and then.
      if (step % 10 === 0 || model.size < 3) {
        const stream = g.int(12);
        if (g.chance(0.2)) {
          expect(index.delete(stream)).toBe(model.delete(stream));
        } else {
          const req = g.request();
          model.set(stream, req);
          index.set(stream, sub(req));
        }
      }
      expect(index.size).toBe(model.size);
      if (g.chance(0.5)) {
        const t = g.transaction();
        const expected = refMatch(new Map([...model].map(([s, r]) => [s, r.transactions])), t, refTxFilter);
        expect(asObject(index.matchTransaction(t))).toEqual(expected);
        if (Object.keys(expected).length > 0) nonEmpty++;
      } else {
        const a = g.account();
        const expected = refMatch(new Map([...model].map(([s, r]) => [s, r.accounts])), a, refAccFilter);
        expect(asObject(index.matchAccount(a))).toEqual(expected);
        if (Object.keys(expected).length > 0) nonEmpty++;
      }
      compared++;
    }
    expect(compared).toBe(1500);
    // The generator must produce real matches, or the comparison proves little.
    expect(nonEmpty).toBeGreaterThan(300);
  });
});
