import { describe, expect, it } from 'vitest';
import { account, b58 } from '../../test/support/projector/events.js';
import { projectAccount } from './accounts.js';

describe('projectAccount', () => {
  it('given an account write, when projected, then one state row (u64 exact, data base64)', () => {
    const p = projectAccount(
      account({ pubkey: 'acc', owner: 'prog', slot: 9, writeVersion: 42, lamports: 2n ** 63n + 5n, data: Buffer.from([1, 2, 3]) }),
    );
    if (!p.ok) throw new Error(p.reason);
    expect(p.rows.account_writes).toEqual([
      {
        pubkey: b58('acc'),
        slot: '9',
        write_version: '42',
        owner: b58('prog'),
        lamports: '9223372036854775813',
        executable: false,
        rent_epoch: '18446744073709551615',
        space: 3,
        data: 'AQID',
      },
    ]);
  });

  it('given a closed account (0 lamports), when projected, then the closing write is kept as a row', () => {
    const p = projectAccount(account({ pubkey: 'acc', owner: 'prog', slot: 10, writeVersion: 43, lamports: 0 }));
    if (!p.ok) throw new Error(p.reason);
    expect(p.rows.account_writes![0]).toMatchObject({ lamports: '0', space: 0, data: '' });
  });

  it('given a malformed owner, when projected, then it is rejected naming the account', () => {
    const e = account({ pubkey: 'acc', owner: 'prog', slot: 1, writeVersion: 1, lamports: 1 });
    e.owner = Buffer.alloc(5);
    const r = projectAccount(e);
    expect(r).toEqual({ ok: false, reason: `account ${b58('acc')} at slot 1: owner must be 32 bytes, got 5` });
  });
});
