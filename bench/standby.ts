// npm run bench:standby — how long a standby ingest takes to replace a SIGKILLed active one (issue 36, item 3: "takes
// over within 5 s"). The ingest role in child processes (test/support/ingest/ingest-process.ts), the simulator paced
// at 100 ms slots and BENCH_TPS (default 100) transactions a second, one broker (BENCH_KAFKA_BROKERS or a local one).
// An active and a standby of one name; BENCH_ROUNDS (default 5) times: the active is SIGKILLed once it has published
// for a while, and from the kill the bench times (1) the standby's claim (its log line's own time), (2) its resume
// point (producer opened, zombie fenced, resume scan done: its log line) and (3) the first slot past the killed one's
// last committed slot seen in Kafka (polled every 20 ms); then a fresh standby joins. The behaviour (nothing lost,
// nothing twice) is test/ingest-standby.int.test.ts's; this measures the clock only.
// Last line: standby rounds=<n> claim_p50_ms=<a> claim_max_ms=<b> resume_p50_ms=<c> resume_max_ms=<d>
//   first_slot_p50_ms=<e> first_slot_max_ms=<f> target_ms=5000
import { cpus, loadavg, totalmem } from 'node:os';
import { makeConfig } from '../cli/config.js';
import { createKafka } from '../platform/kafka/index.js';
import { sleep } from '../platform/sleep.js';
import { topicNames } from '../schemas/topics.js';
import { spawnIngest, type IngestProcess } from '../test/support/ingest/ingest-process.js';
import { lastPublishedSlot } from '../test/support/ingest/last-published-slot.js';
import { benchBrokers } from './support/brokers.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TPS = Number(process.env.BENCH_TPS ?? 100);
const say = (m: string): void => void process.stderr.write(`[bench:standby] ${m}\n`);
const CLAIMED = 'claimed on topic prefix';
const STANDING_BY = 'standing by to take over';
const RESUMED = 'resuming after slot';

/** Polls `f` every `ms` until it returns a value other than undefined/false; fails after `timeoutMs`. */
async function until<T>(
  what: string,
  f: () => Promise<T | undefined | false> | T | undefined | false,
  ms = 20,
  timeoutMs = 120_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(ms);
  }
}

/** The epoch-ms time of the newest log line of `p` that holds `part` and comes after its newest `after` line. */
function loggedAt(p: IngestProcess, part: string, after?: string): number | undefined {
  const log = p.stderr();
  const i = log.lastIndexOf(part);
  if (i < 0 || (after !== undefined && i < log.lastIndexOf(after))) return undefined;
  const end = log.indexOf('\n', i);
  if (end < 0) return undefined;
  return (JSON.parse(log.slice(log.lastIndexOf('\n', i) + 1, end)) as { time: number }).time;
}

const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function main(): Promise<void> {
  const { brokers, local } = await benchBrokers(say);
  const prefix = `bench.standby.${Date.now().toString(36)}`;
  const names = topicNames(prefix);
  const kafka = createKafka({ brokers, clientId: 'bench-standby' });
  const cfg = makeConfig('ingest', {
    kafkaBrokers: brokers,
    topicPrefix: prefix,
    partitions: 3,
    retentionMs: 3_600_000,
    seed: 7,
    slotMs: 100,
    tps: TPS,
    maxSlots: 1_000_000,
    fast: true,
  });
  const procs: IngestProcess[] = [];
  const spawn = (): IngestProcess => {
    const p = spawnIngest(cfg);
    procs.push(p);
    return p;
  };
  const last = async (): Promise<bigint> => (await lastPublishedSlot(kafka, names)) ?? -1n;
  const rows: { claim: number; resume: number; firstSlot: number }[] = [];
  try {
    say(
      `machine at start: load avg ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    // The topics as the ingest makes them, made first so that the bench can watch them from the start.
    await kafka.admin().ensureTopics(names, { partitions: cfg.partitions, retentionMs: cfg.retentionMs, replicationFactor: 1 });
    let active = spawn();
    await until('the first ingest publishing', async () => (await last()) >= 20n, 100);
    for (let round = 0; round < ROUNDS; round++) {
      const standby = spawn();
      await until('the standby standing by', () => loggedAt(standby, STANDING_BY) !== undefined, 50);
      const at = await last();
      await until('the active publishing on', async () => (await last()) >= at + 20n, 100);
      const t0 = Date.now();
      await active.kill();
      const before = await last();
      const seenAt = await until('a new slot', async () => ((await last()) > before ? Date.now() : undefined));
      const claim = await until('the claim', () => loggedAt(standby, CLAIMED));
      const resume = await until('the resume point', () => loggedAt(standby, RESUMED, CLAIMED));
      rows.push({ claim: claim - t0, resume: resume - t0, firstSlot: seenAt - t0 });
      say(
        `round ${round + 1}: from the SIGKILL to the claim ${claim - t0} ms, the resume point ${resume - t0} ms, the first new slot ${seenAt - t0} ms; load avg ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
      );
      // BENCH_VERBOSE=1: the new active's log lines since its claim, with their times from the kill.
      if (process.env.BENCH_VERBOSE === '1') {
        const log = standby.stderr();
        for (const l of log
          .slice(log.lastIndexOf('\n', log.lastIndexOf(CLAIMED)) + 1)
          .split('\n')
          .filter(Boolean)) {
          const j = JSON.parse(l) as { time: number; msg: string };
          say(`  +${j.time - t0} ms ${j.msg}`);
        }
      }
      active = standby;
    }
  } finally {
    for (const p of procs) await p.kill();
    await kafka.close();
    await local?.stop();
  }
  say(
    `machine at end: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load avg ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const col = (k: keyof (typeof rows)[number]): number[] => rows.map((r) => r[k]);
  console.log(
    `standby rounds=${rows.length} claim_p50_ms=${pct(col('claim'), 50)} claim_max_ms=${Math.max(...col('claim'))} ` +
      `resume_p50_ms=${pct(col('resume'), 50)} resume_max_ms=${Math.max(...col('resume'))} ` +
      `first_slot_p50_ms=${pct(col('firstSlot'), 50)} first_slot_max_ms=${Math.max(...col('firstSlot'))} target_ms=5000`,
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
