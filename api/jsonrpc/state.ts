// What the views hold right now: the newest slot per commitment (the `heads` table the projector
// writes), the block height at each, and the oldest block. Every request needs it (commitment slot,
// -32007, minContextSlot), so it is cached for a short time and refreshed by one query at a time:
// getBlockHeight then answers without touching ClickHouse.
import type { ClickHouseClient } from '@clickhouse/client';
import type { Commitment } from './params.js';
import { queryRows, u64 } from './query.js';

export const COMMITMENTS: readonly Commitment[] = ['processed', 'confirmed', 'finalized'];

export interface ViewsState {
  /** Newest slot the views hold at each commitment; undefined when none. */
  head: Readonly<Record<Commitment, bigint | undefined>>;
  /** block_height of the newest block at or below each head. */
  height: Readonly<Record<Commitment, bigint | undefined>>;
  /** Oldest produced block the views hold. */
  oldestBlock: bigint | undefined;
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

const HEADS_SQL = `
SELECT commitment, max(slot) AS slot
FROM {db:Identifier}.heads
WHERE commitment IN ('processed', 'confirmed', 'finalized')
GROUP BY commitment`;

// One row per commitment with the newest block at or below its head; `n` tells an empty result apart.
const HEIGHTS_SQL = `
SELECT c, argMax(block_height, slot) AS height, max(slot) AS top, count() AS n FROM (
  SELECT 'processed' AS c, slot, block_height FROM {db:Identifier}.blocks WHERE slot <= {processed:UInt64} ORDER BY slot DESC LIMIT 1
  UNION ALL
  SELECT 'confirmed' AS c, slot, block_height FROM {db:Identifier}.blocks WHERE slot <= {confirmed:UInt64} ORDER BY slot DESC LIMIT 1
  UNION ALL
  SELECT 'finalized' AS c, slot, block_height FROM {db:Identifier}.blocks WHERE slot <= {finalized:UInt64} ORDER BY slot DESC LIMIT 1
  UNION ALL
  SELECT 'oldest' AS c, slot, block_height FROM {db:Identifier}.blocks ORDER BY slot ASC LIMIT 1
) GROUP BY c`;

export async function readViewsState(ch: ClickHouseClient, db: string): Promise<ViewsState> {
  const heads = await queryRows<{ commitment: string; slot: string }>(ch, HEADS_SQL, { db });
  const head: Record<Commitment, bigint | undefined> = { processed: undefined, confirmed: undefined, finalized: undefined };
  for (const r of heads) head[r.commitment as Commitment] = u64(r.slot);
  // A head must not run ahead of a stronger one's: what is finalized is also confirmed and processed.
  if (head.finalized !== undefined && (head.confirmed === undefined || head.confirmed < head.finalized)) head.confirmed = head.finalized;
  if (head.confirmed !== undefined && (head.processed === undefined || head.processed < head.confirmed)) head.processed = head.confirmed;
  const height: Record<Commitment, bigint | undefined> = { processed: undefined, confirmed: undefined, finalized: undefined };
  // With no head at a commitment, its branch asks for slot <= 0 and its answer is dropped below.
  const rows = await queryRows<{ c: string; height: string; top: string; n: string }>(ch, HEIGHTS_SQL, {
    db,
    processed: head.processed ?? 0n,
    confirmed: head.confirmed ?? 0n,
    finalized: head.finalized ?? 0n,
  });
  let oldestBlock: bigint | undefined;
  for (const r of rows) {
    if (u64(r.n) === 0n) continue;
    if (r.c === 'oldest') {
      oldestBlock = u64(r.top);
      continue;
    }
    const c = r.c as Commitment;
    if (head[c] !== undefined) height[c] = u64(r.height);
  }
  return { head, height, oldestBlock };
}

/** Caches readViewsState for `ttlMs`; concurrent callers share one refresh. */
export class ViewsStateCache {
  private value: ViewsState | undefined;
  private at = 0;
  private inflight: Promise<ViewsState> | undefined;

  constructor(
    private readonly ch: ClickHouseClient,
    private readonly db: string,
    private readonly ttlMs = 200,
  ) {}

  get(): Promise<ViewsState> {
    if (this.value !== undefined && performance.now() - this.at < this.ttlMs) return Promise.resolve(this.value);
    this.inflight ??= readViewsState(this.ch, this.db)
      .then((v) => {
        this.value = v;
        this.at = performance.now();
        return v;
      })
      .finally(() => {
        this.inflight = undefined;
      });
    return this.inflight;
  }

  /** Forgets the cached state (tests that change the views and must see it at once). */
  invalidate(): void {
    this.value = undefined;
  }
}
