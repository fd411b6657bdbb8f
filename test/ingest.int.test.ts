// Ingest against the real broker of the test run: the simulator into Kafka and back, determinism, and the file
// source (round trip and bad lines). The restart after SIGKILL is test/ingest-restart.int.test.ts.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadLineError } from '../ingest/sources/file/source.js';
import { startIngest } from '../ingest/run.js';
import { deriveKeypair } from '../ingest/sources/sim/keys.js';
import { chiSquare, CRITICAL_49_DF, lamportTotals, mintBalances, verifyEd25519 } from './support/sim/checks.js';
import { validatorStakes } from '../ingest/sources/sim/validators.js';
import { encodeMessage } from '../schemas/wire.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { connectKafka } from '../cli/infrastructure.js';
import { decodeRecord, encodeRecord, SlotStatus, type AccountEvent, type TransactionEvent } from '../schemas/codec.js';
import { RECORD_KINDS, topicNames } from '../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { firstDifference } from './support/kafka/read-topics.js';
import { checkMarkers } from './support/ingest/framed-slot.js';
import { ingestSection } from '../cli/config-sections.js';
import { capturedLog } from './support/harness/captured-log.js';
import { config, count, ENDS_A_SLOT, ingestToEnd, readAll, slotRecords, toContents, SIM, type Topics } from './support/ingest/sim-chain.js';

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

afterAll(async () => {
  await kafka?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('sim into Kafka', () => {
  it('publishes records that all decode, with keys per ARCHITECTURE.md, and every slot once', () => {
    expect(count(reference)).toBeGreaterThanOrEqual(10_000);
    // Every record checked, the failures gathered and compared once (an expect per record of 14,000 was half of
    // the test's CPU): the first few failures are named.
    const wrong: string[] = [];
    for (const kind of RECORD_KINDS) {
      expect(reference[kind].flat().length, kind).toBeGreaterThan(0);
      for (const r of reference[kind].flat()) {
        const d = decodeRecord(kind, r.value);
        if (!d.ok) wrong.push(`${kind} record at offset ${r.offset}: ${d.reason}`);
        else if (!encodeRecord(d.value).key.equals(r.key)) wrong.push(`${kind} record at offset ${r.offset}: key ${r.key.toString('hex')}`);
      }
    }
    expect({ wrong: wrong.length, first: wrong.slice(0, 5) }).toEqual({ wrong: 0, first: [] });
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
    expect(checkMarkers(toContents(reference, refPrefix), topicNames(refPrefix))).toEqual({ markers: SIM.maxSlots, wrong: [], late: [] });
  });

  it('gives byte-identical records for the same seed (>= 10,000 records)', async () => {
    const prefix = uniquePrefix('ingest-again');
    await ingestToEnd(config(prefix));
    const again = await readAll(kafka, prefix);
    expect(count(again)).toBe(count(reference));
    expect(firstDifference(again, reference)).toBeUndefined();
  });
});

describe('a stop while the ingest starts', () => {
  it('ends the ingest at once, before it publishes a slot, even when the stop comes before the name is claimed', async () => {
    // An endless chain: only the stop can end it. The stop comes right after startIngest, while the name is being
    // claimed; the term that follows must see it (a listener added to the aborted signal never fired, and the
    // simulator published until `slotstream all` killed its ingest process 20 s later).
    const prefix = uniquePrefix('ingest-stop-early');
    const cfg = config(prefix, { maxSlots: 0 });
    const { log } = capturedLog();
    const infra = await connectKafka(cfg, log);
    try {
      const h = await startIngest(ingestSection(cfg), log, infra);
      let stopped = false;
      void h.stop().then(() => (stopped = true));
      // A deadline against a hang, not a bound: the stop needs no slot, only the claim and the producer's opening.
      await waitFor(() => stopped, { timeoutMs: 120_000, what: 'the ingest stopped before its name was claimed to end' });
      await h.done;
    } finally {
      await infra.kafka.close();
    }
    const topics = await readAll(kafka, prefix);
    expect(slotRecords(topics).filter((s) => s.end !== undefined)).toEqual([]);
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
    // Failures gathered and compared once, as above.
    const wrong: string[] = [];
    for (const t of txs) {
      const msg = encodeMessage(t);
      if (t.signatures.length !== t.numRequiredSignatures) {
        wrong.push(`a transaction in slot ${t.slot}: ${t.signatures.length} signatures, ${t.numRequiredSignatures} required`);
      }
      t.signatures.forEach((sig, i) => {
        if (!verifyEd25519(msg, sig, t.accountKeys[i]!)) wrong.push(`signature ${i} of a transaction in slot ${t.slot}`);
      });
    }
    expect({ wrong: wrong.length, first: wrong.slice(0, 5) }).toEqual({ wrong: 0, first: [] });
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

describe('file source', () => {
  let file: string;
  let lines: string[];

  beforeAll(async () => {
    file = join(tmp, 'sim.jsonl');
    await ingestToEnd(config('unused', { out: file }));
    lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l.length > 0);
  });

  it('round-trips the simulator output: sim --out file, file source into Kafka, same records', async () => {
    // The file holds the chain; the parsed records are the ingest's own, built from it.
    expect(lines.length).toBe(count(reference) - reference.parsed.flat().length);
    const prefix = uniquePrefix('ingest-file');
    const { log, lines: entries } = capturedLog();
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
    const { log, lines: entries } = capturedLog();
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
    const { log, lines: entries } = capturedLog();
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
