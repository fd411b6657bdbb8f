// The local broker launcher against real Kafka JVMs: start, answer, replicate, stop, and never leak
// a JVM, even when the Node process that started it is SIGKILLed.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createKafka, type Kafka } from '../kafka/index.js';
import { waitFor } from '../../test/support/harness/kafka.js';
import { brokerMetadata } from '../../test/support/kafka/broker-metadata.js';
import { ensureKafkaJars, KAFKA_VERSION, prepareLocalKafka, startLocalKafka, type LocalKafka } from './launcher.js';

const HERE = dirname(fileURLToPath(import.meta.url));

/** True while the process exists and is not a zombie. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

interface PartitionView {
  leader: number;
  replicas: number[];
  isr: number[];
}

/** True when `broker` itself knows topic rf3 and every partition satisfies `ok` (asked of that broker
 * alone: see test/support/kafka/broker-metadata.ts). */
async function partitionsSeenBy(broker: string, ok: (p: PartitionView) => boolean): Promise<boolean> {
  const meta = await brokerMetadata(broker, ['rf3']);
  const parts = meta.topics[0]?.errorCode === 0 ? meta.topics[0].partitions : [];
  return parts.length === 2 && parts.every(ok);
}

/** Creates `name` the way the roles create their topics (ensureTopics: waits for partition leaders). */
async function createTopic(kafka: Kafka, name: string, partitions: number, replicationFactor: number): Promise<void> {
  // ensureTopics takes a full topic set; a single topic goes through the same creation path.
  await kafka.admin().ensureTopics({ transactions: name } as never, { partitions, replicationFactor, retentionMs: 3_600_000 });
}

describe('startLocalKafka', () => {
  const started: LocalKafka[] = [];
  afterEach(async () => {
    // Only if a test failed half-way; a passing test has stopped its cluster already.
    await Promise.all(started.splice(0).map((k) => k.stop()));
  });

  it('starts a single node that answers admin requests, and stop leaves no process and no data', async () => {
    const kafka = await startLocalKafka();
    started.push(kafka);
    expect(kafka.brokers).toHaveLength(1);
    expect(kafka.brokers[0]).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(alive(kafka.pids[0]!)).toBe(true);
    expect(cmdline(kafka.pids[0]!)).toContain('kafka.Kafka');
    // The harness makes the run's brokers light (SLOTSTREAM_KAFKA_LIGHT=1): C1 only, serial collector.
    expect(process.env.SLOTSTREAM_KAFKA_LIGHT).toBe('1');
    expect(cmdline(kafka.pids[0]!)).toMatch(/-XX:TieredStopAtLevel=1 .*-XX:\+UseSerialGC/);
    expect(cmdline(kafka.pids[0]!)).not.toContain('UseG1GC');

    const client = createKafka({ brokers: kafka.brokers, clientId: 'launcher-test' });
    try {
      expect(await client.admin().brokerIds(10_000)).toEqual([1]);
      expect(await client.admin().listTopics()).toBeInstanceOf(Array);
    } finally {
      await client.close();
    }
    // The broker advertises the address it was started on.
    const cluster = await brokerMetadata(kafka.brokers[0]!, []);
    expect(cluster.brokers.map((b) => `${b.host}:${b.port}`)).toEqual(kafka.brokers);

    // Broker logs go to the node folder, not to the console.
    expect(readFileSync(join(kafka.dataDir, 'node-1', 'server.log'), 'utf8')).toMatch(/Kafka Server started/);

    await kafka.stop();
    expect(alive(kafka.pids[0]!)).toBe(false);
    expect(existsSync(kafka.dataDir)).toBe(false);
    await kafka.stop(); // idempotent
  });

  it('runs a 3-node quorum that replicates a topic with replication factor 3', async () => {
    const kafka = await startLocalKafka({ nodes: 3 });
    started.push(kafka);
    expect(kafka.brokers).toHaveLength(3);
    expect(new Set(kafka.pids).size).toBe(3);

    const client = createKafka({ brokers: kafka.brokers, clientId: 'launcher-test-3' });
    try {
      expect((await client.admin().brokerIds(10_000)).sort()).toEqual([1, 2, 3]);
      await createTopic(client, 'rf3', 2, 3);
    } finally {
      await client.close();
    }
    // Every broker learns of the topic on its own schedule; ask each one.
    for (const broker of kafka.brokers) {
      await waitFor(() => partitionsSeenBy(broker, (p) => p.replicas.length === 3 && p.isr.length === 3), {
        timeoutMs: 300_000,
        what: `${broker} to report rf3 fully replicated`,
      });
    }

    // The seam's producer is idempotent and waits for every in-sync replica (acks=all).
    const producer = await client.producer();
    try {
      await producer.send(Array.from({ length: 10 }, (_, i) => ({ topic: 'rf3', key: Buffer.from(`k${i}`), value: Buffer.from(`v${i}`) })));
    } finally {
      await producer.close();
    }

    const got: string[] = [];
    const consumer = await client.groupConsumer({
      groupId: 'launcher-test-3',
      topics: ['rf3'],
      onBatches: async (batches) => void got.push(...batches.flatMap((b) => b.records.map((r) => String(r.value)))),
    });
    try {
      await waitFor(() => got.length >= 10, { timeoutMs: 300_000, what: '10 records from the 3-node cluster' });
    } finally {
      await consumer.stop();
      await client.close();
    }
    expect(got.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `v${i}`).sort());

    // Crash one node: the other two keep serving; restarted, it rejoins the ISR on the same port.
    const crashed = kafka.pids[1]!;
    await kafka.stopNode(1, 'SIGKILL');
    expect(alive(crashed)).toBe(false);
    // The controller fences the dead node after its session times out and moves leadership away.
    await waitFor(() => partitionsSeenBy(kafka.brokers[0]!, (p) => p.leader !== 2 && p.leader >= 0), {
      timeoutMs: 300_000,
      what: 'leadership to move off the crashed node',
    });
    const survivor = createKafka({ brokers: [kafka.brokers[0]!, kafka.brokers[2]!], clientId: 'launcher-test-3b' });
    try {
      const p2 = await survivor.producer();
      try {
        await p2.send([{ topic: 'rf3', key: Buffer.from('after-crash'), value: Buffer.from('x') }]);
      } finally {
        await p2.close();
      }
    } finally {
      await survivor.close();
    }
    await kafka.startNode(1);
    expect(kafka.pids[1]).not.toBe(crashed);
    expect(alive(kafka.pids[1]!)).toBe(true);
    await waitFor(() => partitionsSeenBy(kafka.brokers[1]!, (p) => p.isr.length === 3), {
      timeoutMs: 300_000,
      what: 'the restarted node back in every ISR',
    });

    await kafka.stop();
    for (const pid of kafka.pids) expect(alive(pid)).toBe(false);
    expect(existsSync(kafka.dataDir)).toBe(false);
  });

  it('keepData keeps the folder, and a restart on it finds the earlier topics', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'slotstream-kafka-keep-'));
    try {
      // A light broker, as the run's (the service's JVM flags are launcher.unit.test.ts's: a G1 broker with the C2
      // compiler cost this file ~5 s of CPU more for nothing the folder depends on).
      const first = await startLocalKafka({ dataDir, keepData: true });
      started.push(first);
      const client1 = createKafka({ brokers: first.brokers, clientId: 'launcher-keep' });
      try {
        await createTopic(client1, 'kept', 1, 1);
      } finally {
        await client1.close();
      }
      await first.stop();
      expect(alive(first.pids[0]!)).toBe(false);
      expect(existsSync(join(dataDir, 'node-1', 'data', 'meta.properties'))).toBe(true);

      const second = await startLocalKafka({ dataDir, keepData: true });
      started.push(second);
      const client2 = createKafka({ brokers: second.brokers, clientId: 'launcher-keep' });
      try {
        expect(await client2.admin().listTopics()).toContain('kept');
      } finally {
        await client2.close();
      }
      await second.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('prepareLocalKafka (the install step) makes the class-data archive beside the jars once', async () => {
    // A cache of its own whose libs are the run's jars: no archive in it yet, as on a fresh clone.
    const libs = await ensureKafkaJars();
    const cache = await mkdtemp(join(tmpdir(), 'slotstream-kafka-cache-'));
    const saved = process.env.SLOTSTREAM_KAFKA_CACHE;
    try {
      await mkdir(join(cache, KAFKA_VERSION));
      await symlink(libs, join(cache, KAFKA_VERSION, 'libs'));
      process.env.SLOTSTREAM_KAFKA_CACHE = cache;
      const archive = join(cache, KAFKA_VERSION, 'broker-classes.jsa');
      expect(existsSync(archive)).toBe(false);
      expect(await prepareLocalKafka()).toBe('prepared');
      expect(statSync(archive).size).toBeGreaterThan(0);
      expect(await prepareLocalKafka()).toBe('ready');
    } finally {
      if (saved === undefined) delete process.env.SLOTSTREAM_KAFKA_CACHE;
      else process.env.SLOTSTREAM_KAFKA_CACHE = saved;
      await rm(cache, { recursive: true, force: true });
    }
  });

  for (const mode of ['hold', 'exit'] as const) {
    const how = mode === 'hold' ? 'is SIGKILLed' : 'exits without stop()';
    it(`kills the broker and removes its data when the parent process ${how}`, async () => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', join(HERE, '..', '..', 'test', 'support', 'local-kafka', 'hold-broker.ts'), mode],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      const line = await new Promise<string>((res, rej) => {
        createInterface({ input: child.stdout }).once('line', res);
        child.once('exit', (code) => rej(new Error(`fixture exited (${code}) before printing the broker`)));
      });
      const info = JSON.parse(line) as { pids: number[]; dataDir: string };
      const pid = info.pids[0]!;
      expect(cmdline(pid)).toContain('kafka.Kafka');
      if (mode === 'hold') {
        expect(alive(pid)).toBe(true);
        child.kill('SIGKILL');
      }
      await waitFor(() => !alive(pid), { timeoutMs: 300_000, what: `broker pid ${pid} to exit after its parent died` });
      await waitFor(() => !existsSync(info.dataDir), { timeoutMs: 300_000, what: `${info.dataDir} to be removed` });
    });
  }
});
