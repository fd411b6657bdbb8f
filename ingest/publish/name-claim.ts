// One ingest per (topic prefix, name). The name is part of the Kafka transactional id, and Kafka lets a
// second producer with the same id fence the first: two copies would take turns fencing each other, each
// restart killing the other. So before its producer opens, an ingest claims its name by joining a consumer
// group named like its transactional id, whose membership Kafka keeps only while the member is alive
// (heartbeats). A name already held makes the newcomer exit with a configuration error and leaves the
// running ingest alone. A holder killed without leaving the group keeps it for one session timeout: a
// restart after a crash waits that long for the old membership to lapse before it calls the name taken.
import { ConfigError } from '../../platform/config.js';
import type { Kafka, GroupConsumer } from '../../platform/kafka/index.js';
import type { Logger } from '../../platform/log.js';
import { retry, type RetryPolicy } from '../../platform/retry.js';
import { sleep } from '../../platform/sleep.js';
import type { TopicNames } from '../../schemas/topics.js';

/** A ConfigError: the CLI reports it as one (exit code 2, the message alone). */
export class IngestNameInUseError extends ConfigError {
  override name = 'IngestNameInUseError';
}

export interface NameClaim {
  readonly group: string;
  /** Leaves the group at once, so the next ingest of this name starts without waiting. */
  release(): Promise<void>;
}

export interface ClaimOptions {
  prefix: string;
  name: string;
  log: Logger;
  /** How long a killed holder keeps the name (Kafka's minimum by default: 6 s). */
  sessionTimeoutMs?: number;
  pollMs?: number;
  signal?: AbortSignal;
}

/** While Kafka is away at start: as the publisher, 200 ms doubling to 5 s, never giving up. */
const CLAIM_RETRY: RetryPolicy = { initialMs: 200, maxMs: 5_000 };

/** Kafka transactional id and claim group of an ingest: one per topic prefix and ingest name. */
export const ingestIdOf = (prefix: string, name: string): string => `slotstream-ingest-${prefix}-${name}`;

const taken = (o: ClaimOptions, group: string, members: number): IngestNameInUseError =>
  new IngestNameInUseError(
    `ingest name ${JSON.stringify(o.name)} is in use on topic prefix ${JSON.stringify(o.prefix)}: another running ingest holds it ` +
      `(consumer group ${group} has ${members} member${members === 1 ? '' : 's'}). Two ingests on one prefix with one name is a configuration error ` +
      "(they would fence each other's Kafka transactions): stop the other one, or give this one another --ingest-name (and, for another chain or range, another --topic-prefix).",
  );

export async function claimIngestName(kafka: Kafka, topics: TopicNames, o: ClaimOptions): Promise<NameClaim> {
  const group = ingestIdOf(o.prefix, o.name);
  const session = o.sessionTimeoutMs ?? 6_000;
  const poll = o.pollMs ?? 250;
  const pause = (ms: number) => sleep(ms, o.signal);
  const admin = kafka.admin();
  // Kafka away at start: wait for it, as the publisher does, instead of failing the start.
  const retrying = <T>(what: string, call: () => Promise<T>): Promise<T> =>
    retry(call, {
      policy: CLAIM_RETRY,
      signal: o.signal,
      onRetry: (err, n, delay) =>
        o.log.warn(
          { group, attempt: n + 1, retryInMs: delay, err: (err as Error).message },
          `ingest: claiming the ingest name: ${what} failed; retrying`,
        ),
    });

  // The native describeGroups crashes the process (SIGSEGV, confluent-kafka-javascript#531) when the
  // group's coordinator is not ready yet, e.g. on a fresh broker; the committed-offsets lookup waits for it safely.
  await retrying('reading the group', () => admin.committedOffsets(group, [topics.deadletter]));
  // A holder that left cleanly is gone at once; a killed one lapses within a session (plus a heartbeat).
  const lapse = Date.now() + session + 3_000;
  let waited = false;
  for (;;) {
    const { members } = await retrying('describing the group', () => admin.describeGroup(group));
    if (members === 0) break;
    if (Date.now() > lapse) throw taken(o, group, members);
    if (!waited) {
      waited = true;
      o.log.info({ group, members }, `ingest: name ${o.name} is held; waiting up to ${session + 3_000} ms in case its holder just died`);
    }
    await pause(poll);
  }

  // The group reads the dead-letter topic only because membership needs a subscription: it is the
  // smallest of the prefix's topics, and nothing is committed.
  let failed: Error | undefined;
  const consumer: GroupConsumer = await kafka.groupConsumer({
    groupId: group,
    topics: [topics.deadletter],
    onBatches: async () => {},
    onError: (err) => {
      failed = err;
    },
    sessionTimeoutMs: session,
  });
  const release = () => consumer.stop();
  try {
    // Two ingests that started together both saw an empty group: the join shows both, and both refuse.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { state, members } = await admin.describeGroup(group);
      if (members > 1) throw taken(o, group, members - 1);
      if (state === 'Stable' && members === 1) break;
      if (failed) throw failed;
      if (Date.now() > deadline)
        throw new Error(`ingest: could not join consumer group ${group} to claim the ingest name (state ${state}, ${members} members)`);
      await pause(poll);
    }
  } catch (err) {
    await release().catch(() => {});
    throw err;
  }
  o.log.info({ group }, `ingest: name ${o.name} claimed on topic prefix ${o.prefix}`);
  return { group, release };
}
