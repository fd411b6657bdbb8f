// What a Kafka client costs while its broker is away (`npx tsx bench/kafka-away.ts`): one admin call waits for the
// broker for 10 s, with librdkafka's sparse connections (its default) and without (what platform/kafka/client.ts
// sets), and this process's CPU over those 10 s is printed beside an idle client's. With sparse connections a
// request waiting for a broker re-triggered a connection attempt on every failed one, past the reconnect backoff.
import { startLocalKafka } from '../platform/local-kafka/launcher.js';
import { createAdmin } from '../platform/kafka/admin.js';
import { sleep } from '../platform/sleep.js';
import { topicNames } from '../schemas/topics.js';

const WINDOW_MS = 10_000;
const cpuSeconds = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

async function measure(sparse: boolean): Promise<{ idle: number; pending: number }> {
  const kafka = await startLocalKafka({ nodes: 1 });
  const admin = createAdmin({ brokers: kafka.brokers, clientId: `bench-away-${sparse ? 'sparse' : 'kept'}`, sparseConnections: sparse });
  const topics = topicNames(`bench-away-${Date.now()}`);
  const topic = topics.slots;
  await admin.ensureTopics(topics, { partitions: 1, replicationFactor: 1, retentionMs: -1 });
  await admin.offsetRanges(topic);
  await kafka.stop();
  let from = cpuSeconds();
  await sleep(WINDOW_MS);
  const idle = cpuSeconds() - from;
  from = cpuSeconds();
  const pending = admin.offsetRanges(topic).catch(() => undefined);
  await sleep(WINDOW_MS);
  const busy = cpuSeconds() - from;
  await pending;
  await admin.close();
  return { idle, pending: busy };
}

for (const sparse of [true, false]) {
  const r = await measure(sparse);
  console.log(
    `enable.sparse.connections=${sparse}: broker away ${WINDOW_MS / 1000} s, idle admin ${r.idle.toFixed(2)} CPU s, one call waiting ${r.pending.toFixed(2)} CPU s`,
  );
}
process.exit(0);
