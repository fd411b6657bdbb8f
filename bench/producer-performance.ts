// Kafka's own org.apache.kafka.tools.ProducerPerformance (from the local broker's jars) as the bench's
// reference producer: acks=all, idempotence, transactions, no compression, Java client defaults
// otherwise. The tool has no records-per-transaction option, only --transaction-duration-ms, so
// calibrate() first measures the rate and then sets the duration that gives the wanted transaction
// size at that rate.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureKafkaJars } from '../platform/local-kafka/launcher.js';

const execFileP = promisify(execFile);

export interface ProducerPerformanceRun {
  records: number;
  perSecond: number;
  transactionMs: number;
  /** Records per transaction at the measured rate (the tool commits when a transaction is this old). */
  recordsPerTransaction: number;
  /** The tool's own summary line. */
  line: string;
}

export interface ProducerPerformanceOptions {
  brokers: readonly string[];
  topic: string;
  transactionalId: string;
  records: number;
  recordSize: number;
  transactionMs: number;
}

export async function producerPerformance(o: ProducerPerformanceOptions): Promise<ProducerPerformanceRun> {
  const libs = await ensureKafkaJars();
  const transactionMs = Math.max(1, Math.round(o.transactionMs));
  const args = [
    '-Xmx512m',
    '-cp',
    join(libs, '*'),
    'org.apache.kafka.tools.ProducerPerformance',
    ...['--topic', o.topic, '--num-records', String(o.records), '--record-size', String(o.recordSize), '--throughput', '-1'],
    ...['--transactional-id', o.transactionalId, '--transaction-duration-ms', String(transactionMs)],
    ...['--producer-props', `bootstrap.servers=${o.brokers.join(',')}`, 'acks=all', 'enable.idempotence=true', 'compression.type=none'],
  ];
  const { stdout } = await execFileP('java', args, { maxBuffer: 64 * 1024 * 1024 });
  const line =
    stdout
      .trim()
      .split('\n')
      .filter((l) => / records sent, /.test(l))
      .at(-1) ?? '';
  const m = /^(\d+) records sent, ([\d.]+) records\/sec/.exec(line);
  if (!m) throw new Error(`ProducerPerformance printed no summary:\n${stdout.slice(-2000)}`);
  const perSecond = Number(m[2]);
  return { records: Number(m[1]), perSecond, transactionMs, recordsPerTransaction: (perSecond * transactionMs) / 1000, line };
}

/** A short run at a guessed rate, then the measured run with transactions of about `recordsPerTransaction`.
 * On a shared machine the rate can move between the two: a measured run whose transactions came out more
 * than 25% off is repeated once with the duration corrected, and the run closest to the size is kept. */
export async function calibratedProducerPerformance(
  o: Omit<ProducerPerformanceOptions, 'transactionMs'> & {
    recordsPerTransaction: number;
    guessPerSecond: number;
    calibrationRecords: number;
  },
): Promise<{ calibration: ProducerPerformanceRun; run: ProducerPerformanceRun; runs: ProducerPerformanceRun[] }> {
  const durationFor = (perSecond: number) => (o.recordsPerTransaction / perSecond) * 1000;
  const calibration = await producerPerformance({
    ...o,
    records: o.calibrationRecords,
    transactionalId: `${o.transactionalId}-calibration`,
    transactionMs: durationFor(o.guessPerSecond),
  });
  const off = (r: ProducerPerformanceRun) => Math.abs(Math.log(r.recordsPerTransaction / o.recordsPerTransaction));
  const runs = [await producerPerformance({ ...o, transactionMs: durationFor(calibration.perSecond) })];
  if (off(runs[0]!) > Math.log(1.25)) {
    runs.push(
      await producerPerformance({ ...o, transactionalId: `${o.transactionalId}-2`, transactionMs: durationFor(runs[0]!.perSecond) }),
    );
  }
  const run = runs.reduce((a, b) => (off(b) < off(a) ? b : a));
  return { calibration, run, runs };
}
