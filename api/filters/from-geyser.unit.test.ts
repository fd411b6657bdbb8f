// geyser.Geyser's adapter: Yellowstone's validation rules and error texts, the configurable limits, the
// defaults Yellowstone gives unset fields, and how the two transaction lists share the model's one.
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import type { SubscribeRequest } from '@triton-one/yellowstone-grpc';
import {
  compileGeyserRequest,
  DEFAULT_GEYSER_LIMITS,
  splitTransactionNames,
  type GeyserFilterLimits,
  type GeyserRequest,
} from './from-geyser.js';
import { CompressedAccountFilterSet } from '@triton-one/yellowstone-grpc';
import { AccountEvent, TokenBalance, TransactionEvent } from '../../schemas/gen/events.js';
import { keyId } from './key-id.js';
import { matchAccount, matchTransaction } from './match.js';

const key = (n: number): string => bs58.encode(Buffer.alloc(32, n));

function request(partial: Partial<SubscribeRequest>): SubscribeRequest {
  return {
    accounts: {},
    slots: {},
    transactions: {},
    transactionsStatus: {},
    blocks: {},
    blocksMeta: {},
    entry: {},
    accountsDataSlice: [],
    ...partial,
  };
}
function ok(partial: Partial<SubscribeRequest>, limits: GeyserFilterLimits = DEFAULT_GEYSER_LIMITS): GeyserRequest {
  const r = compileGeyserRequest(request(partial), limits);
  if (!r.ok) throw new Error(`expected ok, got ${r.error.message}`);
  return r.value;
}
function fail(partial: Partial<SubscribeRequest>, limits: GeyserFilterLimits = DEFAULT_GEYSER_LIMITS): string {
  const r = compileGeyserRequest(request(partial), limits);
  if (r.ok) throw new Error('expected an error');
  expect(r.error.message.startsWith(`${r.error.path}: `)).toBe(true);
  return r.error.message;
}
const tx = (f: Partial<SubscribeRequest['transactions'][string]> = {}) => ({
  accountInclude: [],
  accountExclude: [],
  accountRequired: [],
  ...f,
});
const acc = (f: Partial<SubscribeRequest['accounts'][string]> = {}) => ({ account: [], owner: [], filters: [], ...f });
/** A CuckooFilter message built by the package's own helper. */
function cuckooMessage(keys: string[], capacity = 100) {
  const set = new CompressedAccountFilterSet(capacity);
  for (const k of keys) set.insert(k);
  return set.toProto();
}

describe('compileGeyserRequest', () => {
  it('an empty request: nothing, processed, full data, no replay, no ping', () => {
    const r = ok({});
    expect(r.compiled.transactions).toEqual([]);
    expect(r.compiled.commitment).toBe('processed');
    expect(r.compiled.accountsDataSlice).toEqual([]);
    expect(r.compiled.fromSlot).toBeUndefined();
    expect(r.ping).toBeUndefined();
  });

  it('every kind, with Yellowstone defaults for unset booleans; from_slot, ping and commitment carried', () => {
    const r = ok({
      slots: { s: {}, t: { filterByCommitment: true, interslotUpdates: true } },
      blocks: {
        b: { accountInclude: [key(1)] },
        c: { accountInclude: [], includeTransactions: false, includeAccounts: true, includeEntries: true },
      },
      blocksMeta: { m: {} },
      entry: { e: {} },
      commitment: 2,
      fromSlot: '12345',
      ping: { id: 7 },
    });
    expect(r.compiled.slots).toEqual([
      { name: 's', filterByCommitment: false, interslotUpdates: false },
      { name: 't', filterByCommitment: true, interslotUpdates: true },
    ]);
    expect(
      r.compiled.blocks.map((b) => [b.name, b.includeTransactions, b.includeAccounts, b.includeEntries, [...b.accountInclude]]),
    ).toEqual([
      ['b', true, false, false, [keyId(Buffer.alloc(32, 1))]],
      ['c', false, true, true, []],
    ]);
    expect(r.compiled.blocksMeta).toEqual([{ name: 'm' }]);
    expect(r.compiled.entry).toEqual([{ name: 'e' }]);
    expect(r.compiled.commitment).toBe('finalized');
    expect(r.compiled.fromSlot).toBe(12345n);
    expect(r.ping).toBe(7);
  });

  it('transactions and transactions_status share the model list under tags and split back; one name may be in both', () => {
    const r = ok({ transactions: { x: tx({ vote: false }) }, transactionsStatus: { x: tx(), y: tx({ failed: true }) } });
    expect(r.compiled.transactions.map((f) => f.name)).toEqual(['Sx', 'Sy', 'Tx']);
    expect(splitTransactionNames(['Sx', 'Sy', 'Tx'])).toEqual({ transactions: ['x'], status: ['x', 'y'] });
    const vote = {
      slot: 1n,
      signatures: [Buffer.alloc(64)],
      accountKeys: [],
      loadedWritable: [],
      loadedReadonly: [],
      isVote: true,
      err: undefined,
    };
    expect(matchTransaction(r.compiled, vote as never)).toEqual(['Sx']);
  });

  it('account filters: memcmp in all three encodings, datasize, lamports, token_account_state; nonempty_txn_signature kept aside', () => {
    const r = ok({
      accounts: {
        a: acc({
          owner: [key(2)],
          nonemptyTxnSignature: true,
          filters: [
            { memcmp: { offset: '3', bytes: Buffer.from([1, 2]) } },
            { memcmp: { offset: '0', base58: bs58.encode(Buffer.from([9])) } },
            { memcmp: { offset: '1', base64: Buffer.from([7, 7]).toString('base64') } },
            { lamports: { gt: '10' } },
          ],
        }),
        b: acc({ filters: [{ datasize: '165' }, { tokenAccountState: true }] }),
      },
    });
    const [a, b] = r.compiled.accounts;
    expect(a!.memcmp.map((m) => [m.offset, [...m.bytes]])).toEqual([
      [3, [1, 2]],
      [0, [9]],
      [1, [7, 7]],
    ]);
    expect(a!.lamports).toEqual([{ op: 'gt', value: 10n }]);
    expect(b!.datasize).toBe(165);
    expect(b!.tokenAccountState).toBe(true);
    expect([...r.nonemptyTxnSignature]).toEqual([['a', true]]);
  });

  it('data slices: in order, not overlapping (adjacent is fine)', () => {
    expect(
      ok({
        accountsDataSlice: [
          { offset: '0', length: '4' },
          { offset: '4', length: '2' },
        ],
      }).compiled.accountsDataSlice,
    ).toEqual([
      { offset: 0, length: 4 },
      { offset: 4, length: 2 },
    ]);
    expect(
      fail({
        accountsDataSlice: [
          { offset: '4', length: '1' },
          { offset: '0', length: '1' },
        ],
      }),
    ).toBe('accounts_data_slice[1]: data slices out of order');
    expect(
      fail({
        accountsDataSlice: [
          { offset: '0', length: '5' },
          { offset: '4', length: '1' },
        ],
      }),
    ).toBe('accounts_data_slice[1]: data slices overlapped');
  });

  it('Yellowstone error texts, each after the field path', () => {
    expect(fail({ transactions: { x: tx({ accountInclude: ['nope0OIl'] }) } })).toMatch(
      /^transactions\["x"\]\.account_include\[0\]: Invalid Base58 string "nope0OIl"/,
    );
    expect(fail({ accounts: { x: acc({ owner: [bs58.encode(Buffer.alloc(5))] }) } })).toMatch(
      /^accounts\["x"\]\.owner\[0\]: String is the wrong size/,
    );
    expect(fail({ transactions: { x: tx({ signature: key(1) }) } })).toMatch(
      /^transactions\["x"\]\.signature: string decoded to wrong size for signature/,
    );
    expect(fail({ transactionsStatus: { x: tx({ signature: '0' }) } })).toMatch(
      /^transactions_status\["x"\]\.signature: failed to decode string to signature/,
    );
    expect(fail({ commitment: 5 as never })).toBe('commitment: failed to create CommitmentLevel from 5');
    expect(fail({ accounts: { x: acc({ filters: [{}, {}, {}, {}, {}] }) } })).toBe(
      'accounts["x"].filters: Too many filters provided; max 4',
    );
    expect(fail({ accounts: { x: acc({ filters: [{}] }) } })).toBe('accounts["x"].filters[0]: filter should be defined');
    expect(fail({ accounts: { x: acc({ filters: [{ memcmp: { offset: '0' } }] }) } })).toBe(
      'accounts["x"].filters[0].memcmp: data for memcmp should be defined',
    );
    expect(fail({ accounts: { x: acc({ filters: [{ lamports: {} }] }) } })).toBe(
      'accounts["x"].filters[0].lamports: cmp for lamports should be defined',
    );
    expect(fail({ accounts: { x: acc({ filters: [{ datasize: '1' }, { datasize: '2' }] }) } })).toBe(
      'accounts["x"].filters[1].datasize: datasize used more than once',
    );
    expect(fail({ accounts: { x: acc({ filters: [{ tokenAccountState: false }] }) } })).toBe(
      'accounts["x"].filters[0].token_account_state: token_account_state only allowed to be true',
    );
    expect(fail({ accounts: { x: acc({ filters: [{ memcmp: { offset: '0', base58: '1'.repeat(176) } }] }) } })).toBe(
      'accounts["x"].filters[0].memcmp.base58: data too large',
    );
    expect(fail({ accounts: { x: acc({ filters: [{ memcmp: { offset: '0', base64: '%%%' } }] }) } })).toMatch(
      /memcmp\.base64: invalid base64/,
    );
    expect(fail({ blocks: { b: { accountInclude: [], cuckooAccountInclude: { ...cuckooMessage([]), data: Buffer.alloc(3) } } } })).toMatch(
      /^blocks\["b"\]\.cuckoo_account_include\.data: 3 bytes do not hold 32 buckets of 4 2-byte fingerprints \(256 bytes\)$/,
    );
    expect(fail({ transactions: { t: tx({ tokenAccounts: 7 as never }) } })).toBe(
      'transactions["t"].token_accounts: invalid token_accounts mode value 7; expected ALL (0) or BALANCE_CHANGED (1)',
    );
    expect(fail({ accounts: { a: acc({ cuckooAccountsFilter: { ...cuckooMessage([]), hashAlgorithm: 3 as never } }) } })).toBe(
      'accounts["a"].cuckoo_accounts_filter.hash_algorithm: unsupported hash algorithm 3 (only SIP_HASH, 0)',
    );
  });

  it("cuckoo filters built by the package's CompressedAccountFilterSet: accounts, transactions and blocks", () => {
    const set = cuckooMessage([key(1), key(2)]);
    const r = ok({
      accounts: { a: acc({ cuckooAccountsFilter: set }), both: acc({ account: [key(3)], cuckooAccountsFilter: set }) },
      transactions: { t: tx({ cuckooAccountInclude: set }) },
      blocks: { b: { accountInclude: [], cuckooAccountInclude: set } },
    });
    const accountWith = (n: number) => AccountEvent.fromPartial({ pubkey: Buffer.alloc(32, n), owner: Buffer.alloc(32, 9) });
    expect(matchAccount(r.compiled, accountWith(1))).toEqual(['a', 'both']);
    // Yellowstone's match_account: the list OR the set.
    expect(matchAccount(r.compiled, accountWith(3))).toEqual(['both']);
    expect(matchAccount(r.compiled, accountWith(4))).toEqual([]);
    const txWith = (...n: number[]) => TransactionEvent.fromPartial({ accountKeys: n.map((i) => Buffer.alloc(32, i)) });
    expect(matchTransaction(r.compiled, txWith(7, 2))).toEqual(['Tt']);
    expect(matchTransaction(r.compiled, txWith(7, 8))).toEqual([]);
    expect(r.compiled.blocks[0]!.accountIncludeCuckoo?.has(Buffer.alloc(32, 1))).toBe(true);
  });

  it('cuckoo filters over the configured size are refused, naming the limit', () => {
    const limits = { ...DEFAULT_GEYSER_LIMITS, maxCuckooBytes: 8 };
    expect(fail({ accounts: { a: acc({ cuckooAccountsFilter: cuckooMessage([key(1)], 1000) }) } }, limits)).toMatch(
      /^accounts\["a"\]\.cuckoo_accounts_filter\.data: filter too large \(\d+ bytes, at most 8\)$/,
    );
  });

  it("token_accounts: ALL matches an owner of any token balance; BALANCE_CHANGED one whose amount changed or whose account closed (Yellowstone's rules)", () => {
    const owner = (n: number) => Buffer.alloc(32, n);
    const bal = (accountIndex: number, o: number, amount: bigint) =>
      TokenBalance.fromPartial({ accountIndex, owner: owner(o), mint: Buffer.alloc(32, 50), amount });
    // Owner 11 only holds (unchanged), 12 receives, 13 closes its account, 14 opens one.
    const t = TransactionEvent.fromPartial({
      accountKeys: [Buffer.alloc(32, 1)],
      preTokenBalances: [bal(1, 11, 5n), bal(2, 12, 5n), bal(3, 13, 5n)],
      postTokenBalances: [bal(1, 11, 5n), bal(2, 12, 6n), bal(4, 14, 1n)],
    });
    const names = (tokenAccounts: number | undefined, f: Partial<SubscribeRequest['transactions'][string]>) =>
      matchTransaction(ok({ transactions: { x: tx({ ...f, tokenAccounts }) } }).compiled, t);
    for (const o of [11, 12, 13, 14]) {
      expect(names(undefined, { accountInclude: [key(o)] }), `owner ${o}, no expansion`).toEqual([]);
      expect(names(0, { accountInclude: [key(o)] }), `owner ${o}, ALL`).toEqual(['Tx']);
      expect(names(1, { accountInclude: [key(o)] }), `owner ${o}, BALANCE_CHANGED`).toEqual(o === 11 ? [] : ['Tx']);
    }
    // The expansion reaches account_required, account_exclude and the cuckoo set too.
    expect(names(0, { accountRequired: [key(1), key(11)] })).toEqual(['Tx']);
    expect(names(undefined, { accountRequired: [key(1), key(11)] })).toEqual([]);
    expect(names(0, { accountExclude: [key(11)] })).toEqual([]);
    expect(names(1, { accountExclude: [key(11)] })).toEqual(['Tx']);
    expect(names(1, { cuckooAccountInclude: cuckooMessage([key(12)]) })).toEqual(['Tx']);
    expect(names(undefined, { cuckooAccountInclude: cuckooMessage([key(12)]) })).toEqual([]);
  });

  it('configurable limits: filters per kind, keys per filter, memcmp bytes, filter name bytes, data slices', () => {
    const limits: GeyserFilterLimits = {
      maxFiltersPerKind: 1,
      maxKeysPerFilter: 2,
      maxMemcmpBytes: 3,
      maxFilterNameBytes: 4,
      maxDataSlices: 1,
      maxCuckooBytes: 8,
    };
    expect(fail({ entry: { a: {}, b: {} } }, limits)).toBe('entry: Max amount of filters/data_slices reached, only 1 allowed');
    expect(fail({ blocksMeta: { a: {}, b: {} } }, limits)).toBe('blocks_meta: Max amount of filters/data_slices reached, only 1 allowed');
    expect(fail({ transactions: { a: tx({ accountRequired: [key(1), key(2), key(3)] }) } }, limits)).toBe(
      'transactions["a"].account_required: Max amount of Pubkeys reached, only 2 allowed',
    );
    expect(fail({ accounts: { a: acc({ filters: [{ memcmp: { offset: '0', bytes: Buffer.alloc(4) } }] }) } }, limits)).toBe(
      'accounts["a"].filters[0].memcmp: data too large (4 bytes, at most 3)',
    );
    expect(fail({ slots: { abcde: {} } }, limits)).toBe('slots["abcde"]: oversized filter name (max allowed size 4), found 5');
    expect(
      fail(
        {
          accountsDataSlice: [
            { offset: '0', length: '1' },
            { offset: '1', length: '1' },
          ],
        },
        limits,
      ),
    ).toBe('accounts_data_slice: Max amount of filters/data_slices reached, only 1 allowed');
    expect(ok({ entry: { abcd: {} }, transactions: { a: tx({ accountRequired: [key(1), key(2)] }) } }, limits).compiled.entry).toEqual([
      { name: 'abcd' },
    ]);
  });
});
