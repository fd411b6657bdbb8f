import { describe, expect, it } from 'vitest';
import { toTabSeparated, type TsvValue } from '../platform/tab-separated.js';
import { makeChain } from '../test/support/projector/chain.js';
import { project } from './projections/index.js';
import { appendRows, emptyRows, FREE_TEXT_COLUMNS, VIEW_COLUMNS, VIEW_TABLES, type Rows } from './projections/rows.js';
import { sameRows, tabSeparatedRows } from './tsv.js';

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** The generic writer the runner used before the per-table ones: the reference output. Records (bytes,
 * which it does not take) are escaped here through a latin1 string, one character per byte. */
function generic(table: keyof Rows, rows: Rows): Buffer {
  if (table === 'transaction_records') {
    const lines = rows.transaction_records.map(
      (r) => `${r.slot}\t${r.position}\t${r.signature}\t${r.record.toString('latin1').replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]!)}\n`,
    );
    return Buffer.from(lines.join(''), 'latin1');
  }
  const columns = VIEW_COLUMNS[table] as readonly string[];
  return toTabSeparated(
    rows[table] as unknown as Record<string, TsvValue>[],
    columns,
    new Set(columns.filter((c) => !FREE_TEXT_COLUMNS.has(c))),
  );
}

describe('tabSeparatedRows', () => {
  it("given every table's rows of a chain with errors, memos and escapes, when written, then byte for byte the generic TabSeparated", () => {
    const rows = emptyRows();
    for (const b of makeChain({ slots: 24, txPerSlot: 30, writesPerSlot: 20, seed: 3 })) {
      for (const e of b.events) {
        const p = project(e);
        if (!p.ok) throw new Error(p.reason);
        appendRows(rows, p.rows);
      }
    }
    // Free text that needs escaping, non-Latin-1 characters, and NULLs, in both tables that hold it.
    const base = rows.transactions[0]!;
    rows.transactions.push({ ...base, err: '{"a":"tab\there\\nnew\nline\rcr"}', memo: '[7] héllo✓\\', block_time: null, is_vote: true });
    const sba = rows.signatures_by_address[0]!;
    rows.signatures_by_address.push(
      { ...sba, address: 'A1', err: 'e\te', memo: null, block_time: null },
      { ...sba, address: 'A2', err: 'e\te', memo: null, block_time: null },
    );
    // Every byte value in a record, the four escaped ones among them.
    rows.transaction_records.push({
      ...rows.transaction_records[0]!,
      position: 999,
      record: Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7) % 256)),
    });
    for (const t of VIEW_TABLES) {
      if (
        [
          'transactions',
          'signatures_by_address',
          'account_writes',
          'owner_writes',
          'transaction_index',
          'transaction_records',
          'slot_status',
        ].includes(t)
      ) {
        expect(rows[t].length, t).toBeGreaterThan(0);
      }
      const got = tabSeparatedRows(t, rows[t] as never[]);
      const want = generic(t, rows);
      // Compared as latin1 text (one character per byte): a readable diff, and fast on large bodies.
      expect(got.toString('latin1'), t).toBe(want.toString('latin1'));
    }
    expect(rows.transactions.some((r) => r.err !== null) && rows.transactions.some((r) => r.memo !== null)).toBe(true);
  });
});

describe('sameRows', () => {
  it('is true only for the same row objects in the same order', () => {
    const [a, b] = [{ k: 1 }, { k: 1 }];
    expect(sameRows([a, b], [a, b])).toBe(true);
    expect(sameRows([], [])).toBe(true);
    expect(sameRows([a, b], [b, a])).toBe(false);
    expect(sameRows([a], [{ k: 1 }])).toBe(false);
    expect(sameRows([a], [a, b])).toBe(false);
  });
});
