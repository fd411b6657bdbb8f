import { describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { b58 } from '../../test/support/projector/events.js';
import { DST_TOKEN, SRC_TOKEN, failed, tokenTx } from '../../test/support/jsonrpc/tx-chain.js';
import { project } from './index.js';
import { changedTokenAccountIndexes } from './token-balance-changes.js';

const bal = (accountIndex: number, amount: bigint) => ({
  accountIndex,
  mint: Buffer.alloc(32),
  owner: Buffer.alloc(32),
  programId: Buffer.alloc(32),
  amount,
  decimals: 6,
});

describe('changedTokenAccountIndexes', () => {
  it('given equal pre and post amounts, then no index; a differing amount, then its index', () => {
    expect(changedTokenAccountIndexes([bal(1, 5n), bal(2, 7n)], [bal(1, 5n), bal(2, 7n)])).toEqual([]);
    expect(changedTokenAccountIndexes([bal(1, 5n), bal(2, 7n)], [bal(2, 6n), bal(1, 5n)])).toEqual([2]);
  });

  it('given an entry on one side only, then it counts against 0: opened or closed with an amount changes, with 0 does not', () => {
    expect(changedTokenAccountIndexes([], [bal(3, 10n)])).toEqual([3]);
    expect(changedTokenAccountIndexes([bal(4, 10n)], [])).toEqual([4]);
    expect(changedTokenAccountIndexes([], [bal(3, 0n)])).toEqual([]);
    expect(changedTokenAccountIndexes([bal(5, 1n)], [bal(5, 2n), bal(0, 9n)])).toEqual([0, 5]);
  });
});

describe('token_balance_changes rows', () => {
  it('given a transfer between two token accounts, one of them loaded by lookup table, then a row for each, with the signature row values', () => {
    const slot = 209; // not failing
    expect(failed(slot)).toBe(false);
    const p = project({ kind: 'transactions', event: tokenTx(slot, 1) });
    if (!p.ok) throw new Error(p.reason);
    const sig = b58(`txsig-${slot}-1`, 64);
    const common = {
      slot: String(slot),
      position: 1,
      signature: sig,
      err: null,
      memo: p.rows.transactions![0]!.memo,
      block_time: p.rows.transactions![0]!.block_time,
    };
    expect(p.rows.token_balance_changes).toEqual([
      { account: bs58.encode(SRC_TOKEN), ...common },
      { account: bs58.encode(DST_TOKEN), ...common },
    ]);
  });

  it('given the failed transfer (token amounts unchanged), then no row', () => {
    const slot = 208;
    expect(failed(slot)).toBe(true);
    const p = project({ kind: 'transactions', event: tokenTx(slot, 1) });
    if (!p.ok) throw new Error(p.reason);
    expect(p.rows.token_balance_changes).toEqual([]);
  });

  it('given a token balance whose account index is past the keys, then the transaction is rejected naming the index', () => {
    const e = tokenTx(209, 1);
    e.postTokenBalances = [...e.postTokenBalances, bal(9, 1n)];
    const p = project({ kind: 'transactions', event: e });
    expect(p.ok).toBe(false);
    if (!p.ok) expect(p.reason).toMatch(/token balance account index 9 names no 32-byte account key \(6 keys\)/);
  });
});
