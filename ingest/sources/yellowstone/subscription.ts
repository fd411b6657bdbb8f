// What the yellowstone source asks its upstream for (pure): the SubscribeRequest built from the config's
// filters, and where a (re)subscription starts given what history needs and what the upstream's
// SubscribeReplayInfo says it can replay.
import type { SubscribeRequest } from '@triton-one/yellowstone-grpc';
import type { SubscriptionStart } from './assembler.js';

/** The update kinds the source may subscribe to besides slot statuses and block meta (always on). */
export const STREAMS = ['transactions', 'accounts', 'entries'] as const;
export type Stream = (typeof STREAMS)[number];

export interface Filters {
  streams: readonly Stream[];
  /** false: vote transactions are excluded upstream. */
  votes: boolean;
  txAccountInclude: readonly string[];
  txAccountExclude: readonly string[];
  txAccountRequired: readonly string[];
  accounts: readonly string[];
  owners: readonly string[];
}

const FILTER = 'slotstream';
const PROCESSED = 0; // geyser.CommitmentLevel.PROCESSED

/** The assembler can wait for every announced transaction only when it receives all of them. */
export function receivesEveryTransaction(f: Filters): boolean {
  return (
    f.streams.includes('transactions') &&
    f.votes &&
    f.txAccountInclude.length + f.txAccountExclude.length + f.txAccountRequired.length === 0
  );
}

export function subscribeRequest(f: Filters, fromSlot: bigint | undefined): SubscribeRequest {
  return {
    accounts: f.streams.includes('accounts') ? { [FILTER]: { account: [...f.accounts], owner: [...f.owners], filters: [] } } : {},
    slots: { [FILTER]: { filterByCommitment: false, interslotUpdates: true } },
    transactions: f.streams.includes('transactions')
      ? {
          [FILTER]: {
            vote: f.votes ? undefined : false,
            failed: undefined,
            signature: undefined,
            accountInclude: [...f.txAccountInclude],
            accountExclude: [...f.txAccountExclude],
            accountRequired: [...f.txAccountRequired],
          },
        }
      : {},
    transactionsStatus: {},
    blocks: {},
    blocksMeta: { [FILTER]: {} },
    entry: f.streams.includes('entries') ? { [FILTER]: {} } : {},
    commitment: PROCESSED,
    accountsDataSlice: [],
    ping: undefined,
    fromSlot: fromSlot === undefined ? undefined : fromSlot.toString(),
  };
}

/**
 * Where a subscription starts.
 * - Fresh start (nothing in Kafka): live, from the upstream's tip.
 * - Resuming at `resumeFrom`: replay from `wanted` (resumeFrom, or lower to collect late statuses of slots
 *   already out) when the upstream reaches back that far; from its first available slot when that is
 *   between; past `resumeFrom`, the slots in between are a gap. An upstream without replay: live, and the
 *   gap ends before the first whole slot received.
 */
export function planSubscription(
  resumeFrom: bigint | undefined,
  wanted: bigint | undefined,
  firstAvailable: bigint | undefined,
): SubscriptionStart {
  if (resumeFrom === undefined) return {};
  const want = wanted !== undefined && wanted < resumeFrom ? wanted : resumeFrom;
  if (firstAvailable === undefined) {
    return {
      resumeFrom,
      gapReason: `the upstream does not replay (SubscribeReplayInfo names no first available slot); resumed live after slot ${resumeFrom - 1n}`,
    };
  }
  if (firstAvailable <= want) return { resumeFrom, replayFrom: want };
  if (firstAvailable <= resumeFrom) return { resumeFrom, replayFrom: firstAvailable };
  return {
    resumeFrom,
    replayFrom: firstAvailable,
    gapReason: `the upstream replays from slot ${firstAvailable} only (SubscribeReplayInfo); slots from ${resumeFrom} were needed`,
  };
}
