// compileSubscription from the transport-neutral model alone: no stream.proto types here, as a second
// service's adapter will use it.
import { describe, expect, it } from 'vitest';
import { AccountEvent, TransactionEvent } from '../../schemas/gen/events.js';
import { compileSubscription } from './compile.js';
import { FilterIndex } from './filter-index.js';
import { keyId } from './key-id.js';
import { matchAccount, matchTransaction } from './match.js';
import { Commitment, EMPTY_SUBSCRIPTION, type AccountDataFilter, type SubscriptionSpec } from './model.js';

const raw = (n: number): Buffer => Buffer.alloc(32, n);
const rawSig = (n: number): Buffer => Buffer.alloc(64, n);
const spec = (s: Partial<SubscriptionSpec>): SubscriptionSpec => ({ ...EMPTY_SUBSCRIPTION, ...s });
const accountSpec = (filters: AccountDataFilter[], name = 'a') => spec({ accounts: [{ name, account: [], owner: [], filters }] });

describe('compileSubscription', () => {
  it('an empty subscription compiles to empty lists, PROCESSED, full data, no replay, all frozen', () => {
    const c = compileSubscription(EMPTY_SUBSCRIPTION);
    expect(c).toEqual({
      transactions: [],
      accounts: [],
      slots: [],
      blocks: [],
      blocksMeta: [],
      entry: [],
      parsed: [],
      commitment: Commitment.processed,
      accountsDataSlice: [],
      fromSlot: undefined,
    });
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.blocks)).toBe(true);
  });

  it('sorts every kind by name and carries commitment and from_slot', () => {
    const c = compileSubscription(
      spec({
        transactions: ['b', 'a', '10', '2'].map((name) => ({ name, accountInclude: [], accountExclude: [], accountRequired: [] })),
        slots: [
          { name: 'z', filterByCommitment: true, interslotUpdates: false },
          { name: 'y', filterByCommitment: false, interslotUpdates: true },
        ],
        blocksMeta: [{ name: 'm2' }, { name: 'm1' }],
        entry: [{ name: 'e' }],
        commitment: Commitment.finalized,
        fromSlot: 123n,
      }),
    );
    expect(c.transactions.map((f) => f.name)).toEqual(['10', '2', 'a', 'b']);
    expect(c.slots).toEqual([
      { name: 'y', filterByCommitment: false, interslotUpdates: true },
      { name: 'z', filterByCommitment: true, interslotUpdates: false },
    ]);
    expect(c.blocksMeta.map((f) => f.name)).toEqual(['m1', 'm2']);
    expect(c.entry).toEqual([{ name: 'e' }]);
    expect(c.commitment).toBe('finalized');
    expect(c.fromSlot).toBe(123n);
  });

  it('turns key bytes into key ids, collapsing duplicates', () => {
    const c = compileSubscription(
      spec({
        transactions: [
          {
            name: 't',
            accountInclude: [raw(1), raw(1), raw(2)],
            accountExclude: [raw(3)],
            accountRequired: [],
            vote: false,
            failed: true,
            signature: rawSig(7),
          },
        ],
        blocks: [{ name: 'b', accountInclude: [raw(4), raw(4)], includeTransactions: true, includeAccounts: false, includeEntries: true }],
      }),
    );
    const t = c.transactions[0]!;
    expect([...t.accountInclude]).toEqual([keyId(raw(1)), keyId(raw(2))]);
    expect([...t.accountExclude]).toEqual([keyId(raw(3))]);
    expect(t.accountRequired.size).toBe(0);
    expect(t).toMatchObject({ vote: false, failed: true, signature: keyId(rawSig(7)) });
    expect(c.blocks[0]).toEqual({
      name: 'b',
      accountInclude: new Set([keyId(raw(4))]),
      includeTransactions: true,
      includeAccounts: false,
      includeEntries: true,
    });
  });

  it('compiles data filters: memcmp and datasize as numbers (Infinity beyond 2^53), lamports as bigint, token account state', () => {
    const f = compileSubscription(
      accountSpec([
        { kind: 'memcmp', offset: 3n, bytes: Uint8Array.of(1, 2) },
        { kind: 'memcmp', offset: 2n ** 60n, bytes: Uint8Array.of() },
        { kind: 'datasize', size: 165n },
        { kind: 'lamports', op: 'gt', value: 2n ** 64n - 1n },
        { kind: 'tokenAccountState' },
      ]),
    ).accounts[0]!;
    expect(f.memcmp).toEqual([
      { offset: 3, bytes: Uint8Array.of(1, 2) },
      { offset: Infinity, bytes: Uint8Array.of() },
    ]);
    expect(f.datasize).toBe(165);
    expect(f.lamports).toEqual([{ op: 'gt', value: 2n ** 64n - 1n }]);
    expect(f.tokenAccountState).toBe(true);
    expect(compileSubscription(accountSpec([])).accounts[0]!.tokenAccountState).toBe(false);
  });

  it('two datasize entries: the same size stays, different sizes never match', () => {
    const same = compileSubscription(
      accountSpec([
        { kind: 'datasize', size: 8n },
        { kind: 'datasize', size: 8n },
      ]),
    ).accounts[0]!;
    expect(same.datasize).toBe(8);
    const differ = compileSubscription(
      accountSpec([
        { kind: 'datasize', size: 8n },
        { kind: 'datasize', size: 9n },
      ]),
    );
    expect(differ.accounts[0]!.datasize).toBe(Infinity);
    for (const len of [8, 9]) {
      expect(matchAccount(differ, AccountEvent.fromPartial({ pubkey: raw(1), owner: raw(2), data: Buffer.alloc(len) }))).toEqual([]);
    }
  });

  it('sorts data slices by offset; sizes beyond 2^53 become Infinity', () => {
    const c = compileSubscription(
      spec({
        accountsDataSlice: [
          { offset: 10n, length: 2n },
          { offset: 0n, length: 4n },
          { offset: 2n ** 60n, length: 1n },
        ],
      }),
    );
    expect(c.accountsDataSlice).toEqual([
      { offset: 0, length: 4 },
      { offset: 10, length: 2 },
      { offset: Infinity, length: 1 },
    ]);
  });

  it('refuses duplicate names within a kind (an adapter bug: every wire format uses a map)', () => {
    const t = { name: 'x', accountInclude: [], accountExclude: [], accountRequired: [] };
    expect(() => compileSubscription(spec({ transactions: [t, t] }))).toThrow(/transactions: duplicate filter name "x"/);
    // The same name in two kinds is fine.
    expect(() => compileSubscription(spec({ transactions: [t], entry: [{ name: 'x' }] }))).not.toThrow();
  });

  it('what it compiles drives the matcher and the index', () => {
    const c = compileSubscription(
      spec({
        transactions: [{ name: 'pump', accountInclude: [raw(5)], accountExclude: [], accountRequired: [] }],
        accounts: [{ name: 'curves', account: [], owner: [raw(6)], filters: [{ kind: 'datasize', size: 4n }] }],
      }),
    );
    const tx = TransactionEvent.fromPartial({ slot: 1n, signatures: [rawSig(1)], accountKeys: [raw(5), raw(9)] });
    const acc = AccountEvent.fromPartial({ pubkey: raw(1), owner: raw(6), data: Buffer.alloc(4) });
    expect(matchTransaction(c, tx)).toEqual(['pump']);
    expect(matchAccount(c, acc)).toEqual(['curves']);
    const index = new FilterIndex<string>();
    index.set('s1', c);
    expect(index.matchTransaction(tx)).toEqual(new Map([['s1', ['pump']]]));
    expect(index.matchAccount(acc)).toEqual(new Map([['s1', ['curves']]]));
  });
});
