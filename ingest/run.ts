// The ingest role: one chain source into the Kafka topics (or, with --out, into a JSON-lines file).
// Only wiring: sources, the pump, the publisher and the resume point live in their own files.
import type { IngestSection } from './options.js';
import type { Kafka } from '../platform/kafka/index.js';
import type { Logger } from '../platform/log.js';
import { ConfigError } from '../platform/options.js';
import { isStop } from '../platform/stop.js';
import type { TopicNames } from '../schemas/topics.js';
import { createFileSource, type FileSource } from './sources/file/source.js';
import { createJsonlWriter, type JsonlWriter } from './sources/file/writer.js';
import { ingestMetrics } from './metrics.js';
import { Publisher, PublisherFencedError } from './publish/publisher.js';
import { IngestNameClaim, ingestIdOf, type NameClaim } from './publish/name-claim.js';
import { pump, type PumpResult } from './publish/pump.js';
import { newestCompleteSlot, type ResumePoint } from './publish/resume-point.js';
import { sleep } from '../platform/sleep.js';
import { SlotFramer } from './publish/framer.js';
import { createRpcSourceFromConfig } from './sources/rpc/index.js';
import { createSimSource } from './sources/sim/index.js';
import { SimThread } from './sources/sim/thread.js';
import type { ChainSource } from './source.js';
import { selectVotes } from './sources/shared/votes.js';
import { createYellowstoneSourceFromConfig } from './sources/yellowstone/index.js';

export interface IngestHandle {
  /** Stops pulling from the source, publishes what is in hand, disconnects. */
  stop(): Promise<void>;
  /** Resolves when the source is exhausted (file end, --max-slots) or after stop; rejects on a fatal error. */
  done: Promise<void>;
}

/** The configured source, its votes selected (--votes): the simulator does it in its own options (it runs
 * in a worker thread of its own), the others here. */
export function createSource(section: IngestSection, log: Logger): ChainSource {
  if (section.source === 'sim') return createSimSource({ ...section.sim, votes: section.votes });
  return selectVotes(createChainSource(section, log), section.votes);
}

function createChainSource(section: IngestSection, log: Logger): ChainSource {
  switch (section.source) {
    case 'file': {
      const bad = ingestMetrics().badLines;
      const { path, strict } = section.file;
      return createFileSource(path, {
        strict,
        onBadLine: ({ line, reason }) => {
          bad.inc();
          log.warn({ input: path, line, reason }, `file source: bad line ${line} skipped: ${reason}`);
        },
      });
    }
    case 'rpc':
      return createRpcSourceFromConfig(section, log);
    case 'yellowstone':
      return createYellowstoneSourceFromConfig(section, log);
    default:
      throw new ConfigError(`unknown ingest source ${JSON.stringify(section.source)}`);
  }
}

/** What the ingest publishes to: the process's Kafka clients and topic names (cli/infrastructure.ts). */
export interface IngestKafka {
  kafka: Kafka;
  topics: TopicNames;
}

/** One transactional id per topic prefix and ingest name (ingest/publish/name-claim.ts keeps a second copy out). */
export const transactionalIdOf = (section: Pick<IngestSection, 'kafka' | 'name'>): string =>
  ingestIdOf(section.kafka.topicPrefix, section.name);

/** `section`: the config's ingest section (ingest/options.ts `INGEST_SECTION`). */
export async function startIngest(section: IngestSection, log: Logger, out?: IngestKafka): Promise<IngestHandle> {
  const source = createSource(section, log);
  for (const note of source.notes) log.info({ source: section.source }, note);
  const controller = new AbortController();
  const fileStats = (): object => ('stats' in source ? { ...(source as FileSource).stats } : {});
  let done: Promise<void>;
  if (section.out !== '') {
    // Fixture mode: no Kafka, the whole source goes to the file (resume does not apply).
    done = writeToFile(section.out, createJsonlWriter(section.out), source, controller.signal, log, fileStats);
  } else {
    if (!out) throw new ConfigError('ingest: no Kafka to publish to (and no --out file)');
    done = publishTerms(section, log, out, source, controller.signal, fileStats);
  }
  return {
    done,
    async stop() {
      controller.abort();
      await done.catch(() => {});
    },
  };
}

async function writeToFile(
  path: string,
  writer: JsonlWriter,
  source: ChainSource,
  signal: AbortSignal,
  log: Logger,
  fileStats: () => object,
): Promise<void> {
  let batches = 0;
  try {
    for await (const batch of source.batches({ signal })) {
      await writer.write(batch);
      batches++;
      if (signal.aborted) break;
    }
  } finally {
    await writer.close();
  }
  log.info({ out: path, batches, lines: writer.lines, ...fileStats() }, 'ingest: written');
}

/** Active while this copy holds the name; fenced by a copy that took over, it stands by again (name-claim.ts). */
async function publishTerms(
  section: IngestSection,
  log: Logger,
  kafka: IngestKafka,
  source: ChainSource,
  signal: AbortSignal,
  fileStats: () => object,
): Promise<void> {
  const metrics = ingestMetrics();
  for (let first = true; ; first = false) {
    metrics.active.set(0);
    const sim = prepareSim(section, log);
    const following = sim && followActive(sim, kafka, signal);
    const claim = await claimName(section, log, kafka, signal)
      .catch(async (err: unknown) => {
        await sim?.close();
        throw err;
      })
      .finally(() => following?.stop());
    // (A scan under way ends on its own, within its timeout; the takeover does not wait for it.)
    if (claim === undefined) {
      await sim?.close();
      return;
    }
    metrics.active.set(1);
    // A term's source after the first: a fresh one, resuming where Kafka says.
    const termSource = first ? source : createSource(section, log);
    const fenced = await termUntilFenced(section, log, kafka, { source: termSource, sim }, signal, claim, fileStats);
    if (signal.aborted || (!fenced && !claim.lost)) {
      await claim.release({ free: true });
      return;
    }
    // Fenced, or the heartbeat says another copy took over: that one publishes now; this one stands by.
    await claim.release({ free: false });
    log.warn('ingest: another copy of this ingest is active now; standing by');
  }
}

/**
 * The simulator's worker thread, started before the claim so that its module loading and chain warm-up (seconds on a
 * busy machine) overlap the wait as a standby (or, for the first copy, the claim and the producer's opening) instead
 * of following a takeover. It holds no Kafka client, publishes nothing and only idles until the term tells it where to
 * resume (the resume point, read once this copy is active); a copy stopped while standing by closes it. The other
 * sources keep nothing open while standing by: they connect and subscribe when the term starts (docs/decisions.md).
 */
function prepareSim(section: IngestSection, log: Logger): SimThread | undefined {
  if (section.source !== 'sim') return undefined;
  const sim = SimThread.start({ ...section.sim, votes: section.votes });
  void sim.ready.then(() => log.info('ingest: simulator thread ready (modules loaded, chain built); it starts at the resume point'));
  return sim;
}

/** How often a standby's simulator reads the newest whole slot in Kafka to fast-forward to it. */
const FOLLOW_MS = 1_000;

/**
 * While this copy waits for the name: fast-forwards `sim`'s chain through the newest slot whose end marker Kafka
 * holds in committed records (a read-only scan of the slots topic, newestCompleteSlot), so that a takeover only
 * builds the few slots between that and its resume point, which can never be before it. A failed or slow read is
 * skipped (this only saves time). `stop` ends it (the claim is in: the resume point is read next).
 */
function followActive(sim: SimThread, { kafka, topics }: IngestKafka, signal: AbortSignal): { stop(): void } {
  const stop = new AbortController();
  const stopped = AbortSignal.any([signal, stop.signal]);
  void (async () => {
    while (!stopped.aborted) {
      const slot = await newestCompleteSlot(kafka, topics, { timeoutMs: 3_000 }).catch(() => undefined);
      if (slot !== undefined && !stopped.aborted) sim.advance(slot);
      await sleep(FOLLOW_MS, stopped).catch(() => undefined);
    }
  })();
  return { stop: () => stop.abort() };
}

/** The ingest name, once this copy holds it (standing by while another copy does); undefined: stopped first. */
async function claimName(section: IngestSection, log: Logger, out: IngestKafka, signal: AbortSignal): Promise<NameClaim | undefined> {
  let stood = false;
  let claim: NameClaim;
  try {
    claim = await IngestNameClaim.open(out.kafka, out.topics, {
      prefix: section.kafka.topicPrefix,
      name: section.name,
      log,
      signal,
      onStandby: () => (stood = true),
    });
  } catch (err) {
    if (isStop(err)) return undefined;
    throw err;
  }
  if (stood) ingestMetrics().takeovers.inc();
  return claim;
}

/** One term; true when another copy fenced this one. Any other failure frees the name and rejects. */
async function termUntilFenced(
  section: IngestSection,
  log: Logger,
  kafka: IngestKafka,
  source: TermSource,
  signal: AbortSignal,
  claim: NameClaim,
  fileStats: () => object,
): Promise<boolean> {
  try {
    await publishTerm(section, log, kafka, source, signal, claim, fileStats);
    return false;
  } catch (err) {
    if (!(err instanceof PublisherFencedError) || signal.aborted) {
      await claim.release({ free: true });
      throw err;
    }
    log.warn({ err: err.message }, 'ingest: fenced by another copy of this ingest that took over');
    return true;
  } finally {
    ingestMetrics().active.set(0);
  }
}

/** One term as the active copy: opens the publisher (fencing any older copy), resumes after what Kafka
 * holds and publishes until the source ends or a stop. Rejects with PublisherFencedError when another copy
 * took over. */
async function publishTerm(
  section: IngestSection,
  log: Logger,
  { kafka, topics }: IngestKafka,
  source: TermSource,
  signal: AbortSignal,
  claim: NameClaim,
  fileStats: () => object,
): Promise<void> {
  // The term ends with a stop, or when the heartbeat shows another copy took over (its producer has fenced
  // ours: nothing of ours commits any more, and the source stops at once instead of at the next commit).
  // AbortSignal.any, not a listener: a stop that came while the name was being claimed has aborted `signal` already,
  // and a listener added then never fires (the term published until the primary's kill, 20 s later).
  const lost = new AbortController();
  const termSignal = AbortSignal.any([signal, lost.signal]);
  const watch = setInterval(() => void (claim.lost && lost.abort()), 100);
  const publisher = new Publisher({
    kafka,
    topics,
    transactionalId: transactionalIdOf(section),
    log,
    signal: termSignal,
    stillActive: () => claim.stillHeld(),
  });
  try {
    let resume;
    try {
      resume = await publisher.open();
    } catch (err) {
      if (isStop(err)) return;
      throw err;
    }
    logResume(log, section, resume);
    try {
      const r = await publishFrom(source, publisher, topics, resume.afterSlot, termSignal);
      log.info(
        { batches: r.batches, events: r.events, lastSlot: publisher.lastSlot?.toString() ?? null, ...fileStats() },
        'ingest: source finished',
      );
    } catch (err) {
      if (!isStop(err)) throw err;
      if (signal.aborted)
        log.warn(
          { lastSlot: publisher.lastSlot?.toString() ?? null },
          'ingest: stopped while Kafka was unreachable; the unpublished slots follow on the next start',
        );
    }
  } finally {
    clearInterval(watch);
    lost.abort();
    await source.sim?.close();
    await publisher.close();
  }
}

function logResume(log: Logger, section: IngestSection, { afterSlot, openSlot, held }: ResumePoint): void {
  log.info(
    {
      afterSlot: afterSlot?.toString() ?? null,
      openSlot: openSlot?.toString() ?? null,
      alreadyInKafka: held.size,
      topicPrefix: section.kafka.topicPrefix,
    },
    afterSlot === undefined && held.size === 0
      ? 'ingest: topics empty, starting from genesis'
      : `ingest: resuming after slot ${afterSlot ?? 'none'}, the newest one Kafka holds whole` +
          (held.size > 0 ? `; ${held.size} records published after it are skipped by identity` : ''),
  );
}

/** What a term reads: the source, and for the simulator its worker thread started ahead (prepareSim). */
interface TermSource {
  source: ChainSource;
  sim: SimThread | undefined;
}

/** The simulator builds and frames its slots in a worker thread (sim/thread.ts); other sources are
 * I/O-bound and are framed here. */
function publishFrom(
  { source, sim }: TermSource,
  publisher: Publisher,
  topics: TopicNames,
  afterSlot: bigint | undefined,
  signal: AbortSignal,
): Promise<PumpResult> {
  if (sim) {
    return pump(sim.batches({ afterSlot, partitions: publisher.partitionCounts, topics, signal }), (b) => b.records, publisher, { signal });
  }
  const framer = new SlotFramer(publisher.partitionCounts, topics);
  return pump(source.batches({ afterSlot, signal }), (batch) => framer.frame(batch), publisher, { signal });
}
