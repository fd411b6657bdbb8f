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
import { pollUntil } from '../../platform/poll.js';
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
 * This copy's hold on an ingest name. `IngestNameClaim.open` waits as a standby while another copy beats, then takes
 * the name and starts beating; the steps: `read` (the heartbeat, outlasting Kafka outages), `standBy` (until the
 * heartbeat is silent or free), `beat` (one write), `schedule` (the next beat), `check` (whether another copy took
 * over). `release` is idempotent.
 */
export class IngestNameClaim implements NameClaim {
  readonly group: string;
  // The dead-letter topic's partition 0 carries the value: any partition of the prefix would do, that one always exists.
  private readonly at: { topic: string; partition: number };
  private readonly admin: ReturnType<Kafka['admin']>;
  // The last value seen or written: a read that differs from it and from `mine` means another copy wrote.
  private last = FREE;
  // Every value this copy tried to write lately: one whose commit timed out may have landed all the same.
  private readonly mine: bigint[] = [];
  // The beat under way (or the last one, settled): `release` waits for it so that "free" lands last.
  private beating: Promise<unknown> = Promise.resolve();
  // `stopped`: no further beat is scheduled (released, or lost); `lost` implies `stopped`. `timer`: the next beat.
  private stopped = false;
  private failing = false;
  private lostTo = false;
  private timer: NodeJS.Timeout | undefined;
  private releasing: Promise<void> | undefined;

  private constructor(
    kafka: Kafka,
    topics: TopicNames,
    private readonly o: ClaimOptions,
  ) {
    this.group = ingestIdOf(o.prefix, o.name);
    this.admin = kafka.admin();
    this.at = { topic: topics.deadletter, partition: 0 };
  }

  /** Resolves when this copy is to be active; rejects only with a stop (the signal). */
  static async open(kafka: Kafka, topics: TopicNames, o: ClaimOptions): Promise<IngestNameClaim> {
    const claim = new IngestNameClaim(kafka, topics, o);
    claim.last = await claim.standBy();
    // Beating now: a standby that started before this copy sees the value move and stays one.
    await retry(() => claim.beat(), { policy: CLAIM_RETRY, signal: o.signal });
    claim.schedule();
    o.log.info({ group: claim.group }, `ingest: name ${o.name} claimed on topic prefix ${o.prefix}; active`);
    return claim;
  }

  /** Another copy wrote the heartbeat since this one last did: it took over (and fenced this copy's producer). */
  get lost(): boolean {
    return this.lostTo;
  }

  /** The heartbeat now (FREE when nobody ever wrote it). */
  private async current(): Promise<bigint> {
    return (await this.admin.committedOffsets(this.group, [this.at.topic])).get(this.at.topic, this.at.partition) ?? FREE;
  }

  /** The heartbeat, waiting for Kafka when it is away (as the publisher does) instead of failing the start. */
  private read(): Promise<bigint> {
    return retry(() => this.current(), {
      policy: CLAIM_RETRY,
      signal: this.o.signal,
      onRetry: (err, n, delay) =>
        this.o.log.warn(
          { group: this.group, attempt: n + 1, retryInMs: delay, err: (err as Error).message },
          'ingest: reading the heartbeat failed; retrying',
        ),
    });
  }

  /** Reads the heartbeat every `pollMs` until it says free or has not moved for `silentMs`; returns the last value. */
  private async standBy(): Promise<bigint> {
    const silentMs = this.o.silentMs ?? 2_500;
    let seen: bigint | undefined;
    let changedAt = 0;
    await pollUntil(
      async () => {
        const now = await this.read();
        if (now === FREE) return true;
        if (now !== seen) {
          if (seen === undefined) this.announceStandby(silentMs);
          seen = now;
          changedAt = Date.now();
          return false;
        }
        const silent = Date.now() - changedAt;
        if (silent < silentMs) return false;
        this.o.log.warn(
          { group: this.group, silentMs: silent },
          `ingest: the active ingest named ${this.o.name} stopped beating ${silent} ms ago; taking over`,
        );
        return true;
      },
      { intervalMs: this.o.pollMs ?? 250, signal: this.o.signal },
    );
    return seen ?? FREE;
  }

  private announceStandby(silentMs: number): void {
    this.o.onStandby?.();
    this.o.log.info(
      { group: this.group, silentMs },
      `ingest: another ingest named ${this.o.name} is active; standing by to take over when it stops`,
    );
  }

  /** Reads the heartbeat now and returns whether this copy still holds the name (a publisher asks before it
   * reopens its producer, which would fence a copy that took over meanwhile). */
  stillHeld(): Promise<boolean> {
    return this.check();
  }

  private async check(): Promise<boolean> {
    const now = await this.current();
    if (!this.lostTo && now !== this.last && !this.mine.includes(now)) {
      this.lostTo = true;
      this.stopped = true;
      clearTimeout(this.timer);
      this.o.log.warn({ group: this.group }, `ingest: another ingest named ${this.o.name} took over the name; this one stops publishing`);
      this.o.onLost?.();
    }
    return !this.lostTo;
  }

  /** Writes `value`, or else the next timestamp: never the same value twice (a standby reads "unchanged" as "gone"). */
  private async beat(value?: bigint): Promise<void> {
    const now = BigInt(Date.now());
    const v = value ?? (now > this.last ? now : this.last + 1n);
    this.mine.push(v);
    if (this.mine.length > 20) this.mine.shift();
    this.last = v;
    await this.admin.commitOffsets(this.group, [{ ...this.at, offset: v }]);
  }

  /** The next beat in `heartbeatMs`, after checking nobody took over; then the one after, until stopped. */
  private schedule(): void {
    this.timer = setTimeout(() => {
      this.beating = this.check()
        .then((held) => (held && !this.stopped ? this.beat() : undefined))
        .then(() => {
          if (this.failing) this.o.log.info({ group: this.group }, 'ingest: heartbeat recovered');
          this.failing = false;
        })
        .catch((err: unknown) => {
          // Kafka away: the publisher's retries say so too. A standby may take over meanwhile; this copy's
          // next commit is then fenced and it stands by in turn.
          if (!this.failing) this.o.log.warn({ group: this.group, err: (err as Error).message }, 'ingest: heartbeat failed; retrying');
          this.failing = true;
        })
        .finally(() => {
          if (!this.stopped) this.schedule();
        });
    }, this.o.heartbeatMs ?? 500);
  }

  /** Stops the heartbeat. `free`: says the name is free, so a standby takes over at once (a clean stop); without it
   * (fenced: another copy is active now) the heartbeat is left to its new writer. Idempotent: later calls return
   * the first one's promise (whatever their `free`). */
  release(o: { free: boolean }): Promise<void> {
    this.releasing ??= this.stopBeating(o.free);
    return this.releasing;
  }

  private async stopBeating(free: boolean): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    // A beat under way would land after the "free" below and read as a live holder.
    await this.beating;
    if (free && !this.lostTo)
      await this.beat(FREE).catch((err: unknown) =>
        this.o.log.warn(
          { group: this.group, err: (err as Error).message },
          'ingest: could not mark the name free; a standby takes over once the heartbeat is silent',
        ),
      );
  }
}
