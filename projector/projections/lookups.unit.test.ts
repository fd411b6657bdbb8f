import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { SlotStatus } from '../../schemas/codec.js';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../schemas/programs.js';
import { account, b58, keyOf, slotStatus } from '../../test/support/projector/events.js';
import { project } from './index.js';

function tokenAccountData(mint: string, wallet: string, o: { len?: number; state?: number; accountType?: number } = {}): Buffer {
  const b = Buffer.alloc(o.len ?? 165);
  keyOf(mint).copy(b, 0);
  keyOf(wallet).copy(b, 32);
  b.writeBigUInt64LE(7n, 64);
  b[108] = o.state ?? 1;
  if (b.length > 165) b[165] = o.accountType ?? 2;
  return b;
}

/** An account write owned by a real token program id (the test helper derives owners from labels). */
function tokenWrite(program: string, data: Buffer, lamports = 2_039_280n) {
  const e = account({ pubkey: 'ta', owner: 'x', slot: 5, writeVersion: 1, lamports, data });
  e.owner = Buffer.from(bs58.decode(program));
  return e;
}

describe('lookup projections', () => {
  it('given a token account write, when projected, then one wallet index row beside the account views', () => {
    const p = project({ kind: 'accounts', event: tokenWrite(TOKEN_PROGRAM, tokenAccountData('mint', 'wallet')) });
    if (!p.ok) throw new Error(p.reason);
    expect(p.rows.token_accounts_by_owner).toEqual([
      { owner: b58('wallet'), program: TOKEN_PROGRAM, mint: b58('mint'), pubkey: b58('ta') },
    ]);
    expect(p.rows.account_writes).toHaveLength(1);
    // The ownership check's copy (011_owner_writes.sql) is the same row.
    expect(p.rows.owner_writes).toEqual([p.rows.account_writes![0]]);
  });
  it('given a Token-2022 account with extensions, when projected, then indexed; a Token-2022 mint is not', () => {
    const acc = project({ kind: 'accounts', event: tokenWrite(TOKEN_2022_PROGRAM, tokenAccountData('m', 'w', { len: 170 })) });
    if (!acc.ok) throw new Error(acc.reason);
    expect(acc.rows.token_accounts_by_owner).toHaveLength(1);
    const mint = project({
      kind: 'accounts',
      event: tokenWrite(TOKEN_2022_PROGRAM, tokenAccountData('m', 'w', { len: 170, accountType: 1 })),
    });
    if (!mint.ok) throw new Error(mint.reason);
    expect(mint.rows.token_accounts_by_owner).toEqual([]);
  });
  it('given uninitialized, closed, wrong-size or non-token accounts, when projected, then no index row', () => {
    const cases = [
      tokenWrite(TOKEN_PROGRAM, tokenAccountData('m', 'w', { state: 0 })),
      tokenWrite(TOKEN_PROGRAM, tokenAccountData('m', 'w'), 0n),
      tokenWrite(TOKEN_PROGRAM, tokenAccountData('m', 'w', { len: 82 })),
      tokenWrite(TOKEN_PROGRAM, tokenAccountData('m', 'w', { len: 355 })),
      account({ pubkey: 'ta', owner: 'other-program', slot: 5, writeVersion: 1, lamports: 5, data: tokenAccountData('m', 'w') }),
    ];
    for (const e of cases) {
      const p = project({ kind: 'accounts', event: e });
      if (!p.ok) throw new Error(p.reason);
      expect(p.rows.token_accounts_by_owner).toEqual([]);
    }
  });
  it('given a token account write, when projected, then its mint index row, and a delegate row only while a delegate is set', () => {
    const plain = project({ kind: 'accounts', event: tokenWrite(TOKEN_PROGRAM, tokenAccountData('mint', 'wallet')) });
    if (!plain.ok) throw new Error(plain.reason);
    expect(plain.rows.token_accounts_by_mint).toEqual([{ mint: b58('mint'), program: TOKEN_PROGRAM, pubkey: b58('ta') }]);
    expect(plain.rows.token_accounts_by_delegate).toEqual([]);
    const data = tokenAccountData('mint', 'wallet');
    data.writeUInt32LE(1, 72);
    keyOf('delegate').copy(data, 76);
    const delegated = project({ kind: 'accounts', event: tokenWrite(TOKEN_2022_PROGRAM, data) });
    if (!delegated.ok) throw new Error(delegated.reason);
    expect(delegated.rows.token_accounts_by_delegate).toEqual([
      { delegate: b58('delegate'), program: TOKEN_2022_PROGRAM, mint: b58('mint'), pubkey: b58('ta') },
    ]);
    // A mint, a closed account or another program's account: no rows in either index.
    for (const e of [
      tokenWrite(TOKEN_PROGRAM, tokenAccountData('m', 'w', { len: 82 })),
      tokenWrite(TOKEN_PROGRAM, data, 0n),
      account({ pubkey: 'ta', owner: 'other-program', slot: 5, writeVersion: 1, lamports: 5, data }),
    ]) {
      const p = project({ kind: 'accounts', event: e });
      if (!p.ok) throw new Error(p.reason);
      expect([p.rows.token_accounts_by_mint, p.rows.token_accounts_by_delegate]).toEqual([[], []]);
    }
  });
  it('given a processed slot record with block meta, when projected, then its blockhash row; other statuses add none', () => {
    const p = project({ kind: 'slots', event: slotStatus(12, SlotStatus.SLOT_STATUS_PROCESSED, { parent: 11, height: 10 }) });
    if (!p.ok) throw new Error(p.reason);
    expect(p.rows.blockhashes).toEqual([{ blockhash: b58('blockhash-12'), slot: '12', block_height: '10' }]);
    expect(p.rows.blocks).toHaveLength(1);
    const c = project({ kind: 'slots', event: slotStatus(12, SlotStatus.SLOT_STATUS_CONFIRMED) });
    if (!c.ok) throw new Error(c.reason);
    expect(c.rows.blockhashes).toEqual([]);
  });
});
