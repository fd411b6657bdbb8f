// Account reads as of a slot (issue 21, item 3). Every account method answers the newest write of each
// account at or below one slot: the context slot of its commitment, or, with slotstream's non-standard config
// member `slot` (Helius's name for the position in getHistoricalAccountInfo's query), a past slot whose
// history the views hold. The member's parsing, the slot a read answers at (with its errors) and the SQL of
// "the newest write at or below the slot" are here, once, for every account method, V2 ones included:
//   parse: `{ ...parseProgramAccountsConfig(config), ...parseAsOf(config) }`
//   run:   `const slot = readSlot(UNAVAILABLE, ctx.state, p);` then SQL built on `newestWritesSql(...)`.
import { accountHistoryNotAvailable, asOfSlotNotReached, invalidParams } from '../solana-json/errors.js';
import { optionalU64, type Commitment, type ParamsConfig } from '../solana-json/params.js';
import type { ViewsState } from '../views/state.js';
import { contextSlot } from './method.js';

/** The config member naming the slot to read at. */
export const AS_OF_MEMBER = 'slot';

export interface AsOf {
  /** Read the accounts as of this slot instead of the commitment's context slot. */
  asOfSlot: bigint | undefined;
}

/** Pure: the `slot` member of a config, a non-negative whole number when present (-32602 naming it otherwise). */
export function parseAsOf(config: ParamsConfig): AsOf {
  return { asOfSlot: optionalU64(config, AS_OF_MEMBER) };
}

/** What decides the slot of an account read. minContextSlot is absent for methods Agave gives none. */
export interface ReadSlotParams extends AsOf {
  commitment: Commitment;
  minContextSlot?: bigint | undefined;
}

/**
 * The slot an account read answers at, which is also its `context.slot`. Without `slot`: the commitment's
 * context slot (after minContextSlot, -32016). With it: that slot, when the commitment has reached it (else
 * -32016 with the context slot: later it will have), when it is not below minContextSlot (a contradiction no
 * retry resolves: -32602), and when the views hold its history, i.e. it is not older than the oldest block
 * they hold (-32018 naming that slot). The views keep every write from there on, so the state at any slot
 * between that and the context slot is the newest write at or below it.
 */
export function readSlot(unavailableMessage: string, state: ViewsState, p: ReadSlotParams): bigint {
  const head = contextSlot({ unavailableMessage }, state, p.commitment, p.minContextSlot);
  const at = p.asOfSlot;
  if (at === undefined) return head;
  if (at > head) throw asOfSlotNotReached(at, p.commitment, head);
  if (p.minContextSlot !== undefined && at < p.minContextSlot) {
    throw invalidParams(
      `${AS_OF_MEMBER}: ${at} is below minContextSlot ${p.minContextSlot}; an answer as of slot ${at} has context slot ${at}`,
    );
  }
  // With an account history window (projector/retention.ts), writes before its start are rolled up into each
  // account's newest, so the state at an older slot is no longer known even where its block is.
  const blocksFrom = state.oldestBlock ?? head;
  const historyFrom = state.accountHistoryFrom;
  const oldest = historyFrom !== undefined && historyFrom > blocksFrom ? historyFrom : blocksFrom;
  if (at < oldest) throw accountHistoryNotAvailable(at, oldest);
  return at;
}

/** The columns of an account's state (AccountRow), and the slot of the write it comes from. */
export const ACCOUNT_COLUMNS = 'pubkey, owner, lamports, executable, rent_epoch, space, data';

/**
 * The newest write of each pubkey in `candidates` at or below `{slot:UInt64}`, one row per pubkey in pubkey
 * order, as `columns` plus `write_slot` (the slot of that write, for changedSinceSlot). `candidates` is the
 * right side of `pubkey IN`: a placeholder (`{pubkeys:Array(String)}`) or a subquery selecting pubkeys; every
 * value stays a placeholder. A write with 0 lamports is a closed account and an owner other than the one
 * asked for a moved one: callers filter on the outer query (closed accounts must not fall back to an older
 * write). account_writes is ordered by (pubkey, slot), so ORDER BY ... LIMIT 1 BY streams in key order
 * (several times faster than argMax over a GROUP BY); write_version breaks ties within a slot, as the
 * ReplacingMergeTree version does after a merge.
 */
export function newestWritesSql(candidates: string, columns = ACCOUNT_COLUMNS): string {
  return `
  SELECT ${columns}, slot AS write_slot
  FROM {db:Identifier}.account_writes
  WHERE pubkey IN ${candidates} AND slot <= {slot:UInt64}
  ORDER BY pubkey, slot DESC, write_version DESC
  LIMIT 1 BY pubkey`;
}
