// The small simulated chain the ingest integration tests run (test/ingest.int.test.ts and its SIGKILL restart,
// test/ingest-restart.int.test.ts), and reading what the ingest published back from the broker.
import { connectKafka } from '../../../cli/infrastructure.js';
import { startIngest } from '../../../ingest/run.js';
import { ingestSection } from '../../../cli/config-sections.js';
import { makeConfig, type Config } from '../../../cli/config.js';
import type { Kafka } from '../../../platform/kafka/index.js';
import type { Logger } from '../../../platform/log.js';
import { decodeRecord, SlotStatus } from '../../../schemas/codec.js';
import { RECORD_KINDS, topicNames, type RecordKind } from '../../../schemas/topics.js';
import { capturedLog } from '../harness/captured-log.js';
import { testBrokers } from '../harness/kafka.js';
import { readTopics, type ReadRecord, type TopicContents } from '../kafka/read-topics.js';

// A small chain: ~140 records per slot (and ~70 entries) after a genesis of a few hundred startup accounts.
// Entries on (the default); dead forks above the default rate so 100 slots hold one (slot 61; 12 in 400).
export const SIM = {
  seed: 7,
  slotMs: 0,
  tps: 100,
  skipRate: 0.1,
  deadRate: 0.03,
  slotsPerEpoch: 64,
  validators: 4,
  maxSlots: 100,
  partitions: 3,
  retentionMs: 3_600_000,
};

export type Topics = Record<RecordKind, ReadRecord[][]>;

/** A slot happened once: as a block (processed), a skipped slot or a dead fork. */
export const ENDS_A_SLOT = new Set<number>([SlotStatus.SLOT_STATUS_PROCESSED, SlotStatus.SLOT_STATUS_SKIPPED, SlotStatus.SLOT_STATUS_DEAD]);

export function config(prefix: string, overrides: Partial<Omit<Config, 'role'>> = {}): Config {
  return makeConfig('ingest', { ...SIM, kafkaBrokers: testBrokers(), topicPrefix: prefix, ...overrides });
}

export async function ingestToEnd(cfg: Config, log: Logger = capturedLog().log): Promise<void> {
  const infra = await connectKafka(cfg, log);
  try {
    const h = await startIngest(ingestSection(cfg), log, infra);
    await h.done;
  } finally {
    await infra.kafka.close();
  }
}

export async function readAll(kafka: Kafka, prefix: string): Promise<Topics> {
  const names = topicNames(prefix);
  const contents = await readTopics(
    kafka,
    RECORD_KINDS.map((k) => names[k]),
  );
  return Object.fromEntries(RECORD_KINDS.map((k) => [k, contents.get(names[k])!])) as Topics;
}

/** The same contents keyed by topic name (test/support/ingest/framed-slot.ts reads that shape). */
export const toContents = (t: Topics, prefix: string): TopicContents => new Map(RECORD_KINDS.map((k) => [topicNames(prefix)[k], t[k]]));

export const count = (t: Topics): number => Object.values(t).reduce((n, parts) => n + parts.reduce((m, p) => m + p.length, 0), 0);

export function slotRecords(t: Topics) {
  return t.slots.flat().map((r) => {
    const d = decodeRecord('slots', r.value);
    if (!d.ok || d.value.kind !== 'slots') throw new Error(`undecodable slot record: ${d.ok ? d.value.kind : d.reason}`);
    return d.value.event;
  });
}
