// SubscribeParsed against the real broker, fed as the ingest publishes (each slot framed whole, its parsed records
// built by the framer): only transactions with a decodable pump.fun instruction are sent, with their decoded
// pump.fun instructions in order (other programs' and undecodable ones left out), joined with the bonding-curve
// account update the same transaction wrote (wherever it sits in the slot), or without it when there is none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import * as grpc from '@grpc/grpc-js';
import { createKafka, type Kafka } from '../../../platform/kafka/index.js';
import { silentLogger } from '../../../platform/log.js';
import { topicNames, type TopicKind } from '../../../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from '../../../test/support/harness/kafka.js';
import { PUMP_PROGRAM_ID } from '../../../schemas/pumpfun/decode.js';
import { PUMP_DISCRIMINATORS } from '../../../schemas/pumpfun/discriminators.js';
import { openStreams } from '../metrics.js';
import { startTestGrpc, type TestGrpc } from '../../../test/support/grpc/server.js';
import { accountEvent, key, newClient, TestPublisher, txEvent, type Msg } from '../../../test/support/grpc/clients.js';

const parsedStreams = async (): Promise<number> =>
  (await openStreams.get()).values.find((v) => v.labels.method === 'SubscribeParsed')?.value ?? 0;

/** A SubscribeParsed stream on `c` collecting what it receives, once the server counts it. */
async function openParsed(c: Msg): Promise<{ call: Msg; got: Msg[] }> {
  const call = c.SubscribeParsed();
  const got: Msg[] = [];
  call.on('data', (m: Msg) => got.push(m));
  call.on('error', () => undefined);
  await waitFor(async () => (await parsedStreams()) === 1, { what: 'stream registered' });
  return { call, got };
}

const PUMP = Buffer.from(bs58.decode(PUMP_PROGRAM_ID));
const OTHER_PROGRAM = key();

const u64 = (v: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return b;
};
const str = (s: string): Buffer => {
  const b = Buffer.from(s, 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32LE(b.length);
  return Buffer.concat([len, b]);
};

/** Keys: 0 payer, 1 mint, 2 bonding curve, 3 other, 4 pump program, 5 other program. */
function pumpKeys(curve: Buffer): Buffer[] {
  return [key(), key(), curve, key(), PUMP, OTHER_PROGRAM];
}

describe('gRPC SubscribeParsed', () => {
  const topics = topicNames(uniquePrefix('grpc-parsed'));
  let kafka: Kafka;
  let server: TestGrpc;
  let pub: TestPublisher;
  let client: Msg;

  /** A gRPC host on the test's topics; `liveKinds`: the topics its live layer reads (default all). */
  const startServer = (liveKinds?: TopicKind[]): Promise<TestGrpc> =>
    startTestGrpc({
      kafka,
      topics,
      database: 'unused',
      host: '127.0.0.1',
      port: 0,
      pingIntervalMs: 10_000,
      queueSize: 1000,
      liveKinds,
      log: silentLogger,
    });

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'grpc-parsed-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    pub = await TestPublisher.start(kafka, topics);
    server = await startServer();
    client = newClient(server.port);
  });

  afterAll(async () => {
    client?.close();
    await server?.close();
    await pub?.stop();
    await kafka?.close();
  });

  it('sends decoded pump.fun transactions with their bonding-curve account update', async () => {
    const { call, got } = await openParsed(client);
    call.write({ ping: { id: 1 } }); // allowed, answered by nothing
    const curveBuy = key();
    const buy = txEvent(500n, pumpKeys(curveBuy), {
      instructions: [
        { programIdIndex: 5, accounts: Buffer.from([0]), data: Buffer.from([9, 9]) }, // another program
        // buy with the trailing track_volume byte; bonding curve is account #3 of the instruction
        {
          programIdIndex: 4,
          accounts: Buffer.from([3, 3, 1, 2, 3, 3, 0]),
          data: Buffer.concat([PUMP_DISCRIMINATORS.buy, u64(1000n), u64(5_000_000n), Buffer.from([1])]),
        },
      ],
    });
    const curveAccount = accountEvent(500n, curveBuy, PUMP, Buffer.from('curve-state'), { txnSignature: buy.signatures[0] });
    await pub.publishSlots([
      { kind: 'accounts', event: curveAccount },
      { kind: 'transactions', event: buy },
    ]);
    await waitFor(() => got.length === 1, { what: 'the buy' });
    expect(got[0].instructions.map((i: Msg) => i.instruction_oneof)).toEqual(['buy']); // the other program's left out
    expect(got[0].instructions[0].buy).toEqual({ amount: '1000', max_sol_cost: '5000000' });
    expect(Buffer.from(got[0].account.account.pubkey).equals(curveBuy)).toBe(true);
    expect(Buffer.from(got[0].account.account.data).toString()).toBe('curve-state');
    got.length = 0;

    const curveCreate = key();
    const create = txEvent(501n, pumpKeys(curveCreate), {
      instructions: [
        {
          programIdIndex: 4,
          accounts: Buffer.from([1, 3, 2, 3, 3]),
          data: Buffer.concat([PUMP_DISCRIMINATORS.create, str('Token'), str('TKN'), str('https://x/y'), key()]),
        },
        { programIdIndex: 4, accounts: Buffer.from([]), data: Buffer.from('not a pump instruction') },
        { programIdIndex: 4, accounts: Buffer.from([3, 3, 1, 2]), data: Buffer.concat([PUMP_DISCRIMINATORS.sell, u64(7n), u64(8n)]) },
      ],
    });
    const createAccount = accountEvent(501n, curveCreate, PUMP, Buffer.from('fresh-curve'), { txnSignature: create.signatures[0] });
    const nonPump = txEvent(501n, pumpKeys(key()), {
      instructions: [{ programIdIndex: 5, accounts: Buffer.from([0]), data: Buffer.from([1]) }],
    });
    const undecodable = txEvent(501n, pumpKeys(key()), {
      instructions: [{ programIdIndex: 4, accounts: Buffer.from([0]), data: Buffer.from([1, 2, 3]) }],
    });
    const lonelySell = txEvent(502n, pumpKeys(key()), {
      instructions: [
        { programIdIndex: 4, accounts: Buffer.from([3, 3, 1, 2]), data: Buffer.concat([PUMP_DISCRIMINATORS.sell, u64(1n), u64(2n)]) },
      ],
    });
    await pub.publishSlots([
      { kind: 'transactions', event: create },
      { kind: 'transactions', event: nonPump },
      { kind: 'transactions', event: undecodable },
      { kind: 'accounts', event: createAccount },
      { kind: 'transactions', event: lonelySell },
    ]);
    await waitFor(() => got.length >= 3, { what: 'create, the undecodable call and lonely sell' });

    // Pump instructions no table decodes go out as `unknown` with their bytes (issue 34: never dropped silently);
    // the other program's transaction does not.
    const bySig = new Map(got.map((m) => [Buffer.from(m.signature).toString('hex'), m]));
    expect(bySig.size).toBe(3);
    const c = bySig.get(create.signatures[0]!.toString('hex'))!;
    expect(c.slot).toBe('501');
    expect(c.instructions.map((i: Msg) => i.instruction_oneof)).toEqual(['create', 'unknown', 'sell']);
    expect(c.instructions[0].create).toEqual({ name: 'Token', symbol: 'TKN', uri: 'https://x/y' });
    expect(Buffer.from(c.instructions[1].unknown.data).toString()).toBe('not a pump instruction');
    expect(c.instructions[2].sell).toEqual({ amount: '7', min_sol_output: '8' });
    const u = bySig.get(undecodable.signatures[0]!.toString('hex'))!;
    expect(u.instructions.map((i: Msg) => i.instruction_oneof)).toEqual(['unknown']);
    expect(u.instructions[0].unknown).toMatchObject({ kind: 'truncated' });
    expect([...Buffer.from(u.instructions[0].unknown.data)]).toEqual([1, 2, 3]);
    expect(Buffer.from(c.account.account.pubkey).equals(curveCreate)).toBe(true);
    expect(Buffer.from(c.account.account.data).toString()).toBe('fresh-curve');
    expect(Buffer.from(c.account.account.txn_signature).equals(create.signatures[0]!)).toBe(true);
    expect(Buffer.from(c.recent_blockhash).equals(create.recentBlockhash)).toBe(true);
    expect(c.signatures.map((s: Buffer) => Buffer.from(s).toString('hex'))).toEqual(create.signatures.map((s) => s.toString('hex')));

    const s = bySig.get(lonelySell.signatures[0]!.toString('hex'))!;
    expect(s.instructions.map((i: Msg) => i.instruction_oneof)).toEqual(['sell']);
    expect(s.account).toBeNull(); // no bonding-curve write by this transaction
    call.cancel();
    await waitFor(async () => (await parsedStreams()) === 0, { what: 'stream closed on the server' });
  });

  it("joins each trade of a hot curve with its own write, the slot's others' writes around it", async () => {
    const { call, got } = await openParsed(client);
    // Three buys of one curve in slot 600, each write after its transaction and before the next one's.
    const curve = key();
    const buys = [1n, 2n, 3n].map((n) =>
      txEvent(600n, pumpKeys(curve), {
        index: Number(n),
        instructions: [
          { programIdIndex: 4, accounts: Buffer.from([3, 3, 1, 2]), data: Buffer.concat([PUMP_DISCRIMINATORS.buy, u64(n), u64(2n)]) },
        ],
      }),
    );
    await pub.publishSlots(
      buys.flatMap((buy, i) => [
        { kind: 'transactions' as const, event: buy },
        {
          kind: 'accounts' as const,
          event: accountEvent(600n, curve, PUMP, Buffer.from(`c${i}`), {
            txnSignature: buy.signatures[0],
            writeVersion: 600_000n + BigInt(i),
          }),
        },
      ]),
    );
    await waitFor(() => got.length === 3, { what: 'the three buys' });
    for (let i = 0; i < 3; i++) {
      expect(Buffer.from(got[i].signature).equals(buys[i]!.signatures[0]!)).toBe(true);
      expect(Buffer.from(got[i].account.account.pubkey).equals(curve)).toBe(true);
      expect(Buffer.from(got[i].account.account.data).toString()).toBe(`c${i}`);
    }
    call.cancel();
  });

  it('a replica whose live layer reads only the slots and parsed topics serves SubscribeParsed and refuses what it cannot', async () => {
    const parsedOnly = await startServer(['slots', 'parsed']);
    const c = newClient(parsedOnly.port);
    try {
      await waitFor(async () => (await parsedStreams()) === 0, { what: 'the earlier tests’ streams closed on the server' });
      const { call, got } = await openParsed(c);
      const curve = key();
      const buy = txEvent(700n, pumpKeys(curve), {
        instructions: [
          { programIdIndex: 4, accounts: Buffer.from([3, 3, 1, 2]), data: Buffer.concat([PUMP_DISCRIMINATORS.buy, u64(5n), u64(6n)]) },
        ],
      });
      await pub.publishSlots([
        { kind: 'transactions', event: buy },
        { kind: 'accounts', event: accountEvent(700n, curve, PUMP, Buffer.from('c700'), { txnSignature: buy.signatures[0] }) },
      ]);
      await waitFor(() => got.length === 1, { what: 'the buy from the parsed-only replica' });
      expect(Buffer.from(got[0].account.account.data).toString()).toBe('c700');
      call.cancel();

      // Subscribe for transactions needs the transactions topic: UNAVAILABLE naming it.
      const sub = c.Subscribe();
      const error = new Promise<Msg>((resolve) => sub.on('error', resolve));
      sub.on('data', () => undefined);
      sub.write({ transactions: { t: { account_include: [PUMP_PROGRAM_ID] } } });
      const err = await error;
      expect(err.code).toBe(grpc.status.UNAVAILABLE);
      expect(err.details).toContain('do not read the transactions topic (--live-topics parsed)');
    } finally {
      c.close();
      await parsedOnly.close();
    }
  });
});
