// helius-laserstream's automatic reconnection against geyser.Geyser: the api restarts mid-stream (its
// gRPC server closed, a new one started on the same port), the SDK reconnects with `from_slot`, and what
// it handed to the application over the whole run covers, update for update, what the same subscription
// got from a second api that never restarted: no gap, duplicates only within the SDK's rewind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { CommitmentLevel } from 'helius-laserstream';
import { createKafka, type Kafka } from '../../../platform/kafka/index.js';
import { silentLogger } from '../../../platform/log.js';
import { SlotStatus, type ChainEvent } from '../../../schemas/codec.js';
import { topicNames } from '../../../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from '../../../test/support/harness/kafka.js';
import { accountEvent, key, slotEvent, TestPublisher, txEvent } from '../../../test/support/grpc/clients.js';
import { counts, LaserstreamRecorder, type Identified } from '../../../test/support/geyser/laserstream.js';
import { startTestGrpc, type TestGrpc, type TestGrpcOptions } from '../../../test/support/grpc/server.js';

/**
 * The SDK's documented rewind: it tracks the highest slot of the slot updates it receives (its own
 * filter_by_commitment slot filter), and on reconnect at PROCESSED commitment resumes with
 * from_slot = tracked slot - 31 (FORK_DEPTH_SAFETY_MARGIN, "max fork depth for processed commitment",
 * javascript/napi-src/stream.rs of helius-labs/laserstream-sdk; at CONFIRMED/FINALIZED it resumes at the
 * tracked slot itself). Updates of slots from there up to the tracked slot arrive twice; nothing else may.
 */
const LASERSTREAM_PROCESSED_REWIND_SLOTS = 31n;

const b58 = (b: Uint8Array): string => bs58.encode(b);

describe('geyser.Geyser with helius-laserstream reconnection (real SDK)', () => {
  const topics = topicNames(uniquePrefix('geyser-laserstream'));
  let kafka: Kafka;
  let pub: TestPublisher;
  let restarted: TestGrpc | undefined;
  let stable: TestGrpc | undefined;
  const streams: LaserstreamRecorder[] = [];
  const serverOptions = (port: number): TestGrpcOptions => ({
    kafka,
    topics,
    database: 'unused',
    host: '127.0.0.1',
    port,
    queueSize: 10_000,
    log: silentLogger,
    pingIntervalMs: 1_000,
  });

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'geyser-laserstream-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    pub = await TestPublisher.start(kafka, topics);
    restarted = await startTestGrpc(serverOptions(0));
    stable = await startTestGrpc(serverOptions(0));
  });

  afterAll(async () => {
    for (const s of streams) s.cancel();
    LaserstreamRecorder.shutdownAll();
    await restarted?.close();
    await stable?.close();
    await pub?.stop();
    await kafka?.close();
  });

  it('an api restart mid-stream: the SDK resumes with from_slot; every update of the uninterrupted run, duplicates only within its rewind', async () => {
    const k = key();
    const accounts = [key(), key()];
    const owner = key();
    const request = {
      transactions: { t: { accountInclude: [b58(k)], accountExclude: [], accountRequired: [] } },
      accounts: { a: { account: accounts.map(b58), owner: [], filters: [] } },
      // The SDK adds its own filter_by_commitment slot filter to track its position; the application's
      // is the same, so every slot update it tracks reaches the recorder too.
      slots: { s: { filterByCommitment: true } },
      commitment: CommitmentLevel.PROCESSED,
      transactionsStatus: {},
      blocks: {},
      blocksMeta: {},
      entry: {},
      accountsDataSlice: [],
    };
    const port = restarted!.port;
    const A = await LaserstreamRecorder.open(port, request);
    const B = await LaserstreamRecorder.open(stable!.port, request);
    streams.push(A, B);

    // One slot of chain: two matching transactions and one not, two matching account writes and one not,
    // the slot processed and earlier slots confirmed and finalized.
    const expected = new Set<string>();
    const slotOf = (s: bigint): ChainEvent[] => {
      const mine = [txEvent(s, [k, key()]), txEvent(s, [key(), k])];
      for (const t of mine) expected.add(`tx ${t.signatures[0]!.toString('hex')}`);
      const writes = accounts.map((a, i) => accountEvent(s, a, owner, Buffer.from([1, 2, 3, i]), { writeVersion: s * 10n + BigInt(i) }));
      for (const w of writes) expected.add(`acc ${w.pubkey.toString('hex')} ${w.writeVersion}`);
      return [
        ...mine.map((event) => ({ kind: 'transactions' as const, event })),
        { kind: 'transactions', event: txEvent(s, [key()]) },
        ...writes.map((event) => ({ kind: 'accounts' as const, event })),
        { kind: 'accounts', event: accountEvent(s, key(), owner, Buffer.from([9])) },
        { kind: 'slots', event: slotEvent(s, SlotStatus.SLOT_STATUS_PROCESSED) },
        { kind: 'slots', event: slotEvent(s - 2n, SlotStatus.SLOT_STATUS_CONFIRMED) },
        { kind: 'slots', event: slotEvent(s - 4n, SlotStatus.SLOT_STATUS_FINALIZED) },
      ];
    };
    const sawSlot = (r: LaserstreamRecorder, s: bigint): boolean => r.updates.some((u) => u.id.startsWith('slot ') && u.slot === s);

    // Both subscriptions are live once each saw a slot published after it subscribed (the SDK has no
    // request/response to wait on); the compared run starts after that slot.
    let s = 50_000n;
    for (let attempt = 0; ; attempt++) {
      await pub.publish([{ kind: 'slots', event: slotEvent(++s, SlotStatus.SLOT_STATUS_PROCESSED) }]);
      const live = await waitFor(() => sawSlot(A, s) && sawSlot(B, s), { what: 'both subscriptions live', timeoutMs: 3_000 }).then(
        () => true,
        () => false,
      );
      if (live) break;
      if (attempt > 40)
        throw new Error(
          `the SDK streams never got a slot update (A ${A.updates.length}, B ${B.updates.length}, errors ${A.errors
            .concat(B.errors)
            .map((e) => e.message)
            .join('; ')})`,
        );
    }
    const first = s + 1n;
    const inRun = (u: Identified): boolean => u.slot >= first;

    // Phase 1: 40 slots through the api that will restart.
    for (let i = 0; i < 40; i++) await pub.publish(slotOf(++s));
    const beforeRestart = s;
    await waitFor(() => sawSlot(A, beforeRestart) && sawSlot(B, beforeRestart), {
      what: `slot ${beforeRestart} on both streams`,
      timeoutMs: 300_000,
    });

    // Restart: the server goes away (streams cut), 10 slots are published while it is down, and a new
    // server listens on the same port. The SDK waits 5 s between attempts, so everything it handed over
    // before the new server listens came through the first connection.
    await restarted!.close();
    restarted = undefined;
    for (let i = 0; i < 10; i++) await pub.publish(slotOf(++s));
    const split = A.updates.length;
    restarted = await startTestGrpc(serverOptions(port));
    expect(restarted.port).toBe(port);
    // Phase 2: 10 more slots, and the run is complete when both streams hold every matching update.
    for (let i = 0; i < 10; i++) await pub.publish(slotOf(++s));
    const last = s;
    const complete = (r: LaserstreamRecorder): boolean => {
      const ids = new Set(r.updates.map((u) => u.id));
      return [...expected].every((id) => ids.has(id)) && sawSlot(r, last);
    };
    await waitFor(() => complete(B) && complete(A), { what: 'every update on both streams', timeoutMs: 300_000 }).catch((e: Error) => {
      throw new Error(`${e.message}: A ${A.updates.length} (${A.errors.map((x) => x.message).join('; ')}), B ${B.updates.length}`);
    });

    const a = A.updates.filter(inRun);
    const b = B.updates.filter(inRun);
    const aCounts = counts(a);
    const bCounts = counts(b);
    // The uninterrupted run: every matching update once, and only those (plus the slot updates).
    expect([...bCounts.values()].every((n) => n === 1)).toBe(true);
    expect([...bCounts.keys()].filter((id) => !id.startsWith('slot ')).sort()).toEqual([...expected].sort());
    expect(b.filter((u) => u.id.startsWith('slot ')).length).toBeGreaterThanOrEqual(60);

    // No gap: the restarted run holds every update of the uninterrupted one, and nothing else.
    expect([...aCounts.keys()].sort()).toEqual([...bCounts.keys()].sort());

    // Duplicates: exactly the updates of the first connection from the SDK's resume slot on.
    const tracked = A.updates
      .slice(0, split)
      .filter((u) => u.id.startsWith('slot '))
      .reduce((m, u) => (u.slot > m ? u.slot : m), 0n);
    expect(tracked).toBeGreaterThanOrEqual(beforeRestart);
    const resumeFrom = tracked - LASERSTREAM_PROCESSED_REWIND_SLOTS;
    expect(resumeFrom).toBeGreaterThan(first); // the rewind lies inside the compared run
    const duplicated = [...aCounts].filter(([, n]) => n > 1);
    expect(duplicated.every(([, n]) => n === 2)).toBe(true);
    const rewound = new Set(
      A.updates
        .slice(0, split)
        .filter((u) => inRun(u) && u.slot >= resumeFrom)
        .map((u) => u.id),
    );
    expect(duplicated.map(([id]) => id).sort()).toEqual([...rewound].sort());
    expect(rewound.size).toBeGreaterThan(0);
    // The second connection started at the resume slot: nothing older, and that slot's updates. (Its first
    // update need not be of that slot: a replay reads partitions ahead of each other, api/live/README.md.)
    const second = A.updates.slice(split);
    expect(second.reduce((m, u) => (u.slot < m ? u.slot : m), second[0]!.slot)).toBe(resumeFrom);
  });
});
