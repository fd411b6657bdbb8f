// A batch plan: the slices of one flush turned into one insert per table (with its dedup token),
// the dead letters to publish and the offsets to commit afterwards. Pure.
import { createHash } from 'node:crypto';
import { tpKey } from '../platform/kafka/offset-map.js';
import { appendRows, emptyRows, VIEW_TABLES, type Rows, type ViewTable } from './projections/rows.js';
import type { DeadLetter, Slice } from './slice.js';

export interface TableInsert {
  table: ViewTable;
  rows: unknown[];
  /** Same records, same token: a re-delivered batch with the same ranges is dropped by ClickHouse. */
  token: string;
}

export interface CommitOffset {
  topic: string;
  partition: number;
  offset: string;
}

export interface BatchPlan {
  inserts: TableInsert[];
  deadLetters: DeadLetter[];
  commits: CommitOffset[];
  events: number;
}

/** The record ranges of the slices, in a canonical order (independent of arrival order). */
export function rangesKey(slices: readonly Slice[]): string {
  return (
    slices
      .filter((s) => s.events > 0)
      // Not tpKey: this order is part of the dedup tokens ClickHouse has stored, and must never change.
      .map((s) => ({ key: `${s.topic}:${s.partition}`, range: `${s.topic}:${s.partition}:${s.firstOffset}-${s.lastOffset}` }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.range < b.range ? -1 : a.range > b.range ? 1 : 0))
      .map((r) => r.range)
      .join(',')
  );
}

/** `<table>:<ranges>`; long range lists are hashed so tokens stay short. */
export function dedupToken(table: ViewTable, ranges: string): string {
  if (ranges.length <= 200) return `${table}:${ranges}`;
  return `${table}:sha256:${createHash('sha256').update(ranges).digest('hex')}`;
}

export function planBatch(slices: readonly Slice[]): BatchPlan {
  const rows: Rows = emptyRows();
  const deadLetters: DeadLetter[] = [];
  const commitByPartition = new Map<string, CommitOffset & { next: bigint }>();
  let events = 0;
  for (const s of slices) {
    appendRows(rows, s.rows);
    for (const d of s.deadLetters) deadLetters.push(d);
    events += s.events;
    const key = tpKey(s.topic, s.partition);
    const seen = commitByPartition.get(key);
    if (seen === undefined || s.nextOffset > seen.next) {
      commitByPartition.set(key, { topic: s.topic, partition: s.partition, offset: s.nextOffset.toString(), next: s.nextOffset });
    }
  }
  // A token account written many times needs its wallet index row once.
  const seenTokenOwners = new Set<string>();
  rows.token_accounts_by_owner = rows.token_accounts_by_owner.filter((r) => {
    const k = `${r.owner}|${r.program}|${r.mint}|${r.pubkey}`;
    if (seenTokenOwners.has(k)) return false;
    seenTokenOwners.add(k);
    return true;
  });
  // And its mint and delegate index rows (008_token_account_keys.sql).
  const seenMints = new Set<string>();
  rows.token_accounts_by_mint = rows.token_accounts_by_mint.filter((r) => {
    const k = `${r.mint}|${r.program}|${r.pubkey}`;
    return seenMints.size !== seenMints.add(k).size;
  });
  const seenDelegates = new Set<string>();
  rows.token_accounts_by_delegate = rows.token_accounts_by_delegate.filter((r) => {
    const k = `${r.delegate}|${r.program}|${r.mint}|${r.pubkey}`;
    return seenDelegates.size !== seenDelegates.add(k).size;
  });
  const ranges = rangesKey(slices);
  const inserts: TableInsert[] = [];
  for (const table of VIEW_TABLES) {
    if (rows[table].length > 0) inserts.push({ table, rows: rows[table], token: dedupToken(table, ranges) });
  }
  const commits = [...commitByPartition.values()].map(({ topic, partition, offset }) => ({ topic, partition, offset }));
  return { inserts, deadLetters, commits, events };
}
