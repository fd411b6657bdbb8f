import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import {
  type SubscribeRequest,
  type SubscribeRequestFilterAccounts,
  type SubscribeRequestFilterAccountsFilter,
  type SubscribeRequestFilterTransactions,
  type SubscribeRequestFilterTransactionsInstruction,
} from '../../proto/gen/stream.js';
import { AccountEvent, TransactionEvent, type CompiledInstruction } from '../../schemas/gen/events.js';
import { scanTransaction } from '../../schemas/scan.js';
import { CompressedAccountFilterSet } from '@triton-one/yellowstone-grpc';
import { compileSubscription } from './compile.js';
import { CuckooSet } from './cuckoo.js';
import { FilterIndex } from './filter-index.js';
import { EMPTY_SUBSCRIPTION, type SubscriptionSpec, type TransactionFilterSpec } from './model.js';
import { keyId as keyIdOf } from './key-id.js';
import { matchTransaction, scannedTransactionView, type TransactionView } from './match.js';
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

  it('instruction conditions: verified per instruction that satisfies one, not per stream', () => {
    const index = new FilterIndex<number>();
    const pump = key(9);
    const discriminator = (i: number) => Buffer.from(new Uint32Array([i, 77]).buffer); // 8 bytes
    for (let i = 0; i < 500; i++) {
      index.set(
        i,
        sub({
          transactions: {
            ix: { accountInclude: [pump], instructions: [{ programId: pump, data: { $case: 'discriminator', value: discriminator(i) } }] },
          },
        }),
      );
    }
    const txWith = (data: Buffer, inner = false) =>
      TransactionEvent.fromPartial({
        signatures: [rawSig(1)],
        accountKeys: [raw(1), raw(9)],
        instructions: inner ? [{ programIdIndex: 0, data: Buffer.from([1]) }] : [{ programIdIndex: 1, data }],
        innerInstructions: inner ? [{ index: 0, instructions: [{ programIdIndex: 1, data }] }] : [],
      });
    let before = index.candidatesChecked;
    expect(asObject(index.matchTransaction(txWith(Buffer.concat([discriminator(42), Buffer.alloc(16)]))))).toEqual({ 42: ['ix'] });
    expect(index.candidatesChecked - before).toBe(1);
    // Another instruction of the same program: no candidate at all, although all 500 include the program.
    before = index.candidatesChecked;
    expect(index.matchTransaction(txWith(discriminator(1000))).size).toBe(0);
    expect(index.candidatesChecked - before).toBe(0);
    // Inner instructions count only for conditions that ask.
    expect(index.matchTransaction(txWith(discriminator(42), true)).size).toBe(0);
    index.set(
      7,
      sub({
        transactions: {
          deep: { instructions: [{ programId: pump, data: { $case: 'discriminator', value: discriminator(42) }, includeInner: true }] },
        },
      }),
    );
    expect(asObject(index.matchTransaction(txWith(discriminator(42), true)))).toEqual({ 7: ['deep'] });
    index.delete(7);
    index.delete(42);
    expect(index.matchTransaction(txWith(discriminator(42), true)).size).toBe(0);
    expect(index.matchTransaction(txWith(discriminator(42))).size).toBe(0);
  });

  it('reads no instruction unless some filter has instruction conditions', () => {
    const index = new FilterIndex<string>();
    index.set('s', sub({ transactions: { all: {}, keyed: { accountInclude: [key(1)] }, votes: { vote: true } } }));
    const view: TransactionView = {
      keys: new Set([keyIdOf(raw(1))]),
      isVote: false,
      failed: false,
      signature: undefined,
      get instructions(): never {
        throw new Error('instructions read');
      },
      tokenOwners(): never {
        throw new Error('token balances read');
      },
    };
    expect(asObject(index.matchTransactionView(view))).toEqual({ s: ['all', 'keyed'] });
    index.set('t', sub({ transactions: { ix: { instructions: [{ programId: key(1) }] } } }));
    expect(() => index.matchTransactionView(view)).toThrow('instructions read');
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
  if (f.instructions.length > 0 && !refInstructions(f.instructions, t, keys)) return false;
  return true;
}

/** Some instruction (top-level; inner too for conditions with include_inner) satisfies some condition. */
function refInstructions(conditions: SubscribeRequestFilterTransactionsInstruction[], t: TransactionEvent, keys: string[]): boolean {
  const satisfies = (c: SubscribeRequestFilterTransactionsInstruction, ix: { programIdIndex: number; data: Uint8Array }): boolean => {
    if (keys[ix.programIdIndex] !== c.programId) return false;
    const data = Buffer.from(ix.data);
    const want =
      c.data?.$case === 'discriminator'
        ? { offset: 0, bytes: c.data.value }
        : c.data?.$case === 'memcmp'
          ? { offset: Number(c.data.value.offset), bytes: c.data.value.bytes }
          : undefined;
    return (
      want === undefined ||
      (data.subarray(want.offset, want.offset + want.bytes.length).equals(want.bytes) && want.offset + want.bytes.length <= data.length)
    );
  };
  const inner = t.innerInstructions.flatMap((g) => g.instructions);
  return conditions.some((c) => t.instructions.some((ix) => satisfies(c, ix)) || (c.includeInner && inner.some((ix) => satisfies(c, ix))));
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
        cmp.$case === 'eq'
          ? a.lamports === cmp.value
          : cmp.$case === 'ne'
            ? a.lamports !== cmp.value
            : cmp.$case === 'lt'
              ? a.lamports < cmp.value
              : a.lamports > cmp.value;
      if (!ok) return false;
    }
  }
  return true;
}

function refMatch<F, E>(requests: Map<number, ReadonlyMap<string, F>>, event: E, test: (f: F, e: E) => boolean): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [stream, filters] of requests) {
    const names = [...filters.keys()].filter((n) => test(filters.get(n)!, event)).sort();
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
    instructions: chance(0.4) ? Array.from({ length: 1 + int(3) }, ixCondition) : [],
  });

  // Programs from the key universe, data over {0, 1}: instructions often satisfy conditions, and often just miss.
  const ixCondition = (): SubscribeRequestFilterTransactionsInstruction => {
    const kind = int(3);
    const data =
      kind === 0
        ? undefined
        : kind === 1
          ? { $case: 'discriminator' as const, value: Buffer.concat([Buffer.from([int(2)]), smallBytes(1)]) }
          : { $case: 'memcmp' as const, value: { offset: BigInt(int(3)), bytes: Buffer.concat([Buffer.from([int(2)]), smallBytes(1)]) } };
    return { programId: key(int(KEYS)), data, includeInner: chance(0.5) };
  };

  const instruction = (keyCount: number): CompiledInstruction => ({
    programIdIndex: int(keyCount + 1), // sometimes one past the keys: a malformed record names no program
    accounts: Buffer.alloc(0),
    data: smallBytes(4),
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

  const transaction = (): TransactionEvent => {
    const accountKeys = some(4, KEYS).map(raw);
    const loadedWritable = chance(0.4) ? some(2, KEYS).map(raw) : [];
    const loadedReadonly = chance(0.4) ? some(2, KEYS).map(raw) : [];
    const n = accountKeys.length + loadedWritable.length + loadedReadonly.length;
    return TransactionEvent.fromPartial({
      signatures: chance(0.05) ? [] : [rawSig(int(SIGS)), rawSig(int(SIGS))],
      accountKeys,
      loadedWritable,
      loadedReadonly,
      isVote: chance(0.3),
      err: chance(0.3) ? '{"InstructionError":[0,{"Custom":1}]}' : undefined,
      instructions: Array.from({ length: int(4) }, () => instruction(n)),
      innerInstructions: Array.from({ length: int(3) }, (_, index) => ({
        index,
        instructions: Array.from({ length: int(3) }, () => ({ ...instruction(n), stackHeight: 2 })),
      })),
    });
  };

  const account = (): AccountEvent =>
    AccountEvent.fromPartial({ pubkey: raw(int(KEYS)), owner: raw(int(KEYS)), data: smallBytes(5), lamports: BigInt(int(7)) });

  return { int, chance, request, transaction, account };
}

describe('FilterIndex against a reference matcher (seeded, randomized)', () => {
  it.each([1, 2, 3, 42, 1234])(
    'seed %i: 1500 events over changing subscriptions agree with the reference',
    (seed) => {
      const g = generators(seededRandom(seed));
      const index = new FilterIndex<number>();
      const model = new Map<number, SubscribeRequest>();
      const compiled = new Map<number, ReturnType<typeof sub>>();
      let compared = 0;
      let nonEmpty = 0;
      for (let step = 0; step < 1500; step++) {
        // Churn: add, replace or remove streams now and then.
        if (step % 10 === 0 || model.size < 3) {
          const stream = g.int(12);
          if (g.chance(0.2)) {
            expect(index.delete(stream)).toBe(model.delete(stream));
            compiled.delete(stream);
          } else {
            const req = g.request();
            model.set(stream, req);
            compiled.set(stream, sub(req));
            index.set(stream, compiled.get(stream)!);
          }
        }
        expect(index.size).toBe(model.size);
        if (g.chance(0.5)) {
          const t = g.transaction();
          const expected = refMatch(new Map([...model].map(([s, r]) => [s, r.transactions])), t, refTxFilter);
          expect(asObject(index.matchTransaction(t))).toEqual(expected);
          // The live tail's path: the record's bytes, scanned, instructions read from the bytes.
          const scanned = scannedTransactionView(scanTransaction(Buffer.from(TransactionEvent.encode(t).finish())));
          expect(asObject(index.matchTransactionView(scanned))).toEqual(expected);
          // The replay path: one subscription at a time, on the decoded event.
          for (const [stream, c] of compiled) expect(matchTransaction(c, t)).toEqual(expected[String(stream)] ?? []);
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
    },
    30_000,
  ); // each event is also matched through its scanned record and per subscription: slow on a loaded machine
});

describe('FilterIndex: cuckoo sets and token_accounts (geyser.Geyser)', () => {
  const cuckooOf = (...n: number[]): CuckooSet => {
    const built = new CompressedAccountFilterSet(100);
    for (const i of n) built.insert(raw(i));
    return CuckooSet.fromMessage(built.toProto(), Number.MAX_SAFE_INTEGER);
  };
  const spec = (p: Partial<SubscriptionSpec>) => compileSubscription({ ...EMPTY_SUBSCRIPTION, ...p });
  const txFilter = (name: string, p: Partial<TransactionFilterSpec>): TransactionFilterSpec => ({
    name,
    accountInclude: [],
    accountExclude: [],
    accountRequired: [],
    ...p,
  });
  const owned = (keys: number[], owners: number[]) =>
    TransactionEvent.fromPartial({
      signatures: [rawSig(1)],
      accountKeys: keys.map(raw),
      postTokenBalances: owners.map((o, i) => ({ accountIndex: i, owner: raw(o), mint: raw(99), amount: 1n })),
    });

  it('a cuckoo account filter with a list matches either (the list keys are no gate); with an owner, both', () => {
    const index = new FilterIndex<string>();
    index.set(
      's',
      spec({
        accounts: [
          { name: 'c', account: [raw(1)], accountCuckoo: cuckooOf(2), owner: [], filters: [] },
          { name: 'o', account: [], accountCuckoo: cuckooOf(3), owner: [raw(9)], filters: [] },
        ],
      }),
    );
    expect(asObject(index.matchAccount(acc(1, 8)))).toEqual({ s: ['c'] });
    expect(asObject(index.matchAccount(acc(2, 8)))).toEqual({ s: ['c'] });
    expect(asObject(index.matchAccount(acc(3, 9)))).toEqual({ s: ['o'] });
    expect(asObject(index.matchAccount(acc(3, 8)))).toEqual({});
    index.delete('s');
    expect(index.matchAccount(acc(2, 8)).size).toBe(0);
  });

  it('transaction filters with a cuckoo include set or token_accounts find what the one-subscription matcher finds', () => {
    const index = new FilterIndex<string>();
    const s = spec({
      transactions: [
        txFilter('cuckoo', { accountInclude: [raw(1)], accountIncludeCuckoo: cuckooOf(2) }),
        txFilter('ownerInclude', { accountInclude: [raw(3)], tokenAccounts: 'all' }),
        txFilter('ownerRequired', { accountRequired: [raw(4)], tokenAccounts: 'balanceChanged' }),
        txFilter('ownerCuckoo', { accountIncludeCuckoo: cuckooOf(5), tokenAccounts: 'all' }),
      ],
    });
    index.set('s', s);
    const cases = [owned([1], []), owned([2], []), owned([7], [3]), owned([7], [4]), owned([4], []), owned([7], [5]), owned([7], [8])];
    for (const t of cases) {
      const expected = matchTransaction(s, t);
      const got = index.matchTransaction(t).get('s') ?? [];
      expect(got).toEqual(expected);
      // And through a scanned record's view, as the live tail matches.
      const scanned = index.matchTransactionView(scannedTransactionView(scanTransaction(Buffer.from(TransactionEvent.encode(t).finish()))));
      expect(scanned.get('s') ?? []).toEqual(expected);
    }
    expect(cases.map((t) => matchTransaction(s, t))).toEqual([
      ['cuckoo'],
      ['cuckoo'],
      ['ownerInclude'],
      ['ownerRequired'],
      ['ownerRequired'],
      ['ownerCuckoo'],
      [],
    ]);
  });
});
