// What both source loops (subscription-loop.ts for one upstream, merged-loop.ts for several) build from the
// source's options, so the two read them alike: the slot assembler, the leader schedules, the idle bound and the
// reconnect policy. The assembler counts transactions and entries when the filters receive all of them,
// dead-letters rejected updates (the promise goes on `dead`, which the loop awaits before its next batch goes
// out) and logs other notices.
import type { RetryPolicy } from '../../../platform/retry.js';
import { RpcClient } from '../shared/rpc-client.js';
import { SlotAssembler } from './assembler.js';
import { LeaderSchedules } from './leaders.js';
import { deadLetterOf, notice } from './notices.js';
import type { YellowstoneSourceOptions } from './options.js';
import { receivesEveryTransaction } from './subscription.js';

export interface LoopParts {
  asm: SlotAssembler;
  /** Resumed after `afterSlot` when history continues. */
  leaders: LeaderSchedules;
  /** A subscription silent this long is reopened. */
  idleMs: number;
  /** Waits between reconnects. */
  policy: RetryPolicy;
}

export function loopParts(
  o: YellowstoneSourceOptions,
  afterSlot: bigint | undefined,
  signal: AbortSignal | undefined,
  dead: () => Promise<void>[],
): LoopParts {
  const leaders = new LeaderSchedules(o.rpc ? new RpcClient({ ...o.rpc, log: o.log, signal }) : undefined, o.log);
  if (afterSlot !== undefined) leaders.resumeAfter(afterSlot);
  return {
    asm: sourceAssembler(o, dead),
    leaders,
    idleMs: o.idleMs ?? 60_000,
    policy: { initialMs: o.backoffMs ?? 500, maxMs: o.maxBackoffMs ?? 30_000 },
  };
}

function sourceAssembler(o: YellowstoneSourceOptions, dead: () => Promise<void>[]): SlotAssembler {
  return new SlotAssembler({
    countTransactions: receivesEveryTransaction(o.filters),
    countEntries: o.filters.streams.includes('entries'),
    ...(o.waitSlots !== undefined ? { waitSlots: o.waitSlots } : {}),
    pieces: o.publish === 'pieces',
    onNotice: (n) => {
      if (n.kind === 'unconvertible' && o.deadLetters) dead().push(o.deadLetters.send(deadLetterOf(n)));
      else notice(n, o.log);
    },
  });
}
