// What the views hold right now: the newest slot per commitment (the `heads` table the projector
// writes), the block height at each, and the oldest block. Every request needs it (commitment slot,
// -32007, minContextSlot), so it is cached for a short time and refreshed by one query at a time:
// getBlockHeight then answers without touching ClickHouse.
import type { ClickHouseClient } from '@clickhouse/client';
import type { Commitment } from '../solana-json/params.js';
import { queryRows, u64 } from './query.js';

export const COMMITMENTS: readonly Commitment[] = ['processed', 'confirmed', 'finalized'];

export interface ViewsState {
  /** Newest slot the views hold at each commitment; undefined when none. */
  head: Readonly<Record<Commitment, bigint | undefined>>;
  /** block_height of the newest block at or below each head. */
  height: Readonly<Record<Commitment, bigint | undefined>>;
  /** Oldest produced block the views hold in full (inside the transactions retention window). */
  oldestBlock: bigint | undefined;
  /** With an account history window: the oldest slot whose account state the views still hold (as-of reads). */
  accountHistoryFrom?: bigint | undefined;
}

export type Freshness = 'ok' | 'behind';

/**
 * Pure: behind while bootstrapping (no finalized slot yet) or when the views trail the newest slot in
 * Kafka by more than `maxSlotLag`. An unknown Kafka tip (the live reader has seen nothing yet) cannot
 * show a lag, so it does not count as behind.
 */
export function freshness(state: ViewsState, chainTip: bigint | undefined, maxSlotLag: number): Freshness {
  const finalized = state.head.finalized;
  if (finalized === undefined) return 'behind';
  if (chainTip === undefined) return 'ok';
  const newest = state.head.processed ?? finalized;
  return chainTip > newest && chainTip - newest > BigInt(maxSlotLag) ? 'behind' : 'ok';
}

/** Agave's three health answers: ok, behind by N slots, or unknown. */
export type Health = { kind: 'ok' } | { kind: 'behind'; slots: bigint } | { kind: 'unknown' };

/**
 * Pure: getHealth's view of the same rule as `freshness`. No finalized slot yet: unknown (nothing to measure
 * against); the views trailing the Kafka tip by more than `maxSlotLag`: behind by that many slots.
 */
export function healthOf(state: ViewsState, chainTip: bigint | undefined, maxSlotLag: number): Health {
  if (state.head.finalized === undefined) return { kind: 'unknown' };
  if (freshness(state, chainTip, maxSlotLag) === 'ok') return { kind: 'ok' };
  return { kind: 'behind', slots: chainTip! - (state.head.processed ?? state.head.finalized) };
}

// A retention window (migration 010; projector/retention.ts), 0 when the store keeps everything.
const windowOf = (store: string) =>
  `(SELECT ifNull(argMax(window_s, updated_at), 0) FROM {db:Identifier}.retention WHERE store = '${store}')`;

// A block row whose slot the store still holds in full: stored less than the window ago, by a margin. The TTL
// deletes each row at its own written_at plus the window, and a slot's rows are stored within seconds of its
// block row (the same projector batch or the next), so every row of a slot whose block row is inside the window
// by the margin (half the window, at most 10 minutes) is still there.
const insideWindow = (store: string) =>
  `(${windowOf(store)} = 0 OR toUInt64(written_at) + ${windowOf(store)} > toUInt64(now()) + least(intDiv(${windowOf(store)}, 2), 600))`;

// The heads and the block rows at the head slots: what moves every slot (`v` is block_height for 'block' rows).
const HEADS_SQL = `
SELECT 'head' AS k, commitment AS c, max(slot) AS slot, toUInt64(0) AS v
FROM {db:Identifier}.heads
WHERE commitment IN ('processed', 'confirmed', 'finalized')
GROUP BY commitment
UNION ALL
SELECT 'block' AS k, '' AS c, slot, any(block_height) AS v
FROM {db:Identifier}.blocks
WHERE slot IN (SELECT max(slot) FROM {db:Identifier}.heads WHERE commitment IN ('processed', 'confirmed', 'finalized') GROUP BY commitment)
GROUP BY slot`;

// What the history holds: the oldest block inside the transactions window and the account history window (`v` is
// the row count). It moves only as the retention windows drop data, by hours, and costs as much as the heads: read
// with them in one round trip, every refresh while the views hold no block yet and a few times less often after.
const STATE_SQL = `${HEADS_SQL}
UNION ALL
SELECT 'oldest' AS k, '' AS c, min(slot) AS slot, count() AS v
FROM {db:Identifier}.blocks
WHERE ${insideWindow('transactions')}
UNION ALL
SELECT 'accounts' AS k, toString(${windowOf('account_history')}) AS c, min(slot) AS slot, count() AS v
FROM {db:Identifier}.blocks
WHERE ${windowOf('account_history')} > 0 AND ${insideWindow('account_history')}`;

// A head whose slot has no block row (not expected: the projector moves a head only once the slot's
// record, which carries the block, is stored): the newest block at or below it.
const BLOCK_AT_OR_BELOW_SQL = `
SELECT slot, block_height FROM {db:Identifier}.blocks WHERE slot <= {slot:UInt64} ORDER BY slot DESC LIMIT 1`;

/** The history part of a state (STATE_SQL's 'oldest' and 'accounts' rows), kept between heads-only reads. */
interface HeldHistory {
  oldestBlock: bigint | undefined;
  /** The account history window's oldest block inside it and how many it holds; undefined without a window. */
  accounts: { slot: bigint; blocks: bigint } | undefined;
}

export async function readViewsState(ch: ClickHouseClient, db: string): Promise<ViewsState> {
  return (await readState(ch, db, undefined)).state;
}

/** The state, its history part read again unless `held` is given (then the heads alone are read). */
async function readState(
  ch: ClickHouseClient,
  db: string,
  held: HeldHistory | undefined,
): Promise<{ state: ViewsState; history: HeldHistory }> {
  const rows = await queryRows<{ k: string; c: string; slot: string; v: string }>(ch, held ? HEADS_SQL : STATE_SQL, { db });
  const head: Record<Commitment, bigint | undefined> = { processed: undefined, confirmed: undefined, finalized: undefined };
  const blockHeight = new Map<bigint, bigint>();
  const history: HeldHistory = held ?? { oldestBlock: undefined, accounts: undefined };
  for (const r of rows) {
    if (r.k === 'head') head[r.c as Commitment] = u64(r.slot);
    else if (r.k === 'block') blockHeight.set(u64(r.slot), u64(r.v));
    else if (r.k === 'oldest' && u64(r.v) > 0n) history.oldestBlock = u64(r.slot);
    else if (r.k === 'accounts' && r.c !== '0') history.accounts = { slot: u64(r.slot), blocks: u64(r.v) };
  }
  // A head must not run ahead of a stronger one's: what is finalized is also confirmed and processed.
  if (head.finalized !== undefined && (head.confirmed === undefined || head.confirmed < head.finalized)) head.confirmed = head.finalized;
  if (head.confirmed !== undefined && (head.processed === undefined || head.processed < head.confirmed)) head.processed = head.confirmed;
  const height: Record<Commitment, bigint | undefined> = { processed: undefined, confirmed: undefined, finalized: undefined };
  for (const c of COMMITMENTS) {
    const slot = head[c];
    if (slot === undefined) continue;
    let h = blockHeight.get(slot);
    if (h === undefined) {
      const below = await queryRows<{ slot: string; block_height: string }>(ch, BLOCK_AT_OR_BELOW_SQL, { db, slot });
      if (below.length > 0) h = u64(below[0]!.block_height);
    }
    height[c] = h;
  }
  // No block inside the account window: only the newest states are left, so nothing before the head is held.
  const accounts = history.accounts;
  const accountHistoryFrom = accounts === undefined ? undefined : accounts.blocks > 0n ? accounts.slot : (head.processed ?? 0n) + 1n;
  const state = { head, height, oldestBlock: history.oldestBlock, ...(accountHistoryFrom === undefined ? {} : { accountHistoryFrom }) };
  return { state, history };
}

/**
 * Caches readViewsState for `ttlMs`; concurrent callers share one refresh. Past the TTL and up to `staleMs`
 * more, callers get the last state at once while the refresh runs: the refresh query waits behind the queries
 * already handed to ClickHouse (admission.ts), and the methods answered from this state (getSlot,
 * getBlockHeight, getHealth, and every method's freshness check) must not wait with it (issue 18, item 9).
 * Older than that (or no state yet), callers wait for the refresh, so unreadable views still show.
 * The history part (oldest block, account window) is read again only every `historyTtlMs` once the views hold a
 * block: a refresh costs half as much CPU, and what a sequential caller waits for shrinks with it (a refresh falls
 * on every call longer than the TTL; bench/jsonrpc-gpa.ts). Its staleness is covered by the windows' margin
 * (`insideWindow`: rows stay at least minutes past the oldest slot a state names).
 */
export class ViewsStateCache {
  private value: ViewsState | undefined;
  private at = 0;
  private inflight: Promise<ViewsState> | undefined;
  private history: HeldHistory | undefined;
  private historyAt = 0;

  constructor(
    private readonly ch: ClickHouseClient,
    private readonly db: string,
    private readonly ttlMs = 200,
    private readonly staleMs = 5 * ttlMs,
    private readonly historyTtlMs = 10 * ttlMs,
  ) {}

  get(): Promise<ViewsState> {
    const age = performance.now() - this.at;
    if (this.value !== undefined && age < this.ttlMs) return Promise.resolve(this.value);
    this.inflight ??= this.refresh();
    if (this.value !== undefined && age < this.ttlMs + this.staleMs) return Promise.resolve(this.value);
    return this.inflight;
  }

  private refresh(): Promise<ViewsState> {
    const started = performance.now();
    const keep = this.history?.oldestBlock !== undefined && started - this.historyAt < this.historyTtlMs;
    const p = readState(this.ch, this.db, keep ? this.history : undefined)
      .then(({ state, history }) => {
        this.value = state;
        this.at = performance.now();
        if (!keep) [this.history, this.historyAt] = [history, started];
        return state;
      })
      .finally(() => {
        this.inflight = undefined;
      });
    p.catch(() => undefined); // a refresh nobody waited for (stale answers) must not fail unhandled
    return p;
  }

  /** The last state read, however old, without reading (the head cache compares its heads with it). */
  peek(): ViewsState | undefined {
    return this.value;
  }

  /** Forgets the cached state (tests that change the views and must see it at once). */
  invalidate(): void {
    this.value = undefined;
    this.history = undefined;
  }
}
