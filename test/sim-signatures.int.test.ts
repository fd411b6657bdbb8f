// Issue 18, item 11: over a long simulated run, signed as `npm start` signs (ed25519, its default 50
// validators and 200 tps), no signature repeats in the transactions topic nor in any getBlock answer, and
// each getBlock lists exactly the slot's transactions of the topic. The real ingest publishes to a real
// broker, the real projector fills embedded ClickHouse, JSON-RPC answers from it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bs58 from 'bs58';
import { afterAll, expect, it } from 'vitest';
import { JsonRpcServer } from '../api/jsonrpc/server.js';
import { connectKafka } from '../cli/infrastructure.js';
import { startIngest } from '../ingest/run.js';
import { createClickHouse } from '../platform/clickhouse.js';
import { makeConfig } from '../cli/config.js';
import { silentLogger } from '../platform/log.js';
import { applyMigrations } from '../platform/migrations.js';
import { startProjector } from '../projector/run.js';
import { SlotStatus } from '../schemas/codec.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { heads, kafkaLag } from './support/projector/dump.js';
import { expectedHeads } from './support/projector/expected.js';
import { consumeAll } from './support/projector/kafka.js';
import { projectorSection } from '../cli/config-sections.js';
import { ingestSection } from '../cli/config-sections.js';

const dir = mkdtempSync(join(tmpdir(), 'sim-signatures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const repeated = (xs: readonly string[]): string[] => {
  const seen = new Set<string>();
  return xs.filter((x) => seen.size === seen.add(x).size);
};

it(
  'no signature repeats in the topics or in any getBlock answer over 150 slots of the signed simulated chain',
  { timeout: 600_000 },
  async () => {
    const DB = 'simsigs';
    const SLOTS = 150;
    const common = { kafkaBrokers: testBrokers(), topicPrefix: uniquePrefix('sim-signatures'), partitions: 3, logLevel: 'silent' } as const;
    const ch = await createClickHouse({ dataDir: join(dir, 'ch'), database: DB });
    await applyMigrations(ch, DB);
    const projectorConfig = makeConfig('projector', {
      ...common,
      clickhouseDatabase: DB,
      groupId: 'g-simsigs',
      batchRows: 5000,
      batchMs: 100,
    });
    const { kafka, topics } = await connectKafka(projectorConfig, silentLogger);
    const projector = await startProjector(projectorSection(projectorConfig), silentLogger, { ch, kafka, topics });
    const rpc = await JsonRpcServer.open({
      ch,
      database: DB,
      host: '127.0.0.1',
      port: 0,
      maxBodyBytes: 50 * 1024,
      maxBatch: 10,
      maxSlotLag: 100_000,
      chainTip: () => undefined,
      log: silentLogger,
      stateTtlMs: 0,
    });
    try {
      // npm start's simulator settings (signed, 50 validators, 200 tps), unpaced.
      const ingest = await startIngest(
        ingestSection(makeConfig('ingest', { ...common, source: 'sim', slotMs: 0, maxSlots: SLOTS })),
        silentLogger,
        {
          kafka,
          topics,
        },
      );
      await ingest.done;

      const records = await consumeAll(kafka, topics);
      const bySlot = new Map<number, string[]>();
      const confirmed = new Set<number>();
      for (const r of records) {
        if (r.event.kind === 'transactions') {
          const tx = r.event.event;
          const list = bySlot.get(Number(tx.slot)) ?? [];
          list[tx.index] = bs58.encode(tx.signatures[0]!);
          bySlot.set(Number(tx.slot), list);
        } else if (r.event.kind === 'slots' && r.event.event.status === SlotStatus.SLOT_STATUS_CONFIRMED) {
          confirmed.add(Number(r.event.event.slot));
        }
      }
      const published = records.flatMap((r) =>
        r.event.kind === 'transactions' ? r.event.event.signatures.map((s) => bs58.encode(s)) : [],
      );
      expect(published.length).toBeGreaterThan(10_000);
      expect(repeated(published)).toEqual([]);

      const want = JSON.stringify(expectedHeads(records));
      await waitFor(async () => (await kafkaLag(ch, DB)) === 0n && JSON.stringify(await heads(ch, DB)) === want, {
        what: 'the views to catch up with the simulated chain',
        timeoutMs: 180_000,
        intervalMs: 250,
      });
      const getBlock = async (slot: number) => {
        const res = await fetch(`http://127.0.0.1:${rpc.port}/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'getBlock',
            params: [
              slot,
              { commitment: 'confirmed', transactionDetails: 'signatures', rewards: false, maxSupportedTransactionVersion: 0 },
            ],
          }),
        });
        return { slot, body: (await res.json()) as { result?: { signatures: string[] }; error?: unknown } };
      };
      // The genesis block holds no transactions. Asked eight at a time (a client's usual concurrency): the
      // answers are checked in slot order below, so the result is the same as asking one by one.
      const slots = [...confirmed].filter((s) => s !== 0).sort((a, b) => a - b);
      const answers: Awaited<ReturnType<typeof getBlock>>[] = [];
      for (let i = 0; i < slots.length; i += 8) answers.push(...(await Promise.all(slots.slice(i, i + 8).map(getBlock))));
      const answered: string[] = [];
      let blocks = 0;
      for (const { slot, body } of answers) {
        expect(body.error, `getBlock(${slot})`).toBeUndefined();
        const sigs = body.result!.signatures;
        expect(repeated(sigs), `getBlock(${slot}) lists a signature twice`).toEqual([]);
        expect(sigs, `getBlock(${slot}) lists the slot's transactions of the topic`).toEqual(bySlot.get(slot) ?? []);
        answered.push(...sigs);
        blocks++;
      }
      expect(blocks).toBeGreaterThan(SLOTS * 0.8); // all but the skipped and dead slots
      expect(repeated(answered)).toEqual([]);
    } finally {
      await rpc.close();
      await projector.stop();
      await kafka.close();
      await ch.close();
    }
  },
);
