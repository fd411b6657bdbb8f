// The account cases of the views, one by one, through what users get: slots published step by step to a
// real broker, the projector writing embedded ClickHouse, and getProgramAccounts answered by the real
// JSON-RPC server at each commitment. (a) an owner change moves the account from A's list to B's at the
// commitment where it is visible; (b) a closure (0 lamports) drops it there and a reopening brings it
// back; (c) while confirmed and finalized trail processed, they keep answering the old state until their
// own slot status records arrive.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcServer } from '../api/jsonrpc/server.js';
import { createClickHouse, type ClickHouseClient } from '../platform/clickhouse.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { applyMigrations } from '../platform/migrations.js';
import { silentLogger } from '../platform/log.js';
import { SlotStatus, type ChainEvent } from '../schemas/codec.js';
import { topicNames, type TopicNames } from '../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import type { Commitment } from '../projector/heads.js';
import { startProjector, type Projector } from '../projector/run.js';
import { heads, kafkaLag } from './support/projector/dump.js';
import { account, b58, slotStatus } from './support/projector/events.js';
import { stepPublisher, type StepPublisher } from './support/projector/kafka.js';

const DB = 'accounts_int';
let dir: string;
let ch: ClickHouseClient;
let kafka: Kafka;
let topics: TopicNames;
let projector: Projector;
let rpc: JsonRpcServer;
let publisher: StepPublisher;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'projector-accounts-int-'));
  ch = await createClickHouse({ dataDir: dir, database: DB });
  const prefix = uniquePrefix('projector-accounts');
  topics = topicNames(prefix);
  kafka = createKafka({ brokers: testBrokers(), clientId: 'projector-accounts-int-test' });
  await kafka.admin().ensureTopics(topics, { partitions: 3, retentionMs: -1, replicationFactor: 1 });
  await applyMigrations(ch, DB);
  publisher = await stepPublisher(kafka, topics);
  projector = await startProjector({ database: DB, groupId: 'g-accounts', batchRows: 400, batchMs: 50 }, silentLogger, {
    ch,
    kafka,
    topics,
  });
  // stateTtlMs 0: every request reads the heads as they are now, so an answer follows the step just awaited.
  rpc = await JsonRpcServer.open({
    ch,
    database: DB,
    host: '127.0.0.1',
    port: 0,
    maxBodyBytes: 50 * 1024,
    maxBatch: 10,
    maxSlotLag: 150,
    chainTip: () => undefined,
    log: silentLogger,
    stateTtlMs: 0,
  });
});

afterAll(async () => {
  await rpc?.close();
  await publisher?.close();
  await projector?.stop();
  await ch?.close();
  rmSync(dir, { recursive: true, force: true });
});

// ---- publishing, one Kafka transaction per call, as the ingest publishes a slot ----

let parent = 0;
let height = 0;
let writeVersion = 0;

type Write = { pubkey: string; owner: string; lamports: number };

/** A produced slot at processed: its block and its account writes, in one transaction. */
async function processed(slot: number, writes: Write[]): Promise<void> {
  const events: ChainEvent[] = [
    { kind: 'slots', event: slotStatus(slot, SlotStatus.SLOT_STATUS_PROCESSED, { parent, height: ++height }) },
    ...writes.map((w): ChainEvent => ({
      kind: 'accounts',
      event: account({
        ...w,
        slot,
        writeVersion: ++writeVersion,
        data: w.lamports === 0 ? Buffer.alloc(0) : Buffer.from(`${w.pubkey}@${slot}`),
      }),
    })),
  ];
  parent = slot;
  await publisher.publish([{ slot: BigInt(slot), events }]);
}

/** A later status record of one slot, on its own. */
async function status(slot: number, s: SlotStatus.SLOT_STATUS_CONFIRMED | SlotStatus.SLOT_STATUS_FINALIZED): Promise<void> {
  await publisher.publish([{ slot: BigInt(slot), events: [{ kind: 'slots', event: slotStatus(slot, s) }] }]);
}
const confirm = (slot: number) => status(slot, SlotStatus.SLOT_STATUS_CONFIRMED);
const finalize = (slot: number) => status(slot, SlotStatus.SLOT_STATUS_FINALIZED);

/** Waits until the projector has stored everything published (lag 0) and its heads are these. */
async function caughtUp(p: number, c: number, f: number): Promise<void> {
  const want = [`confirmed|${c}`, `finalized|${f}`, `processed|${p}`];
  await waitFor(async () => (await kafkaLag(ch, DB)) === 0n && JSON.stringify(await heads(ch, DB)) === JSON.stringify(want), {
    what: `heads processed ${p}, confirmed ${c}, finalized ${f} with no lag`,
    timeoutMs: 300_000,
    // Two queries of the embedded ClickHouse a look: every 50 ms they cost the file about a CPU second more, and a
    // step takes ~1.3 s either way (the heads are published on the projector's own pace).
    intervalMs: 250,
  });
}

// ---- reading, through the JSON-RPC server ----

const labels = new Map<string, string>();
/** A pubkey (or program id) for a readable label; answers are mapped back to the labels. */
const key = (label: string): string => {
  const k = b58(label);
  labels.set(k, label);
  return k;
};

interface KeyedAccount {
  pubkey: string;
  account: { lamports: number; owner: string; data: [string, string] };
}

/** getProgramAccounts(program, commitment) as `label:lamports`, after checking the answer's context slot. */
async function owned(program: string, commitment: Commitment, contextSlot: number): Promise<string[]> {
  const r = await fetch(`http://127.0.0.1:${rpc.port}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'getProgramAccounts',
      params: [key(program), { commitment, withContext: true }],
    }),
  });
  const body = (await r.json()) as { result?: { context: { slot: number }; value: KeyedAccount[] }; error?: unknown };
  if (body.result === undefined) throw new Error(`getProgramAccounts(${program}, ${commitment}) answered ${JSON.stringify(body.error)}`);
  expect(body.result.context.slot, `context slot of getProgramAccounts(${program}, ${commitment})`).toBe(contextSlot);
  return body.result.value
    .map((a) => {
      expect(labels.get(a.account.owner), `owner of ${labels.get(a.pubkey)} listed under ${program}`).toBe(program);
      return `${labels.get(a.pubkey) ?? a.pubkey}:${a.account.lamports}`;
    })
    .sort();
}

/** Every program's list at every commitment, for one comparison per step. */
async function lists(programs: string[], at: Record<Commitment, number>): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const c of ['processed', 'confirmed', 'finalized'] as const) {
    for (const p of programs) out[`${p} @${c}`] = await owned(p, c, at[c]);
  }
  return out;
}

describe('account views at each commitment', () => {
  it('(a) an account that changes owner from A to B is listed under B and no longer under A once the change is visible', async () => {
    const [A, B] = ['prog-a', 'prog-b'];
    key('mover');
    key('stays-a');
    await processed(10, [
      { pubkey: 'mover', owner: A, lamports: 1000 },
      { pubkey: 'stays-a', owner: A, lamports: 500 },
    ]);
    await confirm(10);
    await finalize(10);
    await caughtUp(10, 10, 10);
    expect(await lists([A, B], { processed: 10, confirmed: 10, finalized: 10 })).toEqual({
      'prog-a @processed': ['mover:1000', 'stays-a:500'],
      'prog-b @processed': [],
      'prog-a @confirmed': ['mover:1000', 'stays-a:500'],
      'prog-b @confirmed': [],
      'prog-a @finalized': ['mover:1000', 'stays-a:500'],
      'prog-b @finalized': [],
    });

    // The owner change at slot 11, processed only.
    await processed(11, [{ pubkey: 'mover', owner: B, lamports: 1000 }]);
    await caughtUp(11, 10, 10);
    expect(await lists([A, B], { processed: 11, confirmed: 10, finalized: 10 })).toEqual({
      'prog-a @processed': ['stays-a:500'],
      'prog-b @processed': ['mover:1000'],
      'prog-a @confirmed': ['mover:1000', 'stays-a:500'],
      'prog-b @confirmed': [],
      'prog-a @finalized': ['mover:1000', 'stays-a:500'],
      'prog-b @finalized': [],
    });

    await confirm(11);
    await caughtUp(11, 11, 10);
    expect(await lists([A, B], { processed: 11, confirmed: 11, finalized: 10 })).toEqual({
      'prog-a @processed': ['stays-a:500'],
      'prog-b @processed': ['mover:1000'],
      'prog-a @confirmed': ['stays-a:500'],
      'prog-b @confirmed': ['mover:1000'],
      'prog-a @finalized': ['mover:1000', 'stays-a:500'],
      'prog-b @finalized': [],
    });

    await finalize(11);
    await caughtUp(11, 11, 11);
    expect(await lists([A, B], { processed: 11, confirmed: 11, finalized: 11 })).toEqual({
      'prog-a @processed': ['stays-a:500'],
      'prog-b @processed': ['mover:1000'],
      'prog-a @confirmed': ['stays-a:500'],
      'prog-b @confirmed': ['mover:1000'],
      'prog-a @finalized': ['stays-a:500'],
      'prog-b @finalized': ['mover:1000'],
    });
  });

  it("(b) a closed account (0 lamports) leaves its owner's list where the closure is visible and comes back when reopened", async () => {
    const C = 'prog-closing';
    key('closer');
    key('stays-c');
    await processed(20, [
      { pubkey: 'closer', owner: C, lamports: 2000 },
      { pubkey: 'stays-c', owner: C, lamports: 700 },
    ]);
    await confirm(20);
    await finalize(20);
    await caughtUp(20, 20, 20);
    expect(await lists([C], { processed: 20, confirmed: 20, finalized: 20 })).toEqual({
      'prog-closing @processed': ['closer:2000', 'stays-c:700'],
      'prog-closing @confirmed': ['closer:2000', 'stays-c:700'],
      'prog-closing @finalized': ['closer:2000', 'stays-c:700'],
    });

    // Closed at slot 21: same owner, 0 lamports, no data.
    await processed(21, [{ pubkey: 'closer', owner: C, lamports: 0 }]);
    await caughtUp(21, 20, 20);
    expect(await lists([C], { processed: 21, confirmed: 20, finalized: 20 })).toEqual({
      'prog-closing @processed': ['stays-c:700'],
      'prog-closing @confirmed': ['closer:2000', 'stays-c:700'],
      'prog-closing @finalized': ['closer:2000', 'stays-c:700'],
    });
    await confirm(21);
    await caughtUp(21, 21, 20);
    expect(await lists([C], { processed: 21, confirmed: 21, finalized: 20 })).toEqual({
      'prog-closing @processed': ['stays-c:700'],
      'prog-closing @confirmed': ['stays-c:700'],
      'prog-closing @finalized': ['closer:2000', 'stays-c:700'],
    });
    await finalize(21);
    await caughtUp(21, 21, 21);
    expect(await lists([C], { processed: 21, confirmed: 21, finalized: 21 })).toEqual({
      'prog-closing @processed': ['stays-c:700'],
      'prog-closing @confirmed': ['stays-c:700'],
      'prog-closing @finalized': ['stays-c:700'],
    });

    // Reopened at slot 22 under the same owner, with new lamports and data.
    await processed(22, [{ pubkey: 'closer', owner: C, lamports: 3000 }]);
    await caughtUp(22, 21, 21);
    expect(await lists([C], { processed: 22, confirmed: 21, finalized: 21 })).toEqual({
      'prog-closing @processed': ['closer:3000', 'stays-c:700'],
      'prog-closing @confirmed': ['stays-c:700'],
      'prog-closing @finalized': ['stays-c:700'],
    });
    await confirm(22);
    await finalize(22);
    await caughtUp(22, 22, 22);
    expect(await lists([C], { processed: 22, confirmed: 22, finalized: 22 })).toEqual({
      'prog-closing @processed': ['closer:3000', 'stays-c:700'],
      'prog-closing @confirmed': ['closer:3000', 'stays-c:700'],
      'prog-closing @finalized': ['closer:3000', 'stays-c:700'],
    });
  });

  it('(c) while confirmed and finalized trail processed they answer the old state, and the new one once their status records arrive', async () => {
    const [D, E] = ['prog-lag-d', 'prog-lag-e'];
    key('lagging');
    await processed(30, [{ pubkey: 'lagging', owner: D, lamports: 100 }]);
    await confirm(30);
    await finalize(30);
    await caughtUp(30, 30, 30);

    // Three processed slots run ahead: lamports change twice, then the owner changes.
    await processed(31, [{ pubkey: 'lagging', owner: D, lamports: 200 }]);
    await processed(32, [{ pubkey: 'lagging', owner: D, lamports: 300 }]);
    await processed(33, [{ pubkey: 'lagging', owner: E, lamports: 300 }]);
    await caughtUp(33, 30, 30);
    expect(await lists([D, E], { processed: 33, confirmed: 30, finalized: 30 })).toEqual({
      'prog-lag-d @processed': [],
      'prog-lag-e @processed': ['lagging:300'],
      'prog-lag-d @confirmed': ['lagging:100'],
      'prog-lag-e @confirmed': [],
      'prog-lag-d @finalized': ['lagging:100'],
      'prog-lag-e @finalized': [],
    });

    await confirm(31);
    await caughtUp(33, 31, 30);
    expect(await lists([D, E], { processed: 33, confirmed: 31, finalized: 30 })).toEqual({
      'prog-lag-d @processed': [],
      'prog-lag-e @processed': ['lagging:300'],
      'prog-lag-d @confirmed': ['lagging:200'],
      'prog-lag-e @confirmed': [],
      'prog-lag-d @finalized': ['lagging:100'],
      'prog-lag-e @finalized': [],
    });

    // Confirmed jumps to 33 with one record (32's confirmation implied); finalized still at 30.
    await confirm(33);
    await caughtUp(33, 33, 30);
    expect(await lists([D, E], { processed: 33, confirmed: 33, finalized: 30 })).toEqual({
      'prog-lag-d @processed': [],
      'prog-lag-e @processed': ['lagging:300'],
      'prog-lag-d @confirmed': [],
      'prog-lag-e @confirmed': ['lagging:300'],
      'prog-lag-d @finalized': ['lagging:100'],
      'prog-lag-e @finalized': [],
    });

    await finalize(32);
    await caughtUp(33, 33, 32);
    expect(await lists([D, E], { processed: 33, confirmed: 33, finalized: 32 })).toEqual({
      'prog-lag-d @processed': [],
      'prog-lag-e @processed': ['lagging:300'],
      'prog-lag-d @confirmed': [],
      'prog-lag-e @confirmed': ['lagging:300'],
      'prog-lag-d @finalized': ['lagging:300'],
      'prog-lag-e @finalized': [],
    });

    await finalize(33);
    await caughtUp(33, 33, 33);
    expect(await lists([D, E], { processed: 33, confirmed: 33, finalized: 33 })).toEqual({
      'prog-lag-d @processed': [],
      'prog-lag-e @processed': ['lagging:300'],
      'prog-lag-d @confirmed': [],
      'prog-lag-e @confirmed': ['lagging:300'],
      'prog-lag-d @finalized': [],
      'prog-lag-e @finalized': ['lagging:300'],
    });
  });
});
