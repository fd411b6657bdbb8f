// The page range of getTransactionsForAddress: every bound narrows one inclusive range of block positions.
import { describe, expect, it } from 'vitest';
import { rpcErrorOf } from '../../test/support/jsonrpc/rpc-error.js';
import {
  AFTER_LAST_POSITION,
  after,
  formatPaginationToken,
  isEmpty,
  narrowBySignatures,
  narrowBySlots,
  parsePaginationToken,
  upToHead,
  type BlockPosition,
  type HistoryRange,
} from './history-range.js';

const at = (slot: number, position: number): BlockPosition => ({ slot: BigInt(slot), position: BigInt(position) });
const inside = (r: HistoryRange, p: BlockPosition): boolean =>
  (p.slot > r.lo.slot || (p.slot === r.lo.slot && p.position >= r.lo.position)) &&
  (p.slot < r.hi.slot || (p.slot === r.hi.slot && p.position <= r.hi.position));

describe('history range', () => {
  it('up to the head: every position of every slot at or below it', () => {
    const r = upToHead(100n);
    expect(inside(r, at(0, 0))).toBe(true);
    expect(inside(r, at(100, 4_000_000))).toBe(true);
    expect(inside(r, at(101, 0))).toBe(false);
  });

  it('slot bounds are whole slots; lt 0 (max -1) is empty', () => {
    const r = narrowBySlots(upToHead(100n), { min: 10n, max: 20n });
    expect(r).toEqual({ lo: at(10, 0), hi: { slot: 20n, position: AFTER_LAST_POSITION } });
    expect(isEmpty(narrowBySlots(upToHead(100n), { min: undefined, max: -1n }))).toBe(true);
    // A bound past the head leaves the head.
    expect(narrowBySlots(upToHead(100n), { min: undefined, max: 500n }).hi.slot).toBe(100n);
    expect(isEmpty(narrowBySlots(upToHead(100n), { min: 101n, max: undefined }))).toBe(true);
  });

  it('signature bounds are positions: gt/lt exclude the named transaction, gte/lte include it', () => {
    const r = narrowBySignatures(upToHead(100n), { gt: at(10, 3), lt: at(12, 0) });
    expect(inside(r, at(10, 3))).toBe(false);
    expect(inside(r, at(10, 4))).toBe(true);
    expect(inside(r, at(11, 999))).toBe(true);
    expect(inside(r, at(12, 0))).toBe(false);
    const incl = narrowBySignatures(upToHead(100n), { gte: at(10, 3), lte: at(10, 3) });
    expect(inside(incl, at(10, 3))).toBe(true);
    expect(isEmpty(incl)).toBe(false);
    expect(isEmpty(narrowBySignatures(upToHead(100n), { gt: at(10, 3), lt: at(10, 4) }))).toBe(true);
  });

  it('a token resumes strictly after its position in the order of the walk', () => {
    // Every pair of positions on a small grid, both orders.
    for (const asc of [true, false]) {
      for (let s1 = 0; s1 < 4; s1++) {
        for (let p1 = 0; p1 < 4; p1++) {
          const r = after(upToHead(100n), at(s1, p1), asc ? 'asc' : 'desc');
          for (let s2 = 0; s2 < 4; s2++) {
            for (let p2 = 0; p2 < 4; p2++) {
              const later = asc ? s2 > s1 || (s2 === s1 && p2 > p1) : s2 < s1 || (s2 === s1 && p2 < p1);
              expect(inside(r, at(s2, p2)), `${asc} ${s1}:${p1} -> ${s2}:${p2}`).toBe(later);
            }
          }
        }
      }
    }
    // Position 0 going down: nothing of that slot is left.
    expect(inside(after(upToHead(100n), at(7, 0), 'desc'), at(7, 0))).toBe(false);
    expect(inside(after(upToHead(100n), at(7, 0), 'desc'), at(6, 9))).toBe(true);
  });

  it('tokens read back what they wrote; anything else is -32602', () => {
    expect(parsePaginationToken(formatPaginationToken(123456789012n, 42), 'paginationToken')).toEqual(at(123456789012, 42));
    expect(parsePaginationToken('18446744073709551615:4294967295', 't')).toEqual({ slot: 2n ** 64n - 1n, position: 2n ** 32n - 1n });
    for (const bad of ['', '1', '1:', ':1', '1:2:3', '1.5:2', ' 1:2', '0x1:2', '1:-2', null, 12]) {
      const e = rpcErrorOf(() => parsePaginationToken(bad, 'paginationToken'));
      expect(e.code, String(bad)).toBe(-32602);
      expect(e.data, String(bad)).toMatch(/^paginationToken: /);
    }
  });
});
