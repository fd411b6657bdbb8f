// The part of an address's history one getTransactionsForAddress page may come from, as an inclusive range of
// block positions (slot, transactionIndex), and the "slot:position" pagination token. Pure. Every bound of the
// request narrows the same range: the commitment's head, filters.slot, filters.signature (located to the
// position of its transaction: chronological, as getSignaturesForAddress's before/until), and the token of the
// previous page (strictly after it in the requested order). Positions are bigints so "just before position
// 0" (-1) and "after every position" (2^32) need no special case.
import { invalidParams } from '../solana-json/errors.js';
import { describeValue } from '../../platform/describe-value.js';

export interface BlockPosition {
  slot: bigint;
  position: bigint;
}

/** Inclusive at both ends; empty when lo > hi. */
export interface HistoryRange {
  lo: BlockPosition;
  hi: BlockPosition;
}

/** Above every transaction index of a block (u32). */
export const AFTER_LAST_POSITION = 2n ** 32n;

const compare = (a: BlockPosition, b: BlockPosition): number =>
  a.slot !== b.slot ? (a.slot < b.slot ? -1 : 1) : a.position === b.position ? 0 : a.position < b.position ? -1 : 1;

/** Everything at or below the head. */
export const upToHead = (head: bigint): HistoryRange => ({
  lo: { slot: 0n, position: 0n },
  hi: { slot: head, position: AFTER_LAST_POSITION },
});

/** The range with its low end raised to `lo` (when higher). */
export const atOrAfter = (r: HistoryRange, lo: BlockPosition): HistoryRange => (compare(lo, r.lo) > 0 ? { lo, hi: r.hi } : r);

/** The range with its high end lowered to `hi` (when lower). */
export const atOrBefore = (r: HistoryRange, hi: BlockPosition): HistoryRange => (compare(hi, r.hi) < 0 ? { lo: r.lo, hi } : r);

export const isEmpty = (r: HistoryRange): boolean => compare(r.lo, r.hi) > 0;

/** Inclusive bounds (filters.slot, filters.blockTime), undefined where absent. */
export interface Bounds {
  min: bigint | undefined;
  max: bigint | undefined;
}

export function narrowBySlots(r: HistoryRange, s: Bounds): HistoryRange {
  let out = r;
  if (s.min !== undefined) out = atOrAfter(out, { slot: s.min, position: 0n });
  // max -1 (lt 0): nothing can be below it; slot -1 makes the range empty.
  if (s.max !== undefined) out = atOrBefore(out, { slot: s.max, position: AFTER_LAST_POSITION });
  return out;
}

/** Strictly after `p` in the order of the walk: the next page of a token. */
export function after(r: HistoryRange, p: BlockPosition, order: 'asc' | 'desc'): HistoryRange {
  return order === 'asc'
    ? atOrAfter(r, { slot: p.slot, position: p.position + 1n })
    : atOrBefore(r, { slot: p.slot, position: p.position - 1n });
}

/** filters.signature with the position of each named transaction. */
export interface SignatureBounds {
  gte?: BlockPosition;
  gt?: BlockPosition;
  lte?: BlockPosition;
  lt?: BlockPosition;
}

export function narrowBySignatures(r: HistoryRange, s: SignatureBounds): HistoryRange {
  let out = r;
  if (s.gte) out = atOrAfter(out, s.gte);
  if (s.gt) out = atOrAfter(out, { slot: s.gt.slot, position: s.gt.position + 1n });
  if (s.lte) out = atOrBefore(out, s.lte);
  if (s.lt) out = atOrBefore(out, { slot: s.lt.slot, position: s.lt.position - 1n });
  return out;
}

export const formatPaginationToken = (slot: bigint, position: number): string => `${slot}:${position}`;

const U64_MAX = 2n ** 64n - 1n;

/** `"<slot>:<transactionIndex>"` (decimal, u64 and u32), or -32602 naming the parameter. */
export function parsePaginationToken(v: unknown, name: string): BlockPosition {
  const m = typeof v === 'string' ? /^(\d{1,20}):(\d{1,10})$/.exec(v) : null;
  if (m === null) throw invalidParams(`${name}: expected "<slot>:<position>" from a previous page, got ${describeValue(v)}`);
  const slot = BigInt(m[1]!);
  const position = BigInt(m[2]!);
  if (slot > U64_MAX || position >= AFTER_LAST_POSITION) {
    throw invalidParams(`${name}: slot or position out of range in ${describeValue(v)}`);
  }
  return { slot, position };
}
