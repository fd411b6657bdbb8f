import { describe, expect, it } from 'vitest';
import { b58, tx } from '../../test/support/projector/events.js';
import { formatMemos } from '../../schemas/memos.js';
import { projectTransaction } from './transactions.js';

describe('projectTransaction', () => {
  it('given a transaction with static and loaded keys, when projected, then every distinct address gets one signature row', () => {
    const e = tx({
      slot: 7,
      index: 3,
      sig: 's1',
      keys: ['payer', 'prog', 'payer'],
      loadedWritable: ['lw'],
      loadedReadonly: ['lr', 'prog'],
      blockTime: 1700000000,
    });
    const p = projectTransaction(e);
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.rows.transactions).toEqual([
      { signature: b58('s1', 64), slot: '7', position: 3, err: null, memo: null, block_time: '1700000000', is_vote: false, fee: '5000' },
    ]);
    expect(p.rows.signatures_by_address!.map((r) => r.address).sort()).toEqual([b58('payer'), b58('prog'), b58('lw'), b58('lr')].sort());
    for (const r of p.rows.signatures_by_address!) {
      expect(r).toMatchObject({ slot: '7', position: 3, signature: b58('s1', 64), block_time: '1700000000' });
    }
  });

  it('given an error and memos, when projected, then err is the Agave JSON and memos are "[len] text" joined by "; "', () => {
    const err = '{"InstructionError":[0,{"Custom":6002}]}';
    const p = projectTransaction(tx({ slot: 1, index: 0, sig: 's', keys: ['a'], err, memos: ['hi', 'héllo'] }));
    if (!p.ok) throw new Error(p.reason);
    expect(p.rows.transactions![0]).toMatchObject({ err, memo: '[2] hi; [6] héllo', block_time: null });
    expect(p.rows.signatures_by_address![0]).toMatchObject({ err, memo: '[2] hi; [6] héllo' });
  });

  it('given no signature or a short key, when projected, then it is rejected with a reason', () => {
    const noSig = tx({ slot: 1, index: 0, sig: 's', keys: ['a'] });
    noSig.signatures = [];
    expect(projectTransaction(noSig)).toEqual({ ok: false, reason: 'transaction at slot 1 index 0 has no signature' });
    const shortKey = tx({ slot: 1, index: 0, sig: 's', keys: ['a'] });
    shortKey.accountKeys = [Buffer.alloc(31)];
    const r = projectTransaction(shortKey);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/account key must be 32 bytes, got 31/);
  });

  it('formats memos by UTF-8 byte length, null without memos', () => {
    expect(formatMemos([])).toBeNull();
    expect(formatMemos(['€'])).toBe('[3] €');
  });
});
