// stream.Stream's adapter: the rules and limits of behaviour.md, through the stream.Stream entry point
// (adapter + compile), and the neutral model the adapter hands over.
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { CommitmentLevel, SubscribeRequest } from '../../proto/gen/stream.js';
import { streamRequest, type StreamRequestInput } from '../../test/support/filters/stream-request.js';
import { compileSubscribeRequest, specFromStreamRequest } from './from-stream.js';
import { keyId } from './key-id.js';
import { DEFAULT_FILTER_LIMITS, type CompiledSubscription, type FilterLimits } from './types.js';

const key = (n: number): string => bs58.encode(Buffer.alloc(32, n));
const sig = (n: number): string => bs58.encode(Buffer.alloc(64, n));

type Partial = StreamRequestInput;

function compile(partial: Partial, limits: FilterLimits = DEFAULT_FILTER_LIMITS) {
  return compileSubscribeRequest(streamRequest(partial), limits);
}
function ok(partial: Partial, limits?: FilterLimits): CompiledSubscription {
  const r = compile(partial, limits);
  if (!r.ok) throw new Error(`expected ok, got ${r.error.message}`);
  return r.value;
}
function fail(partial: Partial, limits?: FilterLimits): string {
  const r = compile(partial, limits);
  if (r.ok) throw new Error('expected an error');
  expect(r.error.code).toBe('INVALID_FILTER');
  expect(r.error.message.startsWith(`${r.error.path}: `)).toBe(true);
  return r.error.message;
}

describe('compileSubscribeRequest: request level', () => {
  it('an empty request compiles to no filters, PROCESSED, full data, no replay', () => {
    const s = ok({});
    expect(s.transactions).toEqual([]);
    expect(s.accounts).toEqual([]);
    expect(s.commitment).toBe('processed');
    expect(s.accountsDataSlice).toEqual([]);
    expect(s.fromSlot).toBeUndefined();
  });

  it('keeps commitment CONFIRMED and FINALIZED and from_slot', () => {
    expect(ok({ commitment: CommitmentLevel.CONFIRMED }).commitment).toBe('confirmed');
    const s = ok({ commitment: CommitmentLevel.FINALIZED, fromSlot: 12345678901234n });
    expect(s.commitment).toBe('finalized');
    expect(s.fromSlot).toBe(12345678901234n);
  });

  it('rejects an unknown commitment level', () => {
    expect(fail({ commitment: 7 as CommitmentLevel })).toMatch(/^commitment: unknown commitment level 7/);
  });

  it('sorts filters by name so matches and errors come out in a stable order', () => {
    const s = ok({ transactions: { b: {}, a: {}, '10': {}, '2': {} }, accounts: { z: {}, y: {} } });
    expect(s.transactions.map((f) => f.name)).toEqual(['10', '2', 'a', 'b']);
    expect(s.accounts.map((f) => f.name)).toEqual(['y', 'z']);
  });

  it('filters named __proto__, constructor and prototype survive the generated decoder (map fields are Maps)', () => {
    const names = ['__proto__', 'constructor', 'prototype'];
    const wire = SubscribeRequest.encode(
      streamRequest({ transactions: new Map(names.map((n) => [n, { vote: true }])), accounts: new Map(names.map((n) => [n, {}])) }),
    ).finish();
    const s = ok(SubscribeRequest.decode(wire));
    expect(s.transactions.map((f) => f.name)).toEqual(names);
    expect(s.transactions.every((f) => f.vote === true)).toBe(true);
    expect(s.accounts.map((f) => f.name)).toEqual(names);
  });

  it('reports the first error in name order', () => {
    const msg = fail({ transactions: { b: { accountInclude: ['0'] }, a: { accountExclude: ['0'] } } });
    expect(msg).toMatch(/^transactions\["a"\]\.account_exclude\[0\]/);
  });

  it('the result is frozen', () => {
    const s = ok({
      transactions: { a: { accountInclude: [key(1)] } },
      accounts: { b: { filters: [{ filter: { $case: 'datasize', value: 3n } }] } },
    });
    expect(Object.isFrozen(s)).toBe(true);
    expect(Object.isFrozen(s.transactions)).toBe(true);
    expect(Object.isFrozen(s.transactions[0])).toBe(true);
    expect(Object.isFrozen(s.accounts[0]!.memcmp)).toBe(true);
    expect(Object.isFrozen(s.accountsDataSlice)).toBe(true);
  });
});

describe('compileSubscribeRequest: limits', () => {
  const limits: FilterLimits = { maxFiltersPerKind: 2, maxKeysPerList: 3 };

  it('default limits are 100 filters per kind and 10,000 keys per list', () => {
    expect(DEFAULT_FILTER_LIMITS).toEqual({ maxFiltersPerKind: 100, maxKeysPerList: 10_000 });
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`f${i}`, {}]));
    expect(ok({ transactions: many }).transactions).toHaveLength(100);
    expect(fail({ transactions: { ...many, extra: {} } })).toBe('transactions: 101 filters, at most 100 allowed');
    const keys = Array.from({ length: 10_000 }, (_, i) => bs58.encode(Buffer.from(new Uint32Array([i, 1, 2, 3, 4, 5, 6, 7]).buffer)));
    expect(ok({ accounts: { a: { account: keys } } }).accounts[0]!.account.size).toBe(10_000);
    expect(fail({ accounts: { a: { account: [...keys, key(1)] } } })).toBe('accounts["a"].account: 10001 keys, at most 10000 allowed');
  });

  it('rejects more transaction filters than allowed', () => {
    expect(ok({ transactions: { a: {}, b: {} } }, limits).transactions).toHaveLength(2);
    expect(fail({ transactions: { a: {}, b: {}, c: {} } }, limits)).toBe('transactions: 3 filters, at most 2 allowed');
  });

  it('rejects more account filters than allowed', () => {
    expect(fail({ accounts: { a: {}, b: {}, c: {} } }, limits)).toBe('accounts: 3 filters, at most 2 allowed');
  });

  it.each(['accountInclude', 'accountExclude', 'accountRequired'] as const)('rejects a %s list over the key limit', (field) => {
    const snake = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    expect(ok({ transactions: { t: { [field]: [key(1), key(2), key(3)] } } }, limits).transactions).toHaveLength(1);
    expect(fail({ transactions: { t: { [field]: [key(1), key(2), key(3), key(4)] } } }, limits)).toBe(
      `transactions["t"].${snake}: 4 keys, at most 3 allowed`,
    );
  });

  it.each(['account', 'owner'] as const)('rejects an account filter %s list over the key limit', (field) => {
    expect(fail({ accounts: { x: { [field]: [key(1), key(2), key(3), key(4)] } } }, limits)).toBe(
      `accounts["x"].${field}: 4 keys, at most 3 allowed`,
    );
  });

  it('accepts a filter name of 128 bytes and rejects 129 bytes (counted in UTF-8)', () => {
    expect(ok({ transactions: { ['n'.repeat(128)]: {} } }).transactions).toHaveLength(1);
    expect(fail({ transactions: { ['n'.repeat(129)]: {} } })).toMatch(/filter name is 129 bytes, at most 128 allowed$/);
    // 43 euro signs: 43 chars but 129 bytes.
    expect(fail({ accounts: { ['€'.repeat(43)]: {} } })).toMatch(/^accounts\["€+"\]: filter name is 129 bytes/);
  });

  it('accepts 4 filters entries and rejects 5', () => {
    const entry = { filter: { $case: 'lamports' as const, value: { cmp: { $case: 'gt' as const, value: 1n } } } };
    expect(ok({ accounts: { a: { filters: [entry, entry, entry, entry] } } }).accounts[0]!.lamports).toHaveLength(4);
    expect(fail({ accounts: { a: { filters: [entry, entry, entry, entry, entry] } } })).toBe(
      'accounts["a"].filters: 5 entries, at most 4 allowed',
    );
  });
});

describe('compileSubscribeRequest: transaction filters', () => {
  it('decodes keys into key ids and collapses duplicates', () => {
    const s = ok({
      transactions: { t: { accountInclude: [key(1), key(1), key(2)], accountExclude: [key(3)], accountRequired: [key(4)] } },
    });
    const f = s.transactions[0]!;
    expect([...f.accountInclude]).toEqual([keyId(Buffer.alloc(32, 1)), keyId(Buffer.alloc(32, 2))]);
    expect([...f.accountExclude]).toEqual([keyId(Buffer.alloc(32, 3))]);
    expect([...f.accountRequired]).toEqual([keyId(Buffer.alloc(32, 4))]);
    expect(f.vote).toBeUndefined();
    expect(f.failed).toBeUndefined();
    expect(f.signature).toBeUndefined();
  });

  it('keeps vote, failed and signature', () => {
    const f = ok({ transactions: { t: { vote: false, failed: true, signature: sig(9) } } }).transactions[0]!;
    expect(f.vote).toBe(false);
    expect(f.failed).toBe(true);
    expect(f.signature).toBe(keyId(Buffer.alloc(64, 9)));
  });

  it('names filter, field and index of a pubkey that is not base58', () => {
    expect(fail({ transactions: { bots: { accountInclude: [key(1), key(2), key(3), '0OIl'] } } })).toBe(
      'transactions["bots"].account_include[3]: invalid pubkey "0OIl": not base58',
    );
  });

  it('rejects a pubkey that does not decode to 32 bytes', () => {
    expect(fail({ transactions: { bots: { accountExclude: ['xyz'] } } })).toBe(
      'transactions["bots"].account_exclude[0]: invalid pubkey "xyz": decodes to 3 bytes, expected 32',
    );
    expect(fail({ transactions: { bots: { accountRequired: [bs58.encode(Buffer.alloc(33, 5))] } } })).toMatch(
      /^transactions\["bots"\]\.account_required\[0\]: invalid pubkey .*(decodes to 33 bytes|longer than)/,
    );
    expect(fail({ transactions: { bots: { accountInclude: [''] } } })).toBe(
      'transactions["bots"].account_include[0]: invalid pubkey "": empty string',
    );
  });

  it('cuts long invalid values in messages', () => {
    const msg = fail({ transactions: { t: { accountInclude: ['1'.repeat(5000)] } } });
    expect(msg.length).toBeLessThan(200);
  });

  it('rejects a signature that is not base58 of 64 bytes', () => {
    expect(fail({ transactions: { t: { signature: key(1) } } })).toBe(
      `transactions["t"].signature: invalid signature "${key(1)}": decodes to 32 bytes, expected 64`,
    );
    expect(fail({ transactions: { t: { signature: 'not-base58!' } } })).toBe(
      'transactions["t"].signature: invalid signature "not-base58!": not base58',
    );
  });
});

describe('compileSubscribeRequest: account filters', () => {
  it('rejects invalid account and owner pubkeys', () => {
    expect(fail({ accounts: { a: { account: ['bad0'] } } })).toBe('accounts["a"].account[0]: invalid pubkey "bad0": not base58');
    expect(fail({ accounts: { a: { owner: [key(1), 'abc'] } } })).toBe(
      'accounts["a"].owner[1]: invalid pubkey "abc": decodes to 3 bytes, expected 32',
    );
  });

  it('rejects a filters entry whose oneof is empty', () => {
    expect(fail({ accounts: { a: { filters: [{ filter: { $case: 'datasize', value: 1n } }, {}] } } })).toBe(
      'accounts["a"].filters[1]: no filter set (one of memcmp, datasize, lamports)',
    );
  });

  it('rejects a memcmp without data', () => {
    expect(fail({ accounts: { a: { filters: [{ filter: { $case: 'memcmp', value: { offset: 3n } } }] } } })).toBe(
      'accounts["a"].filters[0].memcmp: no data set (one of bytes, base58, base64)',
    );
  });

  it('rejects lamports without a comparison', () => {
    expect(fail({ accounts: { a: { filters: [{ filter: { $case: 'lamports', value: {} } }] } } })).toBe(
      'accounts["a"].filters[0].lamports: no comparison set (one of eq, ne, lt, gt)',
    );
  });

  it('rejects a second datasize', () => {
    const ds = (n: bigint) => ({ filter: { $case: 'datasize' as const, value: n } });
    expect(fail({ accounts: { a: { filters: [ds(1n), ds(2n)] } } })).toBe(
      'accounts["a"].filters[1].datasize: at most one datasize per filter',
    );
    expect(ok({ accounts: { a: { filters: [ds(165n)] } } }).accounts[0]!.datasize).toBe(165);
  });

  it('keeps several lamports comparisons', () => {
    const lam = (c: 'eq' | 'ne' | 'lt' | 'gt', v: bigint) => ({
      filter: { $case: 'lamports' as const, value: { cmp: { $case: c, value: v } } },
    });
    const f = ok({ accounts: { a: { filters: [lam('gt', 1n), lam('lt', 10n), lam('ne', 5n), lam('eq', 7n)] } } }).accounts[0]!;
    expect(f.lamports).toEqual([
      { op: 'gt', value: 1n },
      { op: 'lt', value: 10n },
      { op: 'ne', value: 5n },
      { op: 'eq', value: 7n },
    ]);
  });

  const memcmp = (
    data: { $case: 'bytes'; value: Buffer } | { $case: 'base58'; value: string } | { $case: 'base64'; value: string },
    offset = 0n,
  ) => ({
    accounts: { m: { filters: [{ filter: { $case: 'memcmp' as const, value: { offset, data } } }] } },
  });

  it('decodes memcmp bytes, base58 and base64 to the same bytes', () => {
    const raw = Buffer.from([0, 0, 1, 2, 255]);
    for (const data of [
      { $case: 'bytes' as const, value: raw },
      { $case: 'base58' as const, value: bs58.encode(raw) },
      { $case: 'base64' as const, value: raw.toString('base64') },
      { $case: 'base64' as const, value: raw.toString('base64').replace(/=+$/, '') },
    ]) {
      const m = ok(memcmp(data, 7n)).accounts[0]!.memcmp[0]!;
      expect(Buffer.from(m.bytes)).toEqual(raw);
      expect(m.offset).toBe(7);
    }
  });

  it('accepts 128 memcmp bytes and rejects 129', () => {
    expect(ok(memcmp({ $case: 'bytes', value: Buffer.alloc(128, 1) })).accounts).toHaveLength(1);
    expect(fail(memcmp({ $case: 'bytes', value: Buffer.alloc(129, 1) }))).toBe(
      'accounts["m"].filters[0].memcmp.bytes: 129 bytes, at most 128 allowed',
    );
  });

  it('base58 memcmp: 175 characters at most, 128 decoded bytes at most', () => {
    const max = bs58.encode(Buffer.alloc(128, 0xff));
    expect(max.length).toBeLessThanOrEqual(175);
    expect(ok(memcmp({ $case: 'base58', value: max })).accounts).toHaveLength(1);
    expect(fail(memcmp({ $case: 'base58', value: '2'.repeat(176) }))).toBe(
      'accounts["m"].filters[0].memcmp.base58: 176 characters, at most 175 allowed',
    );
    // 129 leading '1's are 129 zero bytes: within the character limit, over the byte limit.
    expect(fail(memcmp({ $case: 'base58', value: '1'.repeat(129) }))).toBe(
      'accounts["m"].filters[0].memcmp.base58: 129 bytes, at most 128 allowed',
    );
  });

  it('base64 memcmp: 172 characters at most, 128 decoded bytes at most', () => {
    const max = Buffer.alloc(128, 7).toString('base64');
    expect(max.length).toBe(172);
    expect(ok(memcmp({ $case: 'base64', value: max })).accounts).toHaveLength(1);
    expect(fail(memcmp({ $case: 'base64', value: 'A'.repeat(176) }))).toBe(
      'accounts["m"].filters[0].memcmp.base64: 176 characters, at most 172 allowed',
    );
    expect(fail(memcmp({ $case: 'base64', value: 'A'.repeat(172) }))).toBe(
      'accounts["m"].filters[0].memcmp.base64: 129 bytes, at most 128 allowed',
    );
  });

  it('rejects bad base58 and bad base64 memcmp data', () => {
    expect(fail(memcmp({ $case: 'base58', value: 'abc0' }))).toBe(
      'accounts["m"].filters[0].memcmp.base58: invalid base58 "abc0": not base58',
    );
    for (const bad of ['ab$=', 'a', 'abc=d', 'ab===', 'a-_b', 'AB==', 'AAB=']) {
      expect(fail(memcmp({ $case: 'base64', value: bad }))).toMatch(/^accounts\["m"\]\.filters\[0\]\.memcmp\.base64: invalid base64/);
    }
  });

  it('accepts empty memcmp data (matches whenever offset is within the data)', () => {
    expect(ok(memcmp({ $case: 'bytes', value: Buffer.alloc(0) })).accounts[0]!.memcmp[0]!.bytes).toHaveLength(0);
  });

  it('maps offsets and sizes beyond 2^53 to Infinity (never match)', () => {
    const f = ok({
      accounts: {
        a: {
          filters: [
            { filter: { $case: 'memcmp', value: { offset: 2n ** 64n - 1n, data: { $case: 'bytes', value: Buffer.from([1]) } } } },
            { filter: { $case: 'datasize', value: 2n ** 60n } },
          ],
        },
      },
    }).accounts[0]!;
    expect(f.memcmp[0]!.offset).toBe(Infinity);
    expect(f.datasize).toBe(Infinity);
  });
});

describe('compileSubscribeRequest: accounts_data_slice', () => {
  const slices = (...s: Array<[bigint, bigint]>) => ({ accountsDataSlice: s.map(([offset, length]) => ({ offset, length })) });

  it('sorts slices by offset', () => {
    expect(ok(slices([10n, 2n], [0n, 4n], [4n, 1n])).accountsDataSlice).toEqual([
      { offset: 0, length: 4 },
      { offset: 4, length: 1 },
      { offset: 10, length: 2 },
    ]);
  });

  it('accepts adjacent slices and rejects overlapping ones, naming both', () => {
    expect(ok(slices([0n, 4n], [4n, 4n])).accountsDataSlice).toHaveLength(2);
    expect(fail(slices([8n, 4n], [0n, 9n]))).toBe(
      'accounts_data_slice: slices [1] (offset 0, length 9) and [0] (offset 8, length 4) overlap',
    );
    expect(fail(slices([3n, 1n], [3n, 1n]))).toMatch(/^accounts_data_slice: slices \[0\] .* and \[1\] .* overlap$/);
  });

  it('rejects more than 16 slices', () => {
    const s = Array.from({ length: 16 }, (_, i) => [BigInt(i * 2), 1n] as [bigint, bigint]);
    expect(ok(slices(...s)).accountsDataSlice).toHaveLength(16);
    expect(fail(slices(...s, [100n, 1n]))).toBe('accounts_data_slice: 17 slices, at most 16 allowed');
  });

  it('maps huge offsets and lengths to Infinity', () => {
    expect(ok(slices([2n ** 63n, 2n ** 63n])).accountsDataSlice).toEqual([{ offset: Infinity, length: Infinity }]);
  });
});

describe('specFromStreamRequest: the neutral model stream.Stream hands over', () => {
  const spec = (partial: Partial) => {
    const r = specFromStreamRequest(streamRequest(partial), DEFAULT_FILTER_LIMITS);
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };

  it('decodes keys to bytes and keeps names in order, unset flags unset', () => {
    const s = spec({
      transactions: { b: { accountInclude: [key(1)], accountRequired: [key(2)], vote: true, signature: sig(3) }, a: {} },
    });
    expect(s.transactions.map((t) => t.name)).toEqual(['a', 'b']);
    expect(s.transactions[0]).toEqual({
      name: 'a',
      accountInclude: [],
      accountExclude: [],
      accountRequired: [],
      vote: undefined,
      failed: undefined,
      signature: undefined,
      instructions: [],
    });
    const b = s.transactions[1]!;
    expect(b.accountInclude).toEqual([new Uint8Array(32).fill(1)]);
    expect(b.accountRequired).toEqual([new Uint8Array(32).fill(2)]);
    expect(b.signature).toEqual(new Uint8Array(64).fill(3));
    expect(b.vote).toBe(true);
  });

  it('turns the data filter oneofs into tagged entries, in request order', () => {
    const s = spec({
      accounts: {
        a: {
          owner: [key(7)],
          filters: [
            { filter: { $case: 'lamports', value: { cmp: { $case: 'lt', value: 5n } } } },
            { filter: { $case: 'memcmp', value: { offset: 2n, data: { $case: 'base64', value: 'AQI=' } } } },
            { filter: { $case: 'datasize', value: 9n } },
          ],
        },
      },
    });
    expect(s.accounts[0]!.owner).toEqual([new Uint8Array(32).fill(7)]);
    expect(s.accounts[0]!.filters).toEqual([
      { kind: 'lamports', op: 'lt', value: 5n },
      { kind: 'memcmp', offset: 2n, bytes: Buffer.from([1, 2]) },
      { kind: 'datasize', size: 9n },
    ]);
  });

  it('copies memcmp bytes, so the compiled filter does not share the request buffer', () => {
    const req = streamRequest({
      accounts: { a: { filters: [{ filter: { $case: 'memcmp', value: { data: { $case: 'bytes', value: Buffer.from([1, 2]) } } } }] } },
    });
    const r = specFromStreamRequest(req, DEFAULT_FILTER_LIMITS);
    if (!r.ok) throw new Error(r.error.message);
    const entry = r.value.accounts[0]!.filters[0]!;
    const wire = req.accounts.get('a')!.filters[0]!.filter;
    if (entry.kind !== 'memcmp' || wire?.$case !== 'memcmp' || wire.value.data?.$case !== 'bytes') throw new Error('expected memcmp bytes');
    wire.value.data.value[0] = 9;
    expect(entry.bytes).toEqual(Uint8Array.of(1, 2));
  });

  it('maps commitment to the neutral levels, sorts slices, keeps from_slot, leaves the kinds stream.Stream lacks empty', () => {
    const s = spec({
      commitment: CommitmentLevel.CONFIRMED,
      accountsDataSlice: [
        { offset: 8n, length: 1n },
        { offset: 0n, length: 4n },
      ],
      fromSlot: 77n,
    });
    expect(s.commitment).toBe('confirmed');
    expect(s.accountsDataSlice).toEqual([
      { offset: 0n, length: 4n },
      { offset: 8n, length: 1n },
    ]);
    expect(s.fromSlot).toBe(77n);
    expect([s.slots, s.blocks, s.blocksMeta, s.entry]).toEqual([[], [], [], []]);
  });

  it('rejects with the same coded error as the entry point', () => {
    const r = specFromStreamRequest(streamRequest({ accounts: { x: { owner: ['0'] } } }), DEFAULT_FILTER_LIMITS);
    expect(r).toEqual({
      ok: false,
      error: {
        code: 'INVALID_FILTER',
        path: 'accounts["x"].owner[0]',
        message: expect.stringMatching(/^accounts\["x"\]\.owner\[0\]: invalid pubkey "0"/),
      },
    });
  });
});

describe('compileSubscribeRequest: instruction conditions (issue 20)', () => {
  const disc = (...b: number[]) => ({ $case: 'discriminator' as const, value: Buffer.from(b) });
  const memcmp = (offset: bigint, ...b: number[]) => ({ $case: 'memcmp' as const, value: { offset, bytes: Buffer.from(b) } });
  const withConditions = (instructions: object[]): Partial => ({ transactions: { t: { instructions } } as never });

  it('compiles program ids to key ids, a discriminator to data at offset 0, and collapses duplicates', () => {
    const s = ok(
      withConditions([
        { programId: key(1), data: disc(1, 2, 3, 4, 5, 6, 7, 8) },
        { programId: key(1), data: disc(1, 2, 3, 4, 5, 6, 7, 8) },
        { programId: key(1), data: disc(1, 2, 3, 4, 5, 6, 7, 8), includeInner: true },
        { programId: key(2), data: memcmp(10n, 9) },
        { programId: key(3) },
      ]),
    );
    expect(s.transactions[0]!.instructions).toEqual([
      { program: keyId(Buffer.alloc(32, 1)), data: { offset: 0, bytes: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]) }, includeInner: false },
      { program: keyId(Buffer.alloc(32, 1)), data: { offset: 0, bytes: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]) }, includeInner: true },
      { program: keyId(Buffer.alloc(32, 2)), data: { offset: 10, bytes: new Uint8Array([9]) }, includeInner: false },
      { program: keyId(Buffer.alloc(32, 3)), data: undefined, includeInner: false },
    ]);
    expect(ok({ transactions: { t: {} } }).transactions[0]!.instructions).toEqual([]);
  });

  it('rejects a bad or empty program id, naming the condition', () => {
    expect(fail(withConditions([{ programId: key(1) }, { programId: 'not-base58!' }]))).toBe(
      'transactions["t"].instructions[1].program_id: invalid program id "not-base58!": not base58',
    );
    expect(fail(withConditions([{ programId: '' }]))).toBe(
      'transactions["t"].instructions[0].program_id: invalid program id "": empty string',
    );
    expect(fail(withConditions([{ programId: sig(1) }]))).toMatch(
      /^transactions\["t"\]\.instructions\[0\]\.program_id: invalid program id .*longer than 45 characters/,
    );
    expect(fail(withConditions([{ programId: bs58.encode(Buffer.alloc(31, 1)) }]))).toMatch(/decodes to 31 bytes, expected 32$/);
  });

  it('rejects an empty or too long discriminator', () => {
    expect(fail(withConditions([{ programId: key(1), data: disc() }]))).toBe(
      'transactions["t"].instructions[0].discriminator: empty; leave it unset to match every instruction of the program',
    );
    expect(ok(withConditions([{ programId: key(1), data: disc(...Array<number>(16).fill(7)) }])).transactions).toHaveLength(1);
    expect(fail(withConditions([{ programId: key(1), data: disc(...Array<number>(17).fill(7)) }]))).toBe(
      'transactions["t"].instructions[0].discriminator: 17 bytes, at most 16 allowed',
    );
  });

  it('rejects memcmp offsets and bytes out of limits', () => {
    expect(ok(withConditions([{ programId: key(1), data: memcmp(10240n, 1) }])).transactions).toHaveLength(1);
    expect(fail(withConditions([{ programId: key(1), data: memcmp(10241n, 1) }]))).toBe(
      'transactions["t"].instructions[0].memcmp.offset: 10241, at most 10240 allowed',
    );
    expect(fail(withConditions([{ programId: key(1), data: memcmp(18446744073709551615n, 1) }]))).toMatch(
      /memcmp\.offset: 18446744073709551615, at most 10240/,
    );
    expect(fail(withConditions([{ programId: key(1), data: memcmp(0n) }]))).toMatch(
      /^transactions\["t"\]\.instructions\[0\]\.memcmp\.bytes: empty/,
    );
    expect(ok(withConditions([{ programId: key(1), data: memcmp(0n, ...Array<number>(128).fill(1)) }])).transactions).toHaveLength(1);
    expect(fail(withConditions([{ programId: key(1), data: memcmp(0n, ...Array<number>(129).fill(1)) }]))).toBe(
      'transactions["t"].instructions[0].memcmp.bytes: 129 bytes, at most 128 allowed',
    );
  });

  it('limits the number of conditions per filter (default 64, configurable)', () => {
    const many = (n: number) => withConditions(Array.from({ length: n }, () => ({ programId: key(1) })));
    expect(ok(many(64)).transactions).toHaveLength(1);
    expect(fail(many(65))).toBe('transactions["t"].instructions: 65 conditions, at most 64 allowed');
    const limits = { ...DEFAULT_FILTER_LIMITS, maxInstructionConditions: 2 };
    expect(ok(many(2), limits).transactions).toHaveLength(1);
    expect(fail(many(3), limits)).toBe('transactions["t"].instructions: 3 conditions, at most 2 allowed');
  });

  it('a condition arriving over the wire decodes and compiles (the generated codec knows the new fields)', () => {
    const req = streamRequest({ transactions: { t: { instructions: [{ programId: key(4), data: disc(1, 2), includeInner: true }] } } });
    const decoded = SubscribeRequest.decode(SubscribeRequest.encode(req).finish());
    const r = compileSubscribeRequest(decoded, DEFAULT_FILTER_LIMITS);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.transactions[0]!.instructions).toEqual([
      { program: keyId(Buffer.alloc(32, 4)), data: { offset: 0, bytes: new Uint8Array([1, 2]) }, includeInner: true },
    ]);
  });
});
