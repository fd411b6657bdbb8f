// The pure parts of getTransactionsForAddress's read: the window SQL per order and sources, and the page taken
// from a window (lost-fork slots out, one row per block position).
import { describe, expect, it } from 'vitest';
import { historySql, pageOf } from './getTransactionsForAddress.js';

const row = (slot: number, position: number, signature = `s${slot}-${position}`) => ({ slot: String(slot), position, signature });

describe('pageOf', () => {
  it('drops rows of skipped slots and repeated block positions, keeping the order', () => {
    const rows = [row(9, 4), row(9, 4, 'again'), row(9, 1), row(8, 7), row(8, 7), row(7, 2), row(6, 0)];
    expect(pageOf(rows, new Set(['8']))).toEqual([row(9, 4), row(9, 1), row(7, 2), row(6, 0)]);
    expect(pageOf([], new Set())).toEqual([]);
  });
});

describe('historySql', () => {
  it('reads one key range per source in the requested direction, with no LIMIT BY (it would sort the whole range)', () => {
    const desc = historySql('desc', { tokenAccounts: false, balanceChanges: false });
    expect(desc).toMatch(/WHERE address = \{address:String\}/);
    expect(desc).toMatch(/ORDER BY slot DESC, position DESC LIMIT \{window:UInt32\}$/);
    expect(desc).not.toMatch(/LIMIT 1 BY|UNION|token_balance_changes/);
    const asc = historySql('asc', { tokenAccounts: true, balanceChanges: false });
    expect(asc.match(/ORDER BY slot ASC, position ASC/g)).toHaveLength(3);
    expect(asc).toMatch(/address IN \{accounts:Array\(String\)\}/);
    expect(historySql('desc', { tokenAccounts: false, balanceChanges: true })).toMatch(/token_balance_changes WHERE account IN/);
  });
});
