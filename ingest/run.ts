// The ingest role: one chain source into the Kafka topics (or, with --out, into a JSON-lines file).
// Only wiring: sources, the pump, the publisher and the resume point live in their own files.
import type { IngestSection } from '../platform/config-sections.js';
import type { Kafka } from '../platform/kafka/index.js';
import type { Logger } from '../platform/log.js';
import { isStop } from '../platform/stop.js';
import type { TopicNames } from '../schemas/topics.js';
import { createFileSource, type FileSource } from './sources/file/source.js';
import { createJsonlWriter } from './sources/file/writer.js';
import { ingestMetrics } from './metrics.js';
import { Publisher, PublisherFencedError } from './publish/publisher.js';
import { claimIngestName, ingestIdOf, type NameClaim } from './publish/name-claim.js';
import { pump, type PumpResult } from './publish/pump.js';
import { SlotFramer } from './publish/framer.js';
import { createRpcSourceFromConfig } from './sources/rpc/index.js';
import { createSimSource } from './sources/sim/index.js';
import { SimOptionError, type SimOptions } from './sources/sim/options.js';
import { parsePumpMix, PumpMixError } from './sources/sim/pump-mix.js';
import { simFramedBatches } from './sources/sim/thread.js';
import type { ChainSource } from './source.js';
import { selectVotes } from './sources/shared/votes.js';
import { createYellowstoneSourceFromConfig } from './sources/yellowstone/index.js';

export class IngestConfigError extends Error {
  override name = 'IngestConfigError';
}

export interface IngestHandle {
  /** Stops pulling from the source, publishes what is in hand, disconnects. */
  stop(): Promise<void>;
  /** Resolves when the source is exhausted (file end, --max-slots) or after stop; rejects on a fatal error. */
  done: Promise<void>;
}

/** The configured source, its votes selected (--votes): the simulator does it in its own options (it runs
 * in a worker thread of its own), the others here. */
export function createSource(section: IngestSection, log: Logger): ChainSource {
  if (section.source === 'sim') return createSimSource(simOptionsOf(section));
  return selectVotes(createChainSource(section, log), section.votes);
}

/** The simulator's options from the config: --sim-pump-mix parsed (a bad one fails naming the option). */
function simOptionsOf(section: IngestSection): SimOptions {
  let pumpMix;
  try {
    pumpMix = parsePumpMix(section.sim.pumpMix);
  } catch (e) {
    if (e instanceof PumpMixError) throw new SimOptionError(`--sim-pump-mix / SIM_PUMP_MIX: ${e.message}`);
    throw e;
  }
  return { ...section.sim, pumpMix, votes: section.votes };
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
      throw new IngestConfigError(`unknown ingest source ${JSON.stringify(section.source)}`);
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

/** `section`: the config's ingest section (platform/config-sections.ts `ingestSection`). */
export async function startIngest(section: IngestSection, log: Logger, out?: IngestKafka): Promise<IngestHandle> {
  const source = createSource(section, log);
  for (const note of source.notes) log.info({ source: section.source }, note);
  const controller = new AbortController();
  const signal = controller.signal;
  let first = true;
  const fileStats = (): object => ('stats' in source ? { ...(source as FileSource).stats } : {});

  let done: Promise<void>;
  if (section.out !== '') {
    // Fixture mode: no Kafka, the whole source goes to the file (resume does not apply).
    const writer = createJsonlWriter(section.out);
    done = (async () => {
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
      log.info({ out: section.out, batches, lines: writer.lines, ...fileStats() }, 'ingest: written');
    })();
  } else {
    if (!out) throw new IngestConfigError('ingest: no Kafka to publish to (and no --out file)');
    const kafka = out;
    // Active while this copy holds the name; fenced by a copy that took over, it stands by again (name-claim.ts).
    done = (async () => {
      const metrics = ingestMetrics();
      for (;;) {
        let stood = false;
        metrics.active.set(0);
        let claim: NameClaim;
        try {
          claim = await claimIngestName(kafka.kafka, kafka.topics, {
            prefix: section.kafka.topicPrefix,
            name: section.name,
            log,
            signal,
            onStandby: () => (stood = true),
          });
        } catch (err) {
          if (isStop(err)) return;
          throw err;
        }
        if (stood) metrics.takeovers.inc();
        metrics.active.set(1);
        // A term's source after the first: a fresh one, resuming where Kafka says.
        const termSource = first ? source : createSource(section, log);
        first = false;
        let fenced = false;
        try {
          await publishTerm(section, log, kafka, termSource, signal, claim, fileStats);
        } catch (err) {
          if (!(err instanceof PublisherFencedError) || signal.aborted) {
            await claim.release({ free: true });
            throw err;
          }
          fenced = true;
          log.warn({ err: err.message }, 'ingest: fenced by another copy of this ingest that took over');
        } finally {
          metrics.active.set(0);
        }
        if (signal.aborted || (!fenced && !claim.lost)) {
          await claim.release({ free: true });
          return;
        }
        // Fenced, or the heartbeat says another copy took over: that one publishes now; this one stands by.
        await claim.release({ free: false });
        log.warn('ingest: another copy of this ingest is active now; standing by');
      }
    })();
  }
  return {
    done,
    async stop() {
      controller.abort();
      await done.catch(() => {});
    },
  };
}

/** One term as the active copy: opens the publisher (fencing any older copy), resumes after what Kafka
 * holds and publishes until the source ends or a stop. Rejects with PublisherFencedError when another copy
 * took over. */
async function publishTerm(
  section: IngestSection,
  log: Logger,
  { kafka, topics }: IngestKafka,
  source: ChainSource,
  signal: AbortSignal,
  claim: NameClaim,
  fileStats: () => object,
): Promise<void> {
  // The term ends with a stop, or when the heartbeat shows another copy took over (its producer has fenced
  // ours: nothing of ours commits any more, and the source stops at once instead of at the next commit).
  const term = new AbortController();
  const onStop = (): void => term.abort();
  signal.addEventListener('abort', onStop, { once: true });
  const watch = setInterval(() => void (claim.lost && term.abort()), 100);
  const publisher = new Publisher({
    kafka,
    topics,
    transactionalId: transactionalIdOf(section),
    log,
    signal: term.signal,
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
    const { afterSlot, openSlot, held } = resume;
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
    // The simulator builds and frames its slots in a worker thread (sim/thread.ts); other sources are
    // I/O-bound and are framed here.
    const publish = (): Promise<PumpResult> => {
      if (section.source === 'sim') {
        return pump(
          simFramedBatches({
            sim: simOptionsOf(section),
            afterSlot,
            partitions: publisher.partitionCounts,
            topics,
            signal: term.signal,
          }),
          (b) => b.records,
          publisher,
          { signal: term.signal },
        );
      }
      const framer = new SlotFramer(publisher.partitionCounts, topics);
      return pump(source.batches({ afterSlot, signal: term.signal }), (batch) => framer.frame(batch), publisher, { signal: term.signal });
    };
    try {
      const r = await publish();
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
    term.abort();
    signal.removeEventListener('abort', onStop);
    await publisher.close();
  }
}
