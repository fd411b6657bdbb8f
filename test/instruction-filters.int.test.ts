// Instruction conditions on stream.Stream's Subscribe (issue 20 item 4) against the real broker: the
// simulator's traffic (pump.fun buys and sells, token and system transfers, their CPIs in the meta) is
// published through Kafka to a real api, streams subscribe with instruction conditions, and what arrives
// is compared, transaction by transaction and name by name, with a reference matcher written here from
// the proto's comments over the same records (sharing no code with api/filters); the same through a
// from_slot replay (no ClickHouse: the replay scans from the log start) and its hand-over to live. Also:
// invalid conditions end the stream with INVALID_ARGUMENT naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import bs58 from 'bs58';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { silentLogger } from '../platform/log.js';
import type { TransactionEvent } from '../schemas/codec.js';
import { topicNames } from '../schemas/topics.js';
import { startTestGrpc, type TestGrpc } from './support/grpc/server.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { newClient, subscribe, TestPublisher, txEvent, type Msg, type Recorder } from './support/grpc/clients.js';
import { collect } from './support/sim/checks.js';

const PUMP = '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P';
const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const SYSTEM = '11111111111111111111111111111111';
/** Anchor's instruction discriminator: sha256("global:<name>")[0..8]. */
const anchor = (name: string): Buffer => createHash('sha256').update(`global:${name}`).digest().subarray(0, 8);
const BUY = anchor('buy');
const SELL = anchor('sell');
const TOKEN_TRANSFER = Buffer.from([3]); // SPL Token's Transfer tag
const SYSTEM_TRANSFER = Buffer.from([2, 0, 0, 0]); // System program's Transfer, u32 little-endian

// ---- The reference: the proto's comments, written out over decoded events ----

interface Condition {
  program_id: string;
  discriminator?: Buffer;
  memcmp?: { offset: number; bytes: Buffer };
  include_inner?: boolean;
}
interface TxFilter {
  account_include?: string[];
  account_exclude?: string[];
  failed?: boolean;
  signature?: string;
  instructions?: Condition[];
}

function refMatches(f: TxFilter, t: TransactionEvent): boolean {
  const keys = [...t.accountKeys, ...t.loadedWritable, ...t.loadedReadonly].map((k) => bs58.encode(k));
  if (f.account_include && f.account_include.length > 0 && !f.account_include.some((k) => keys.includes(k))) return false;
  if (f.account_exclude?.some((k) => keys.includes(k))) return false;
  if (f.failed !== undefined && f.failed !== (t.err !== undefined)) return false;
  if (f.signature !== undefined && bs58.encode(t.signatures[0]!) !== f.signature) return false;
  const conditions = f.instructions ?? [];
  if (conditions.length === 0) return true;
  const satisfies = (c: Condition, ix: { programIdIndex: number; data: Uint8Array }): boolean => {
    if (keys[ix.programIdIndex] !== c.program_id) return false;
    const data = Buffer.from(ix.data);
    const want = c.discriminator ? { offset: 0, bytes: c.discriminator } : c.memcmp;
    return (
      !want ||
      (want.offset + want.bytes.length <= data.length && data.subarray(want.offset, want.offset + want.bytes.length).equals(want.bytes))
    );
  };
  const inner = t.innerInstructions.flatMap((g) => g.instructions);
  return conditions.some(
    (c) => t.instructions.some((ix) => satisfies(c, ix)) || (c.include_inner === true && inner.some((ix) => satisfies(c, ix))),
  );
}

/** signature (hex) -> sorted names of the matching filters, for the transactions any filter matches. */
function refStream(filters: Record<string, TxFilter>, txs: readonly TransactionEvent[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const t of txs) {
    const names = Object.keys(filters)
      .filter((n) => refMatches(filters[n]!, t))
      .sort();
    if (names.length > 0) out.set(Buffer.from(t.signatures[0]!).toString('hex'), names);
  }
  return out;
}

const received = (r: Recorder): Map<string, string[]> =>
  new Map(r.of('transaction').map((u) => [Buffer.from(u.transaction.transaction.signature).toString('hex'), u.filters as string[]]));

describe('Subscribe with instruction conditions (simulator traffic, real broker)', () => {
  const topics = topicNames(uniquePrefix('ix-filters'));
  let kafka: Kafka;
  let server: TestGrpc;
  let pub: TestPublisher;
  let client: Msg;
  let txs: TransactionEvent[] = [];
  const open: Recorder[] = [];

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'ix-filters-test' });
    // One partition: the stream sees records in publish order, so a last sentinel proves nothing is still on its way.
    await kafka.admin().ensureTopics(topics, { partitions: 1, retentionMs: -1, replicationFactor: 1 });
    pub = await TestPublisher.start(kafka, topics);
    server = await startTestGrpc({
      kafka,
      topics,
      database: 'unused',
      host: '127.0.0.1',
      port: 0,
      pingIntervalMs: 10_000,
      queueSize: 100_000,
      log: silentLogger,
      limits: { maxFiltersPerKind: 100, maxKeysPerList: 100, maxInstructionConditions: 4 },
    });
    client = newClient(server.port);
    // 50 slots: the October 2026 shapes (v3 trades, routes, quoted coins) leave the first-generation sell fewer than 10 in 30.
    const batches = await collect({ seed: 7, maxSlots: 50, fast: true });
    txs = batches.flatMap((b) => b.events.flatMap((e) => (e.kind === 'transactions' ? [e.event] : [])));
  });

  afterAll(async () => {
    for (const r of open) r.cancel();
    client?.close();
    await server?.close();
    await pub?.stop();
    await kafka?.close();
  });

  let pingId = 1;
  async function opened(req: Msg): Promise<Recorder> {
    const r = subscribe(client);
    open.push(r);
    r.send(req);
    const id = pingId++;
    r.send({ ping: { id } });
    await waitFor(() => r.of('pong').some((p) => p.pong.id === id) || r.error, { what: `pong ${id}` });
    return r;
  }

  it('delivers exactly the transactions with a matching instruction, top-level only or inner too', async () => {
    const sentinel = txEvent(1_000_000n, [randomBytes(32), randomBytes(32)]);
    const end: TxFilter = { signature: bs58.encode(sentinel.signatures[0]!) };
    const streams: Record<string, TxFilter>[] = [
      {
        buys: { instructions: [{ program_id: PUMP, discriminator: BUY }] },
        trades_any_depth: {
          instructions: [
            { program_id: PUMP, discriminator: BUY, include_inner: true },
            { program_id: PUMP, discriminator: SELL, include_inner: true },
          ],
        },
        token_transfer_top: { instructions: [{ program_id: TOKEN, discriminator: TOKEN_TRANSFER }] },
        token_transfer_any: { instructions: [{ program_id: TOKEN, discriminator: TOKEN_TRANSFER, include_inner: true }] },
        // Combined with account_exclude: system transfers (at any depth) outside pump.fun.
        sys_transfer_no_pump: {
          account_exclude: [PUMP],
          instructions: [{ program_id: SYSTEM, memcmp: { offset: 0, bytes: SYSTEM_TRANSFER }, include_inner: true }],
        },
        zz_end: end,
      },
      {
        // account_include plus a condition: pump.fun transactions whose instruction is a sell.
        sells: { account_include: [PUMP], instructions: [{ program_id: PUMP, discriminator: SELL }] },
        // A memcmp past the start: the sell's amount field's first byte is rarely 0xff, so few or none match.
        sell_amount_ff: { instructions: [{ program_id: PUMP, memcmp: { offset: 8, bytes: Buffer.from([0xff]) } }] },
        any_pump_failed: { failed: true, instructions: [{ program_id: PUMP }] },
        zz_end: end,
      },
    ];
    const recorders = await Promise.all(streams.map((filters) => opened({ transactions: filters })));
    await pub.publish([...txs.map((event) => ({ kind: 'transactions' as const, event })), { kind: 'transactions', event: sentinel }]);
    const endHex = sentinel.signatures[0]!.toString('hex');
    for (const r of recorders) await waitFor(() => received(r).has(endHex), { what: 'the sentinel', timeoutMs: 300_000 });

    const [one, two] = streams.map((filters) => refStream(filters, [...txs, sentinel]));
    expect(received(recorders[0]!)).toEqual(one);
    expect(received(recorders[1]!)).toEqual(two);

    // The traffic must exercise what is compared: each condition matched something, and inner matters.
    const count = (m: Map<string, string[]>, name: string) => [...m.values()].filter((n) => n.includes(name)).length;
    for (const name of ['buys', 'trades_any_depth', 'token_transfer_top', 'token_transfer_any', 'sys_transfer_no_pump'])
      expect(count(one!, name)).toBeGreaterThan(10);
    expect(count(one!, 'token_transfer_any')).toBeGreaterThan(count(one!, 'token_transfer_top') + 10);
    expect(count(two!, 'sells')).toBeGreaterThan(10);
    expect(recorders.every((r) => r.error === undefined)).toBe(true);
  });

  it('from_slot replays the history with the same conditions (matched on decoded events), then goes live', async () => {
    // Runs after the live test: the topic holds the simulator's transactions and that test's sentinel.
    const fromSlot = 10n;
    const filters: Record<string, TxFilter> = {
      buys: { instructions: [{ program_id: PUMP, discriminator: BUY }] },
      token_transfer_any: { instructions: [{ program_id: TOKEN, discriminator: TOKEN_TRANSFER, include_inner: true }] },
    };
    const r = await opened({ transactions: filters, from_slot: fromSlot.toString() });
    const later = txEvent(2_000_000n, [randomBytes(32), bs58.decode(TOKEN) as Buffer], {
      instructions: [{ programIdIndex: 1, accounts: Buffer.from([0]), data: Buffer.from([3, 1, 0, 0, 0, 0, 0, 0, 0]) }],
    });
    const laterHex = later.signatures[0]!.toString('hex');
    await waitFor(() => r.of('transaction').length > 0, { what: 'the replay under way', timeoutMs: 300_000 });
    await pub.publish([{ kind: 'transactions', event: later }]);
    await waitFor(() => received(r).has(laterHex), { what: 'the live transaction after the replay', timeoutMs: 300_000 });
    const expected = refStream(filters, [...txs.filter((t) => t.slot >= fromSlot), later]);
    expect(received(r)).toEqual(expected);
    expect(r.of('transaction')).toHaveLength(expected.size); // no duplicate at the hand-over
    expect([...expected.values()].filter((n) => n.includes('buys')).length).toBeGreaterThan(5);
  });

  it('rejects invalid conditions with INVALID_ARGUMENT naming the field', async () => {
    const five = Array.from({ length: 5 }, () => ({ program_id: PUMP }));
    const cases: [Msg, string][] = [
      [
        { transactions: { t: { instructions: [{ program_id: 'not-base58-0OIl' }] } } },
        'transactions["t"].instructions[0].program_id: invalid program id "not-base58-0OIl": not base58',
      ],
      [
        { transactions: { t: { instructions: [{ program_id: PUMP }, {}] } } },
        'transactions["t"].instructions[1].program_id: invalid program id "": empty string',
      ],
      [
        { transactions: { t: { instructions: [{ program_id: PUMP, discriminator: Buffer.alloc(17) }] } } },
        'transactions["t"].instructions[0].discriminator: 17 bytes, at most 16 allowed',
      ],
      [
        { transactions: { t: { instructions: [{ program_id: PUMP, discriminator: Buffer.alloc(0) }] } } },
        'transactions["t"].instructions[0].discriminator: empty; leave it unset to match every instruction of the program',
      ],
      [
        { transactions: { t: { instructions: [{ program_id: PUMP, memcmp: { offset: 10_241, bytes: Buffer.from([1]) } }] } } },
        'transactions["t"].instructions[0].memcmp.offset: 10241, at most 10240 allowed',
      ],
      [
        { transactions: { t: { instructions: [{ program_id: PUMP, memcmp: { offset: 0, bytes: Buffer.alloc(129) } }] } } },
        'transactions["t"].instructions[0].memcmp.bytes: 129 bytes, at most 128 allowed',
      ],
      // The server's configured limit (4 here).
      [{ transactions: { t: { instructions: five } } }, 'transactions["t"].instructions: 5 conditions, at most 4 allowed'],
    ];
    for (const [req, message] of cases) {
      const r = await opened(req);
      await waitFor(() => r.error, { what: 'INVALID_ARGUMENT' });
      expect(r.error!.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(r.error!.details).toBe(`failed to create filter: ${message}`);
    }
  });
});
