import { describe, expect, it } from 'vitest';
import { accountHistoryTtl, retentionStatements, ttlMergeEveryS } from './retention.js';

describe('retention statements', () => {
  it('off by default: no TTL set, and a TTL left by an earlier window removed', () => {
    expect(retentionStatements('db', { accountHistoryS: 0, transactionsS: 0 }, new Set())).toEqual([]);
    expect(retentionStatements('db', { accountHistoryS: 0, transactionsS: 0 }, new Set(['account_writes', 'blocks']))).toEqual([
      'ALTER TABLE db.account_writes REMOVE TTL',
      'ALTER TABLE db.blocks REMOVE TTL',
    ]);
  });

  it('account history rolls up per account into the newest write by (slot, write_version)', () => {
    const ttl = accountHistoryTtl('account_writes', 86400);
    expect(ttl).toMatch(/^written_at \+ INTERVAL 86400 SECOND GROUP BY pubkey SET slot = max\(slot\), /);
    for (const c of ['write_version', 'owner', 'lamports', 'executable', 'rent_epoch', 'space', 'data']) {
      expect(ttl).toContain(`${c} = argMax(${c}, version_key)`);
    }
    expect(accountHistoryTtl('program_accounts', 60)).toContain('GROUP BY owner, key SET');
  });

  it('sets every table of a store, as metadata only, with TTL merges at a tenth of the window (1-60 min)', () => {
    const s = retentionStatements('db', { accountHistoryS: 0, transactionsS: 3600 }, new Set());
    const tables = [
      'blocks',
      'block_details',
      'transactions',
      'transaction_index',
      'transaction_records',
      'signatures_by_address',
      'token_balance_changes',
    ];
    expect(s.filter((q) => q.includes('MODIFY TTL')).map((q) => /db\.(\w+)/.exec(q)![1])).toEqual(tables);
    expect(s).toContain(
      'ALTER TABLE db.transactions MODIFY TTL written_at + INTERVAL 3600 SECOND SETTINGS materialize_ttl_after_modify = 0',
    );
    expect(s).toContain('ALTER TABLE db.transactions MODIFY SETTING merge_with_ttl_timeout = 360');
    expect([ttlMergeEveryS(10), ttlMergeEveryS(86400 * 7)]).toEqual([60, 3600]);
  });
});
