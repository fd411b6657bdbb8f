// Ingest against the real broker of the test run: the simulator into Kafka and back, determinism,
// restart after SIGKILL without gap or duplicate, and the file source (round trip and bad lines).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadLineError } from '../ingest/sources/file/source.js';
import { startIngest } from '../ingest/run.js';
import { deriveKeypair } from '../ingest/sources/sim/keys.js';
import { chiSquare, CRITICAL_49_DF, lamportTotals, mintBalances, verifyEd25519 } from './support/sim/checks.js';
import { validatorStakes } from '../ingest/sources/sim/validators.js';
import { encodeMessage } from '../schemas/wire.js';
import { flagOf, makeConfig, type Config } from '../platform/config.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { connectKafka } from '../cli/infrastructure.js';
import type { Logger } from '../platform/log.js';
import { decodeRecord, encodeRecord, SlotStatus, type AccountEvent, type TransactionEvent } from '../schemas/codec.js';
import { TOPIC_KINDS, topicNames, type TopicKind } from '../schemas/topics.js';
import { testBrokers, uniquePrefix } from './support/harness/kafka.js';
import { waitForSlotRecords } from './support/ingest/wait-published.js';
import { firstDifference, readTopics, type ReadRecord, type TopicContents } from './support/kafka/read-topics.js';
import { checkMarkers } from './support/ingest/framed-slot.js';
import { resumePoint } from '../ingest/publish/resume-point.js';
import { ingestSection } from '../platform/config-sections.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');
const CHILD = join(ROOT, 'test', 'support', 'ingest', 'child.ts');

// A small chain: ~140 records per slot (and ~70 entries) after a genesis of a few hundred startup accounts.
// Entries on (the default); dead forks above the default rate so 100 slots hold one (slot 61; 12 in 400).
const SIM = {
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

/** Every topic the ingest writes records to: the projector's and the entries topic (the dead-letter topic stays empty). */
const INGEST_KINDS = [...TOPIC_KINDS, 'entries'] as Exclude<TopicKind, 'deadletter'>[];

type Topics = Record<Exclude<TopicKind, 'deadletter'>, ReadRecord[][]>;

/** A slot happened once: as a block (processed), a skipped slot or a dead fork. */
const ENDS_A_SLOT = new Set<number>([SlotStatus.SLOT_STATUS_PROCESSED, SlotStatus.SLOT_STATUS_SKIPPED, SlotStatus.SLOT_STATUS_DEAD]);

interface CapturedLog {
  log: Logger;
  entries: Record<string, unknown>[];
}

function captureLog(): CapturedLog {
  const entries: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString().split('\n')) if (line) entries.push(JSON.parse(line) as Record<string, unknown>);
      cb();
    },
  });
  return { log: pino({ level: 'info' }, sink), entries };
}

function config(prefix: string, overrides: Partial<Omit<Config, 'role'>> = {}): Config {
  return makeConfig('ingest', { ...SIM, kafkaBrokers: testBrokers(), topicPrefix: prefix, ...overrides });
}

async function ingestToEnd(cfg: Config, log: Logger = captureLog().log): Promise<void> {
  const infra = await connectKafka(cfg, log);
  try {
    const h = await startIngest(ingestSection(cfg), log, infra);
    await h.done;
  } finally {
    await infra.kafka.close();
  }
}

async function readAll(kafka: Kafka, prefix: string): Promise<Topics> {
  const names = topicNames(prefix);
  const contents = await readTopics(
    kafka,
    INGEST_KINDS.map((k) => names[k]),
  );
  return Object.fromEntries(INGEST_KINDS.map((k) => [k, contents.get(names[k])!])) as Topics;
}

/** The same contents keyed by topic name (test/support/ingest/framed-slot.ts reads that shape). */
const toContents = (t: Topics, prefix: string): TopicContents => new Map(INGEST_KINDS.map((k) => [topicNames(prefix)[k], t[k]]));

const count = (t: Topics): number => Object.values(t).reduce((n, parts) => n + parts.reduce((m, p) => m + p.length, 0), 0);

function slotRecords(t: Topics) {
  return t.slots.flat().map((r) => {
    const d = decodeRecord('slots', r.value);
    if (!d.ok || d.value.kind !== 'slots') throw new Error(`undecodable slot record: ${d.ok ? d.value.kind : d.reason}`);
    return d.value.event;
  });
}

let kafka: Kafka;
let reference: Topics;
let refPrefix: string;
let tmp: string;

beforeAll(async () => {
  kafka = createKafka({ brokers: testBrokers(), clientId: 'ingest-int-test' });
  tmp = await mkdtemp(join(tmpdir(), 'slotstream-ingest-'));
  // The uninterrupted reference run every other test compares with.
  refPrefix = uniquePrefix('ingest-ref');
  await ingestToEnd(config(refPrefix));
  reference = await readAll(kafka, refPrefix);
});

// Children still running when a test fails or times out are ended here, not left behind.
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await kafka?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('sim into Kafka', () => {
  it('publishes records that all decode, with keys per ARCHITECTURE.md, and every slot once', () => {
    expect(count(reference)).toBeGreaterThanOrEqual(10_000);
    for (const kind of INGEST_KINDS) {
      expect(reference[kind].flat().length, kind).toBeGreaterThan(0);
      for (const r of reference[kind].flat()) {
        const d = decodeRecord(kind, r.value);
        expect(d.ok, `${kind} record at offset ${r.offset}`).toBe(true);
        if (d.ok) expect(encodeRecord(d.value).key.equals(r.key)).toBe(true);
      }
    }
    const happened = slotRecords(reference)
      .filter((s) => ENDS_A_SLOT.has(s.status))
      .map((s) => Number(s.slot))
      .sort((a, b) => a - b);
    expect(happened).toEqual(Array.from({ length: SIM.maxSlots }, (_, i) => i));
    expect(slotRecords(reference).some((s) => s.status === SlotStatus.SLOT_STATUS_DEAD)).toBe(true);
    // Slot framing: each slot ends with one marker (its PROCESSED, SKIPPED or DEAD record), whose
    // counts are the slot's records on each partition.
    const markers = slotRecords(reference).filter((s) => s.end !== undefined);
    expect(markers.map((s) => Number(s.slot)).sort((a, b) => a - b)).toEqual(happened);
    expect(checkMarkers(toContents(reference, refPrefix), topicNames(refPrefix), ['transactions', 'accounts', 'slots', 'entries'])).toEqual(
      { markers: SIM.maxSlots, wrong: [], late: [] },
    );
  });

  it('gives byte-identical records for the same seed (>= 10,000 records)', async () => {
    const prefix = uniquePrefix('ingest-again');
    await ingestToEnd(config(prefix));
    const again = await readAll(kafka, prefix);
    expect(count(again)).toBe(count(reference));
    expect(firstDifference(again, reference)).toBeUndefined();
  });
});

describe('the chain in Kafka (signed run, read back from the broker)', () => {
  let decoded: { txs: TransactionEvent[]; writes: AccountEvent[] } | undefined;
  /** The reference run's transactions and account writes, decoded once. */
  function events() {
    if (decoded) return decoded;
    const txs: TransactionEvent[] = [];
    const writes: AccountEvent[] = [];
    // Per partition in offset order; a pubkey's writes share a partition (keyed by pubkey), so the
    // latest state per pubkey is still the last write read.
    for (const r of reference.transactions.flat()) {
      const d = decodeRecord('transactions', r.value);
      if (d.ok && d.value.kind === 'transactions') txs.push(d.value.event);
    }
    for (const r of reference.accounts.flat()) {
      const d = decodeRecord('accounts', r.value);
      if (d.ok && d.value.kind === 'accounts') writes.push(d.value.event);
    }
    return (decoded = { txs, writes });
  }

  it('every transaction signature verifies against its message', () => {
    const { txs } = events();
    expect(txs.length).toBeGreaterThan(1_000);
    for (const t of txs) {
      const msg = encodeMessage(t);
      expect(t.signatures.length).toBe(t.numRequiredSignatures);
      t.signatures.forEach((sig, i) =>
        expect(verifyEd25519(msg, sig, t.accountKeys[i]!), `signature ${i} of a transaction in slot ${t.slot}`).toBe(true),
      );
    }
  });

  it('lamports are conserved apart from fees, and token balances add up to each mint supply', () => {
    const { txs, writes } = events();
    const { genesis, end, burned } = lamportTotals(txs, writes);
    expect(burned).toBeGreaterThan(0n);
    expect(end).toBe(genesis - burned);
    const mints = mintBalances(writes);
    expect(mints.size).toBeGreaterThan(2);
    for (const [mint, m] of mints) expect({ mint, held: m.held }).toEqual({ mint, held: m.supply });
  });

  it('the published leader schedule of a 432,000-slot epoch follows stake (chi-square, 49 df, p > 0.001)', async () => {
    const prefix = uniquePrefix('ingest-schedule');
    await ingestToEnd(config(prefix, { slotsPerEpoch: 432_000, validators: 50, maxSlots: 2, tps: 10, fast: true }));
    const epochs = (await readAll(kafka, prefix)).epochs.flat().map((r) => {
      const d = decodeRecord('epochs', r.value);
      if (!d.ok || d.value.kind !== 'epochs') throw new Error('undecodable epoch record');
      return d.value.event;
    });
    const first = epochs.find((e) => e.epoch === 0n)!;
    expect(first.schedule.length).toBe(108_000);
    // The validators' stakes are the simulator's own (not on chain); map each published identity to its stake.
    const stakes = validatorStakes(SIM.seed, 50);
    const indexOf = new Map(stakes.map((_, i) => [Buffer.from(deriveKeypair(SIM.seed, 'identity', i).publicKey).toString('hex'), i]));
    const schedule = first.schedule.map((k) => indexOf.get(first.identities[k]!.toString('hex'))!);
    expect(schedule.every((v) => v !== undefined)).toBe(true);
    expect(chiSquare(schedule, stakes)).toBeLessThan(CRITICAL_49_DF);
    expect(
      chiSquare(
        schedule,
        stakes.map(() => 1),
      ),
    ).toBeGreaterThan(CRITICAL_49_DF * 10);
  });
});

describe('restart', () => {
  function child(prefix: string, slotMs = 40): { proc: ChildProcess; exited: Promise<number | null>; stderr: () => string } {
    // Paced at 40 ms a slot (pacing changes no record), so a kill lands mid-run and, as each slot comes
    // in eight pieces across its 40 ms (ingest/sources/sim/spread.ts) and spans several Kafka transactions,
    // usually mid-slot: unpaced, the whole chain is in Kafka about two seconds after the start.
    const cfg = config(prefix, { maxSlots: 400, tps: 100, slotMs });
    const args: string[] = [];
    for (const name of [
      'kafkaBrokers',
      'topicPrefix',
      'seed',
      'slotMs',
      'tps',
      'skipRate',
      'slotsPerEpoch',
      'validators',
      'maxSlots',
      'simEntries',
      'deadRate',
      'partitions',
      'retentionMs',
    ] as const) {
      const v = cfg[name];
      args.push(flagOf(name), Array.isArray(v) ? v.join(',') : String(v));
    }
    args.push('--fast');
    let err = '';
    const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(proc);
    proc.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-20_000)));
    const exited = new Promise<number | null>((res) => proc.once('exit', (code) => res(code)));
    return { proc, exited, stderr: () => err };
  }

  it('continues after SIGKILL mid-slot, skipping by identity, with no gap, no duplicate and the same records as an uninterrupted run', async () => {
    const prefix = uniquePrefix('ingest-restart');
    const ref400 = uniquePrefix('ingest-ref400');
    await ingestToEnd(config(ref400, { maxSlots: 400, fast: true }));
    const expected = await readAll(kafka, ref400);
    const names = topicNames(prefix);

    // Kill until a kill has cut a slot (its first records in Kafka, its marker not): a few tries at most,
    // each one more restart to resume from.
    let cutSlot: bigint | undefined;
    let records = 150;
    for (let attempt = 0; attempt < 6 && cutSlot === undefined; attempt++, records += 60) {
      const run = child(prefix);
      await waitForSlotRecords(kafka, prefix, run, records, `the ingest to publish ${records} slot records`);
      expect(run.proc.kill('SIGKILL')).toBe(true);
      expect(await run.exited).toBeNull();
      const point = await resumePoint(kafka, names);
      if (point.openSlot !== undefined) {
        cutSlot = point.openSlot;
        expect(point.held.size).toBeGreaterThan(0);
      }
    }
    expect(cutSlot, 'no kill landed mid-slot in 6 tries').toBeDefined();
    const partial = slotRecords(await readAll(kafka, prefix));
    expect(Math.max(...partial.map((s) => Number(s.slot)))).toBeLessThan(399);

    // The last run only has to finish the chain: unpaced (pacing changes no record, see above).
    const last = child(prefix, 0);
    const code = await last.exited;
    expect(code, last.stderr()).toBe(0);
    expect(last.stderr()).toMatch(
      /resuming after slot \d+, the newest one Kafka holds whole; \d+ records published after it are skipped by identity/,
    );

    const got = await readAll(kafka, prefix);
    const happened = slotRecords(got).filter((s) => s.end !== undefined);
    const slots = happened.map((s) => Number(s.slot)).sort((a, b) => a - b);
    expect(new Set(slots).size).toBe(slots.length);
    expect(slots).toEqual(Array.from({ length: 400 }, (_, i) => i));
    expect(firstDifference(got, expected)).toBeUndefined();
    expect(checkMarkers(toContents(got, prefix), names, ['transactions', 'accounts', 'slots', 'entries'])).toEqual({
      markers: 400,
      wrong: [],
      late: [],
    });
  });
});

describe('file source', () => {
  let file: string;
  let lines: string[];

  beforeAll(async () => {
    file = join(tmp, 'sim.jsonl');
    await ingestToEnd(config('unused', { out: file }));
    lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l.length > 0);
  });

  it('round-trips the simulator output: sim --out file, file source into Kafka, same records', async () => {
    expect(lines.length).toBe(count(reference));
    const prefix = uniquePrefix('ingest-file');
    const { log, entries } = captureLog();
    await ingestToEnd(config(prefix, { source: 'file', sourcePath: file }), log);
    expect(firstDifference(await readAll(kafka, prefix), reference)).toBeUndefined();
    const end = entries.find((e) => e.msg === 'ingest: source finished');
    expect(end).toMatchObject({ lines: lines.length, events: lines.length, badLines: 0 });
  });

  it('reports bad lines with their number and reason, skips them, counts them, and publishes the rest', async () => {
    const bad = [...lines];
    // 1-based line numbers in the new file: 4 and 11 bad, 8 blank (not bad).
    bad.splice(3, 0, '{"type":"slot",');
    bad.splice(7, 0, '');
    bad.splice(10, 0, JSON.stringify({ type: 'slot', slot: -1, status: 'processed' }));
    const path = join(tmp, 'bad.jsonl');
    await writeFile(path, bad.join('\n') + '\n');
    const prefix = uniquePrefix('ingest-bad');
    const { log, entries } = captureLog();
    await ingestToEnd(config(prefix, { source: 'file', sourcePath: path }), log);
    const reported = entries
      .filter((e) => typeof e.msg === 'string' && e.msg.startsWith('file source: bad line'))
      .map((e) => [e.line, e.reason]);
    expect(reported).toEqual([
      [4, expect.stringMatching(/^not JSON: /)],
      [11, 'field slot: an unsigned 64-bit integer: -1 is out of range'],
    ]);
    expect(entries.find((e) => e.msg === 'ingest: source finished')).toMatchObject({ badLines: 2, events: lines.length });
    expect(firstDifference(await readAll(kafka, prefix), reference)).toBeUndefined();
  });

  it('--strict stops at the first bad line, naming it', async () => {
    const bad = [...lines];
    bad.splice(3, 0, '{"type":"slot",');
    bad.splice(10, 0, JSON.stringify({ type: 'slot', slot: -1, status: 'processed' }));
    const path = join(tmp, 'strict.jsonl');
    await writeFile(path, bad.join('\n') + '\n');
    const prefix = uniquePrefix('ingest-strict');
    const { log, entries } = captureLog();
    const strictConfig = config(prefix, { source: 'file', sourcePath: path, strict: true });
    const infra = await connectKafka(strictConfig, log);
    const h = await startIngest(ingestSection(strictConfig), log, infra);
    const err = await h.done.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BadLineError);
    expect((err as Error).message).toBe(`${path} line 4: not JSON: ${(err as BadLineError).bad.reason.slice('not JSON: '.length)}`);
    expect(entries.filter((e) => typeof e.msg === 'string' && e.msg.startsWith('file source: bad line')).map((e) => e.line)).toEqual([4]);
    // Nothing after the bad line was published: the genesis batch was still being read.
    await infra.kafka.close();
    const got = await readAll(kafka, prefix);
    expect(count(got)).toBe(0);
  });
});
