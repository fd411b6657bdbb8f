/* eslint-disable @typescript-eslint/no-explicit-any -- proto-loader answers are checked by value */
// Issue 20 items 2-3 end to end: the 20 real pump.fun / PumpSwap transactions of ../shared/data/mainnet/pump
// (read in place) go through `slotstream all --source file` (standard input, so the streams are open before
// the first record), and again through `slotstream all --source rpc`'s getBlock path (a local JSON-RPC stub,
// test/support/rpc/test-server.ts, standing in for the Solana node: each record's block is the getBlock answer
// Agave gives, encoding base64, built from the recorded getTransaction result; its tip is raised to the
// records' slots once the streams are open), and come out of SubscribeParsed with exactly the instructions and events of their
// `decoded` field (every value, u64s exact, inner ones marked with stack height and invoking program) and
// their `expected` values; record 23 (v1) with its buy_exact_quote_in_v2 and TradeEvent.
// - Each record gets its own slot (1000 + position): several records have no slot in the data set and the
//   real ones are not in order; the slot plays no part in decoding.
// - A failed transaction: a copy of record 0 with `err` set and its first signature altered (the ingest
//   identifies a transaction by its first signature, so an unaltered copy would be dropped as a duplicate). It
//   reaches only the stream that sets include_failed.
// - An old client, generated from the seed's proto (test/fixtures/stream-seed.proto, `git show
//   6fc56e0:proto/stream.proto`) with @grpc/proto-loader, decodes every update: it sees the seed's six
//   instruction kinds it knows and nothing of the rest.
// The client here reads with proto-loader (keepCase, u64 as decimal strings), so field names are the tables'.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/harness/kafka.js';
import { onRunBroker } from '../support/cli/run-broker.js';
import { pumpRecordTransaction, readPumpRecords, type PumpRecord } from '../support/mainnet/pump.js';
import { PUMP } from '../../schemas/pumpfun/pump-table.js';
import { PUMP_AMM } from '../../schemas/pumpfun/pump-amm-table.js';
import { ANY_PORTS, untilServing } from '../support/cli/served-ports.js';
import { startTestRpcServer, type TestRpcServer, type TestSlot } from '../support/rpc/test-server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const records = readPumpRecords();
const BASE_SLOT = 1000;
const FAILED_ERR = { InstructionError: [0, { Custom: 6002 }] };

function failedCopy(r: PumpRecord): { wire: string; signature: string } {
  const wire = Buffer.from(r.wire_base64, 'base64');
  wire[1] = wire[1]! ^ 0xff; // first byte of the first signature (after the one-byte signature count)
  return { wire: wire.toString('base64'), signature: bs58.encode(wire.subarray(1, 65)) };
}
const FAILED = failedCopy(records[0]!);

function txLine(r: PumpRecord, slot: number, wire: string, err: unknown): string {
  const m = r.meta as any;
  const innerInstructions = m.innerInstructions.map((g: any) => ({
    index: g.index,
    instructions: g.instructions.map((ix: any) => ({ ...ix, data: Buffer.from(bs58.decode(ix.data)).toString('base64') })),
  }));
  return JSON.stringify({
    type: 'transaction',
    slot,
    index: 0,
    tx: wire,
    err,
    fee: m.fee ?? 5000,
    blockTime: r.blockTime,
    loadedWritable: m.loadedAddresses?.writable ?? [],
    loadedReadonly: m.loadedAddresses?.readonly ?? [],
    preBalances: m.preBalances ?? [],
    postBalances: m.postBalances ?? [],
    preTokenBalances: m.preTokenBalances ?? [],
    postTokenBalances: m.postTokenBalances ?? [],
    innerInstructions,
    logMessages: m.logMessages ?? [],
    computeUnitsConsumed: m.computeUnitsConsumed ?? 0,
    costUnits: m.costUnits ?? 0,
    returnData: null,
    rewards: [],
  });
}

function chainLines(): string[] {
  const lines: string[] = [];
  const block = (slot: number, txs: string[]) => {
    lines.push(
      JSON.stringify({
        type: 'slot',
        slot,
        status: 'processed',
        block: {
          parentSlot: slot - 1,
          blockhash: bs58.encode(Buffer.alloc(32, slot % 251)),
          blockHeight: slot,
          blockTime: 1_760_000_000,
          leader: bs58.encode(Buffer.alloc(32, 9)),
          transactionCount: txs.length,
          voteTransactionCount: 0,
        },
      }),
    );
    lines.push(...txs);
    lines.push(JSON.stringify({ type: 'slot', slot, status: 'confirmed' }));
  };
  records.forEach((r, i) => block(BASE_SLOT + i, [txLine(r, BASE_SLOT + i, r.wire_base64, r.meta.err ?? null)]));
  block(BASE_SLOT + records.length, [txLine(records[0]!, BASE_SLOT + records.length, FAILED.wire, FAILED_ERR)]);
  // The file source hands a slot on when the next one starts: an empty last slot lets the failed copy's go.
  block(BASE_SLOT + records.length + 1, []);
  return lines;
}

/** The rpc source's chain: the same slots, each block the getBlock answer Agave gives for it (encoding base64,
 * the record's recorded getTransaction meta as is), the failed copy with its `err`, and the empty last block. */
const SLOTS_PER_EPOCH = 2048;
const LAST_SLOT = BASE_SLOT + records.length + 1;
function rpcSlots(): Map<number, TestSlot> {
  const slots = new Map<number, TestSlot>();
  const block = (slot: number, txs: unknown[]) =>
    slots.set(slot, {
      kind: 'answer',
      answer: {
        blockhash: bs58.encode(Buffer.alloc(32, slot % 251)),
        previousBlockhash: bs58.encode(Buffer.alloc(32, (slot - 1) % 251)),
        parentSlot: slot - 1,
        blockHeight: slot,
        blockTime: 1_760_000_000,
        transactions: txs as never,
        rewards: [],
      },
    });
  const tx = (r: PumpRecord, wire: string, err: unknown) => ({
    transaction: [wire, 'base64'],
    meta: err === undefined ? r.meta : { ...r.meta, err, status: { Err: err } },
    version: r.version,
  });
  records.forEach((r, i) => block(BASE_SLOT + i, [tx(r, r.wire_base64, undefined)]));
  block(BASE_SLOT + records.length, [tx(records[0]!, FAILED.wire, FAILED_ERR)]);
  block(LAST_SLOT, []);
  return slots;
}

const LOADER = { keepCase: true, longs: String, enums: String, defaults: false, arrays: true, oneofs: true };
function streamClient(protoPath: string, port: number): any {
  const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(protoPath, LOADER)) as any;
  return new pkg.stream.Stream(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
}

interface Recorder {
  updates: any[];
  error: grpc.ServiceError | undefined;
  call: grpc.ClientDuplexStream<any, any>;
}
function record(client: any, request?: unknown): Recorder {
  const call = client.subscribeParsed();
  const r: Recorder = { updates: [], error: undefined, call };
  call.on('data', (u: any) => r.updates.push(u));
  call.on('error', (e: grpc.ServiceError) => (r.error = e));
  if (request !== undefined) call.write(request);
  return r;
}

type Source = 'file' | 'rpc';

/** One `slotstream all` fed the records by `source`, with three SubscribeParsed streams open before the first record. */
class Run {
  child!: ChildProcess;
  dir = '';
  output = '';
  oldClient: any;
  newClient: any;
  old!: Recorder;
  dflt!: Recorder;
  withFailed!: Recorder;
  rpc: TestRpcServer | undefined;

  constructor(readonly source: Source) {}

  async start(): Promise<void> {
    this.dir = mkdtempSync(join(tmpdir(), 'slotstream-parsed-'));
    // The run's broker under a prefix of its own, one process: what this checks is SubscribeParsed's output, not the
    // quick start's local broker or stream processes (test/e2e/all.e2e.test.ts, parsed-trades-example.e2e.test.ts).
    const env = { ...process.env };
    delete env.KAFKA_BROKERS;
    delete env.CLICKHOUSE_URL;
    const shared = [...onRunBroker(`parsed-${this.source}`), '--stream-processes', '0'];
    let sourceArgs = ['--source', 'file', '--source-path', '-'];
    if (this.source === 'rpc') {
      // The tip stays below the records' slots until the streams are open (they are live streams).
      this.rpc = await startTestRpcServer({
        slots: rpcSlots(),
        slotsPerEpoch: SLOTS_PER_EPOCH,
        identities: [Buffer.alloc(32, 9)],
        tip: { confirmed: BASE_SLOT - 1, finalized: BASE_SLOT - 1 },
      });
      sourceArgs = ['--source', 'rpc', '--rpc-url', this.rpc.url, '--from-slot', String(BASE_SLOT), '--rpc-poll-ms', '100'];
    }
    this.child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'cli/main.ts',
        'all',
        ...sourceArgs,
        ...shared,
        ...ANY_PORTS,
        '--data-dir',
        join(this.dir, 'data'),
        '--log-level',
        'info',
      ],
      { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const child = this.child;
    child.stdout!.on('data', (b: Buffer) => (this.output += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (this.output += b.toString()));
    const port = (await untilServing(child, () => this.output, 'all')).grpc;
    this.oldClient = streamClient(join(ROOT, 'test/fixtures/stream-seed.proto'), port);
    this.newClient = streamClient(join(ROOT, 'proto/stream.proto'), port);
    this.old = record(this.oldClient); // an old client sends nothing: the default applies
    this.dflt = record(this.newClient);
    this.withFailed = record(this.newClient, { include_failed: true });
    await new Promise((r) => setTimeout(r, 1_500));
    if (this.rpc) this.rpc.tip = { confirmed: LAST_SLOT, finalized: LAST_SLOT };
    else child.stdin!.write(chainLines().join('\n') + '\n');
    await waitFor(
      () =>
        this.withFailed.updates.length >= records.length + 1 &&
        this.dflt.updates.length >= records.length &&
        this.old.updates.length >= records.length,
      {
        timeoutMs: 300_000,
        what: `every record out of SubscribeParsed (old ${this.old.updates.length}, default ${this.dflt.updates.length}, failed ${this.withFailed.updates.length}; output:\n${this.output.slice(-3000)})`,
      },
    );
  }

  async stop(): Promise<void> {
    for (const r of [this.old, this.dflt, this.withFailed]) r?.call.cancel();
    this.oldClient?.close();
    this.newClient?.close();
    const child = this.child;
    if (child && child.exitCode === null) {
      child.stdin!.end();
      child.kill('SIGINT');
      await waitFor(() => child.exitCode !== null, { timeoutMs: 300_000, what: 'slotstream all to stop' }).catch(() =>
        child.kill('SIGKILL'),
      );
    }
    await this.rpc?.close();
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}

// ---- proto (proto-loader, keepCase) → the data set's JSON conventions ----

const SEED_CASES = new Set(['initialize', 'set_params', 'create', 'buy', 'sell', 'withdraw']);
const b58 = (b: Buffer) => bs58.encode(b);

function decodedFieldJson(f: any): unknown {
  switch (f.value) {
    case 'pubkey':
      return b58(f.pubkey);
    case 'json':
      return JSON.parse(f.json);
    default:
      return f[f.value];
  }
}

/** A typed message's fields in the tables' order and JSON conventions (OptionBool back to [bool]). */
function typedJson(msg: any, defFields: readonly { name: string; typeText: string }[], absent: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of defFields) {
    const v = msg[f.name];
    if (absent.includes(f.name)) {
      // Proto cannot tell an empty repeated field from none: an absent vector arrives empty.
      expect(v === undefined || (Array.isArray(v) && v.length === 0), `${f.name} absent`).toBe(true);
      continue;
    }
    if (v === undefined) continue; // not carried: the comparison with `decoded` catches a missing field
    if (f.typeText === 'OptionBool') out[f.name] = [v];
    else if (f.typeText === 'pubkey') out[f.name] = b58(v);
    else if (/^\[pubkey;/.test(f.typeText)) out[f.name] = v.map(b58);
    else if (f.typeText === 'vec<Shareholder>') out[f.name] = v.map((s: any) => ({ address: b58(s.address), share_bps: s.share_bps }));
    else if (f.typeText === 'option<u64>') out[f.name] = v ?? null;
    else out[f.name] = v;
  }
  return out;
}

function instructionJson(x: any, want: any): any {
  const c: string = x.instruction_oneof;
  const table = x.program === 'pump' ? PUMP : PUMP_AMM;
  let name: string;
  let args: Record<string, unknown>;
  if (c === 'other') {
    name = x.other.name;
    args = Object.fromEntries(x.other.args.map((f: any) => [f.name, decodedFieldJson(f)]));
  } else {
    name = c.startsWith('amm_') ? c.slice(4) : c;
    const def = table.instructions.find((d) => d.name === name)!;
    const seed = SEED_CASES.has(c);
    const fields = seed
      ? def.fields.filter((f) => x[c][f.name] !== undefined || !x.extra_args.some((e: any) => e.name === f.name))
      : def.fields;
    args = typedJson(x[c], seed ? fields.filter((f) => x[c][f.name] !== undefined) : fields, want?.absent_newer_args ?? []);
    for (const e of x.extra_args) args[e.name] = decodedFieldJson(e);
    args = Object.fromEntries(def.fields.filter((f) => f.name in args).map((f) => [f.name, args[f.name]]));
  }
  return {
    index: x.index ?? 0,
    inner: x.inner ?? false,
    ...(x.inner ? { inner_index: x.inner_index } : {}),
    program: x.program,
    name,
    args,
    accounts: x.accounts.map(b58),
  };
}

function eventJson(e: any, want: any): any {
  const c: string = e.event_oneof;
  let name: string;
  let fields: Record<string, unknown>;
  if (c === 'other') {
    name = e.other.name;
    fields = Object.fromEntries(e.other.fields.map((f: any) => [f.name, decodedFieldJson(f)]));
  } else {
    const table = e.program === 'pump' ? PUMP : PUMP_AMM;
    name = {
      trade: 'TradeEvent',
      create: 'CreateEvent',
      complete: 'CompleteEvent',
      amm_buy: 'BuyEvent',
      amm_sell: 'SellEvent',
      amm_create_pool: 'CreatePoolEvent',
      post_complete_buy: 'PostCompleteBuyEvent',
      sweep_bonding_curve_fee: 'SweepBondingCurveFeeEvent',
      amm_sweep_pool_fee: 'SweepPoolFeeEvent',
    }[c]!;
    fields = typedJson(e[c], table.events.find((d) => d.name === name)!.fields, want?.absent_newer_fields ?? []);
  }
  return { index: e.index ?? 0, inner_index: e.inner_index ?? 0, program: e.program, name, fields };
}

/**
 * `ours` without what the October 2026 layouts add on top of the record (made with the May 2026 tables): where the
 * record counted undecoded trailing bytes, the newer layout's appended fields are decoded from exactly those bytes
 * (issue 34: carried by the typed members now; schemas/pumpfun/extract.realdata.test.ts checks their values). Only
 * fields after the record's last one may come on top.
 */
function withoutOctoberAdditions(ours: any, rec: any): any {
  const key = 'args' in rec ? 'args' : 'fields';
  if (!rec.undecoded_trailing_bytes) return ours;
  const recKeys = Object.keys(rec[key]);
  const ourKeys = Object.keys(ours[key]);
  expect(ourKeys.slice(0, recKeys.length), `${rec.name}: the record's fields first`).toEqual(recKeys);
  expect(ourKeys.length, `${rec.name}: the trailing bytes decoded`).toBeGreaterThan(recKeys.length);
  return { ...ours, [key]: Object.fromEntries(recKeys.map((k) => [k, ours[key][k]])) };
}

const bySignature = (rec: Recorder, sig: string) => rec.updates.filter((u) => b58(u.signature) === sig);
const recordShape = (x: any) => {
  const { absent_newer_args: _a, absent_newer_fields: _b, undecoded_trailing_bytes: _c, account_names_current_idl: _d, ...rest } = x;
  return rest;
};

describe.each<[Source]>([['file'], ['rpc']])(
  'SubscribeParsed over the 20 mainnet pump.fun / PumpSwap transactions (%s source)',
  (source) => {
    const run = new Run(source);
    beforeAll(() => run.start());
    afterAll(() => run.stop());

    describe.each(records.map((r) => [r.id, r] as const))('record %i', (_id, r) => {
      it('comes out once with exactly the instructions and events of its `decoded` field', () => {
        const got = bySignature(run.dflt, r.signature);
        expect(got).toHaveLength(1);
        const u = got[0];
        const want = r.decoded;
        // Pump Fees (decoded since the October 2026 tables) comes on top of the record's pump / PumpSwap ones: its inner
        // get_fees CPIs, as generic instructions (schemas/pumpfun/extract.realdata.test.ts checks their values).
        const fees = u.instructions.filter((x: any) => x.program === 'pump_fees');
        for (const x of fees) expect([x.inner, x.instruction_oneof]).toEqual([true, 'other']);
        const ours = u.instructions.filter((x: any) => x.program !== 'pump_fees');
        expect(
          ours.map((x: any, i: number) => withoutOctoberAdditions(instructionJson(x, want.instructions[i]), want.instructions[i])),
        ).toStrictEqual(want.instructions.map(recordShape));
        expect(u.events.map((e: any, i: number) => withoutOctoberAdditions(eventJson(e, want.events[i]), want.events[i]))).toStrictEqual(
          want.events.map(recordShape),
        );
        expect(u.programs).toEqual(fees.length > 0 ? [...r.programs_involved, 'pump_fees'] : r.programs_involved);
        expect(u.failed ?? false).toBe(false);
      });

      it('marks inner instructions with stack height and the invoking top-level program', () => {
        const u = bySignature(run.dflt, r.signature)[0];
        for (const x of u.instructions) {
          if (!x.inner) {
            expect(x.stack_height).toBe(1);
            continue;
          }
          const meta = r.meta.innerInstructions.find((g) => g.index === (x.index ?? 0))!.instructions[x.inner_index ?? 0]!;
          if (meta.stackHeight != null) expect(x.stack_height).toBe(meta.stackHeight);
          // The invoking program: the program of top-level instruction `index` (the record through the rpc converter).
          const tx = pumpRecordTransaction(r);
          expect(b58(x.invoked_by)).toBe(b58(tx.accountKeys[tx.instructions[x.index ?? 0]!.programIdIndex]!));
        }
      });

      it('agrees with every value its source asserts (`expected`)', () => {
        const u = bySignature(run.dflt, r.signature)[0];
        const got = u.instructions.map((x: any) => instructionJson(x, undefined));
        for (const want of r.expected.instructions) {
          const x = got.find((i: any) => i.index === want.index && i.inner === want.inner && i.inner_index === want.inner_index);
          expect(x, `${want.name} at ${want.index}/${want.inner_index}`).toBeDefined();
          expect(x.name).toBe(want.name);
          expect(x.args).toMatchObject(want.args ?? {});
        }
        const events = u.events.map((e: any) => eventJson(e, undefined));
        for (const want of r.expected.events) {
          const e = events.find((v: any) => v.index === want.index && v.inner_index === want.inner_index);
          expect(e, `${want.name} at ${want.index}/${want.inner_index}`).toBeDefined();
          expect(e.name).toBe(want.name);
          expect(e.fields).toMatchObject(want.fields);
        }
      });
    });

    it('record 23 (v1) carries its buy_exact_quote_in_v2 and TradeEvent', () => {
      const r = records.find((x) => x.id === 23)!;
      const u = bySignature(run.dflt, r.signature)[0];
      expect(u.instructions.some((x: any) => x.instruction_oneof === 'buy_exact_quote_in_v2')).toBe(true);
      expect(u.events.some((e: any) => e.event_oneof === 'trade')).toBe(true);
    });

    it('a failed transaction goes only to the stream that asks for failed ones', () => {
      expect(bySignature(run.dflt, FAILED.signature)).toHaveLength(0);
      expect(bySignature(run.old, FAILED.signature)).toHaveLength(0);
      const got = bySignature(run.withFailed, FAILED.signature);
      expect(got).toHaveLength(1);
      expect(got[0].failed).toBe(true);
      expect(JSON.parse(got[0].err)).toEqual(FAILED_ERR);
      expect(run.withFailed.updates).toHaveLength(records.length + 1);
    });

    it("an old client (the seed's proto) decodes every update: the six kinds it knows, the rest skipped", () => {
      expect(run.old.error).toBeUndefined();
      expect(run.old.updates).toHaveLength(records.length);
      for (const r of records) {
        const got = bySignature(run.old, r.signature);
        expect(got, `record ${r.id}`).toHaveLength(1);
        // A newer kind arrives as an Instruction entry with no member the old client knows (its fields unknown).
        const seedKinds = r.decoded.instructions.filter((x) => x.program === 'pump' && SEED_CASES.has(x.name)).map((x) => x.name);
        const fees = bySignature(run.dflt, r.signature)[0].instructions.filter((x: any) => x.program === 'pump_fees').length;
        expect(got[0].instructions).toHaveLength(r.decoded.instructions.length + fees);
        expect(got[0].instructions.map((x: any) => x.instruction_oneof).filter(Boolean)).toEqual(seedKinds);
        expect(Object.keys(got[0]).sort()).toEqual(expect.arrayContaining(['signature', 'slot', 'instructions', 'signatures']));
        for (const x of got[0].instructions) expect(Object.keys(x).every((k) => k === 'instruction_oneof' || SEED_CASES.has(k))).toBe(true);
      }
    });
  },
);
