// Active and standby ingests of one name (topic prefix, name). The name is part of the Kafka transactional
// id, and a newer producer with that id fences the older one: Kafka alone decides which copy can commit, so two
// can never publish at once. This file only decides when a copy tries, so that copies do not take turns
// fencing each other: the active one writes a heartbeat (a timestamp committed as the offset of a consumer
// group named like its transactional id, a group nobody joins), and a copy that finds the heartbeat moving
// waits as a standby. When the heartbeat stops moving for `silentMs` (the active was killed, lost Kafka, or
// was fenced) or says the name is free (a clean stop), the standby takes over: it opens the transactional
// producer, which fences any zombie and aborts its open transaction, and resumes as a restarted ingest does.
// A heartbeat, not group membership: Kafka lets a killed member hold a group for a session timeout of at
// least 6 s (group.min.session.timeout.ms), longer than the 5 s a takeover may take.
import type { Kafka } from '../../platform/kafka/index.js';
import type { Logger } from '../../platform/log.js';
import { retry, type RetryPolicy } from '../../platform/retry.js';
import { sleep } from '../../platform/sleep.js';
import type { TopicNames } from '../../schemas/topics.js';

export interface NameClaim {
  readonly group: string;
  /** Another copy wrote the heartbeat since this one last did: it took over (and fenced this copy's producer). */
  readonly lost: boolean;
  /** Reads the heartbeat now and returns whether this copy still holds the name (a publisher asks before it
   * reopens its producer, which would fence a copy that took over meanwhile). */
  stillHeld(): Promise<boolean>;
  /** Stops the heartbeat. `free`: says the name is free, so a standby takes over at once (a clean stop);
   * without it (fenced: another copy is active now) the heartbeat is left to its new writer. */
  release(o: { free: boolean }): Promise<void>;
}

export interface ClaimOptions {
  prefix: string;
  name: string;
  log: Logger;
  /** How often the active copy beats (default 500 ms). */
  heartbeatMs?: number;
  /** A heartbeat unchanged this long means the active copy is gone (default 2,500 ms). */
  silentMs?: number;
  /** How often a standby reads the heartbeat (default 250 ms). */
  pollMs?: number;
  signal?: AbortSignal;
  /** Called once when this copy starts waiting as a standby. */
  onStandby?: () => void;
  /** Called once when the heartbeat shows another copy took over. */
  onLost?: () => void;
}

/** While Kafka is away: as the publisher, 200 ms doubling to 5 s, never giving up. */
const CLAIM_RETRY: RetryPolicy = { initialMs: 200, maxMs: 5_000 };

/** Kafka transactional id and heartbeat group of an ingest: one per topic prefix and ingest name. */
export const ingestIdOf = (prefix: string, name: string): string => `slotstream-ingest-${prefix}-${name}`;

/** The heartbeat value that says nobody holds the name (also what a group with no commit reads as). */
const FREE = 0n;

/**
 * Waits as a standby while another copy of this ingest beats, then takes the name and starts beating.
 * Resolves when this copy is to be active; rejects only with a stop (the signal).
 */
export async function claimIngestName(kafka: Kafka, topics: TopicNames, o: ClaimOptions): Promise<NameClaim> {
  const group = ingestIdOf(o.prefix, o.name);
  const heartbeatMs = o.heartbeatMs ?? 500;
  const silentMs = o.silentMs ?? 2_500;
  const pollMs = o.pollMs ?? 250;
  const admin = kafka.admin();
  // The dead-letter topic's partition 0 carries the value: any partition of the prefix would do, that one always exists.
  const at = { topic: topics.deadletter, partition: 0 };
  // Kafka away at start: wait for it, as the publisher does, instead of failing the start.
  const read = (): Promise<bigint> =>
    retry(async () => (await admin.committedOffsets(group, [at.topic])).get(at.topic, at.partition) ?? FREE, {
      policy: CLAIM_RETRY,
      signal: o.signal,
      onRetry: (err, n, delay) =>
        o.log.warn(
          { group, attempt: n + 1, retryInMs: delay, err: (err as Error).message },
          'ingest: reading the heartbeat failed; retrying',
        ),
    });

  let seen = await read();
  let changedAt = Date.now();
  let standing = false;
  while (seen !== FREE) {
    if (!standing) {
      standing = true;
      o.onStandby?.();
      o.log.info({ group, silentMs }, `ingest: another ingest named ${o.name} is active; standing by to take over when it stops`);
    }
    await sleep(pollMs, o.signal);
    const now = await read();
    if (now !== seen) {
      seen = now;
      changedAt = Date.now();
      continue;
    }
    const silent = Date.now() - changedAt;
    if (silent >= silentMs) {
      o.log.warn({ group, silentMs: silent }, `ingest: the active ingest named ${o.name} stopped beating ${silent} ms ago; taking over`);
      break;
    }
  }

  // Beating now: a standby that started before this copy sees the value move and stays one.
  let last = seen;
  // Every value this copy tried to write lately: one whose commit timed out may have landed all the same.
  const mine: bigint[] = [];
  let beating: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let failing = false;
  let lost = false;
  let timer: NodeJS.Timeout | undefined;
  const current = async (): Promise<bigint> => (await admin.committedOffsets(group, [at.topic])).get(at.topic, at.partition) ?? FREE;
  const check = async (): Promise<boolean> => {
    const now = await current();
    if (!lost && now !== last && !mine.includes(now)) {
      lost = true;
      stopped = true;
      clearTimeout(timer);
      o.log.warn({ group }, `ingest: another ingest named ${o.name} took over the name; this one stops publishing`);
      o.onLost?.();
    }
    return !lost;
  };
  const beat = async (value?: bigint): Promise<void> => {
    // Never the same value twice: a standby reads "unchanged" as "gone".
    const v = value ?? (BigInt(Date.now()) > last ? BigInt(Date.now()) : last + 1n);
    mine.push(v);
    if (mine.length > 20) mine.shift();
    last = v;
    await admin.commitOffsets(group, [{ ...at, offset: v }]);
  };
  const schedule = (): void => {
    timer = setTimeout(() => {
      beating = check()
        .then((held) => (held && !stopped ? beat() : undefined))
        .then(() => {
          if (failing) o.log.info({ group }, 'ingest: heartbeat recovered');
          failing = false;
        })
        .catch((err: unknown) => {
          // Kafka away: the publisher's retries say so too. A standby may take over meanwhile; this copy's
          // next commit is then fenced and it stands by in turn.
          if (!failing) o.log.warn({ group, err: (err as Error).message }, 'ingest: heartbeat failed; retrying');
          failing = true;
        })
        .finally(() => {
          if (!stopped) schedule();
        });
    }, heartbeatMs);
  };
  await retry(() => beat(), { policy: CLAIM_RETRY, signal: o.signal });
  schedule();
  o.log.info({ group }, `ingest: name ${o.name} claimed on topic prefix ${o.prefix}; active`);
  return {
    group,
    get lost() {
      return lost;
    },
    stillHeld: check,
    async release({ free }) {
      stopped = true;
      clearTimeout(timer);
      // A beat under way would land after the "free" below and read as a live holder.
      await beating;
      if (free && !lost)
        await beat(FREE).catch((err: unknown) =>
          o.log.warn(
            { group, err: (err as Error).message },
            'ingest: could not mark the name free; a standby takes over once the heartbeat is silent',
          ),
        );
    },
  };
}
