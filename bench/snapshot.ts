// Snapshot, then stream (issue 23, item 1): one stream.Stream client subscribes to a program's accounts with
// `snapshot: true` and receives the state of 1,000,000 accounts. Embedded ClickHouse is filled through
// INSERT ... SELECT FROM numbers() (accounts_writes as the projector stores them, ~100 bytes of data each, written
// over 100,000 slots), the heads put at the last slot; a local Kafka broker feeds the live layer (empty topics: the
// live part starts right after the snapshot). The api (live layer, gRPC host, chdb) runs in this process; the client
// in a child process of its own (its CPU and memory are not the api's), reading raw messages (no decode but the
// first and the last: is_startup, slot). Measured once:
//   - accounts/s from the request to the last snapshot account, and from the first account to the last;
//   - the api process's RSS growth over the snapshot (chdb's memory included: it runs in this process);
//   - the api process's CPU seconds (chdb's threads included) and accounts per api CPU second, and the client's CPU
//     seconds: on a loaded, shared machine the steadier figures;
//   - load average before and after.
// Run: npm run bench:snapshot (npx tsx bench/snapshot.ts). Env: BENCH_SNAPSHOT_ACCOUNTS (1000000),
// BENCH_KAFKA_BROKERS (an existing broker instead of a local one), BENCH_KEEP=1 keeps the data folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { SubscribeRequest, SubscribeUpdate } from '../proto/gen/stream.js';
import { createClickHouse, type ClickHouseClient } from '../platform/clickhouse.js';
import { createKafka } from '../platform/kafka/index.js';
import { benchBrokers } from './support/brokers.js';
import { silentLogger } from '../platform/log.js';
import { applyMigrations } from '../platform/migrations.js';
import { topicNames } from '../schemas/topics.js';
import { streamRequest } from '../test/support/filters/stream-request.js';
import { startTestGrpc } from '../test/support/grpc/server.js';
import { key } from '../test/support/jsonrpc/store.js';
import { startWorker } from './support/workers.js';

const ACCOUNTS = Number(process.env.BENCH_SNAPSHOT_ACCOUNTS ?? 1_000_000);
const DB = 'bench_snapshot';
const FIRST_SLOT = 1_000_000;
const SLOTS = 100_000;
const LAST_SLOT = FIRST_SLOT + SLOTS - 1;
const PROGRAM = key(7, 33);
/** Messages shorter than this are pings. */
const PING_BYTES = 40;
const say = (msg: string): void => void process.stderr.write(`[bench:snapshot] ${msg}\n`);
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Pubkey bytes of row n: 8 hash bytes (spread over the key space), the 8-byte counter (unique), 16 filler. */
const PUBKEY_SQL = `base58Encode(unhex(concat(hex(sipHash64(number, 's')), leftPad(hex(number), 16, '0'), repeat('ab', 16))))`;

async function fill(ch: ClickHouseClient): Promise<void> {
  const t0 = performance.now();
  await ch.command({
    query: `INSERT INTO {db:Identifier}.account_writes (pubkey, slot, write_version, owner, lamports, executable, rent_epoch, space, data)
            SELECT ${PUBKEY_SQL}, {first:UInt64} + number % {slots:UInt64}, number, {program:String}, 1000000 + number, false,
                   18446744073709551615, 100, base64Encode(concat(reinterpretAsFixedString(number), repeat('d', 92)))
            FROM numbers({rows:UInt64})`,
    query_params: { db: DB, first: FIRST_SLOT, slots: SLOTS, program: PROGRAM, rows: ACCOUNTS },
  });
  // Merge the parts now: a background merge during the snapshot would count as the snapshot's memory and CPU.
  await ch.command({ query: 'OPTIMIZE TABLE {db:Identifier}.account_writes FINAL', query_params: { db: DB } });
  await ch.insert({
    table: `${DB}.heads`,
    columns: ['commitment', 'slot'],
    format: 'JSONEachRow',
    values: ['processed', 'confirmed', 'finalized'].map((commitment) => ({ commitment, slot: String(LAST_SLOT) })),
  });
  say(`filled ${ACCOUNTS} accounts in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

interface ClientResult {
  accounts: number;
  firstMs: number;
  lastMs: number;
  first: { slot: string; isStartup: boolean };
  last: { slot: string; isStartup: boolean };
  /** The client process's CPU seconds over the stream. */
  cpuS: number;
  error?: string;
}

/** The client process: one Subscribe with a snapshot, raw messages counted until `want` arrived. */
async function client(port: number, want: number): Promise<ClientResult> {
  const c = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), { 'grpc.max_receive_message_length': -1 });
  const call = c.makeBidiStreamRequest<Buffer, Buffer>(
    '/stream.Stream/Subscribe',
    (b) => b,
    (b) => b,
  );
  const req = streamRequest({ accounts: { p: { owner: [PROGRAM] } }, snapshot: true });
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const cpuS = (): number => {
    const d = process.cpuUsage(cpu0);
    return (d.user + d.system) / 1e6;
  };
  let n = 0;
  let firstMs = 0;
  let firstMsg: Buffer | undefined;
  return new Promise<ClientResult>((resolve) => {
    const summary = (m: Buffer | undefined) => {
      const u = m ? SubscribeUpdate.decode(m).updateOneof : undefined;
      const a = u?.$case === 'account' ? u.value : undefined;
      return { slot: String(a?.slot ?? ''), isStartup: a?.isStartup ?? false };
    };
    call.on('data', (m: Buffer) => {
      if (n === 0) {
        firstMs = performance.now() - t0;
        firstMsg = m;
      }
      if (m.length < PING_BYTES) return; // a server ping (an account update carries 32-byte keys and its data)
      if (++n === want) {
        const lastMs = performance.now() - t0;
        resolve({ accounts: n, firstMs, lastMs, first: summary(firstMsg), last: summary(m), cpuS: cpuS() });
        call.cancel();
        c.close();
      }
    });
    call.on('error', (e: grpc.ServiceError) => {
      if (e.code !== grpc.status.CANCELLED)
        resolve({
          accounts: n,
          firstMs,
          lastMs: performance.now() - t0,
          first: summary(firstMsg),
          last: summary(undefined),
          cpuS: cpuS(),
          error: e.details,
        });
    });
    call.write(Buffer.from(SubscribeRequest.encode(req).finish()));
  });
}

async function main(): Promise<void> {
  const { brokers, local } = await benchBrokers(say);
  const dir = mkdtempSync(join(tmpdir(), 'bench-snapshot-'));
  const kafka = createKafka({ brokers, clientId: 'bench-snapshot' });
  const topics = topicNames(`bench.snapshot.${Date.now().toString(36)}`);
  const ch = await createClickHouse({ dataDir: dir, database: DB });
  try {
    await kafka.admin().ensureTopics(topics, { partitions: 1, retentionMs: -1, replicationFactor: 1 });
    await applyMigrations(ch, DB);
    await fill(ch);
    const server = await startTestGrpc({
      kafka,
      topics,
      ch,
      database: DB,
      host: '127.0.0.1',
      port: 0,
      pingIntervalMs: 10_000,
      queueSize: 10_000,
      log: silentLogger,
    });
    const { w } = await startWorker(new URL(import.meta.url), 'client', {});
    try {
      global.gc?.();
      const rss0 = process.memoryUsage().rss;
      let peak = rss0;
      let heapPeak = process.memoryUsage().heapUsed;
      const sampler = setInterval(() => {
        const m = process.memoryUsage();
        peak = Math.max(peak, m.rss);
        heapPeak = Math.max(heapPeak, m.heapUsed);
      }, 50);
      const loadBefore = load();
      const cpu0 = process.cpuUsage();
      const r = await w.request<ClientResult>({ port: server.port, want: ACCOUNTS }, 'result');
      clearInterval(sampler);
      const cpu = process.cpuUsage(cpu0);
      const apiCpuS = (cpu.user + cpu.system) / 1e6;
      peak = Math.max(peak, process.memoryUsage().rss);
      if (r.error) throw new Error(`stream failed after ${r.accounts} accounts: ${r.error}`);
      const total = r.accounts / (r.lastMs / 1000);
      const streamed = r.accounts / ((r.lastMs - r.firstMs) / 1000);
      console.log(
        `snapshot accounts=${r.accounts} total_s=${(r.lastMs / 1000).toFixed(2)} accounts_per_s=${total.toFixed(0)} ` +
          `first_account_ms=${r.firstMs.toFixed(0)} accounts_per_s_after_first=${streamed.toFixed(0)} ` +
          `api_rss_growth_mb=${((peak - rss0) / 2 ** 20).toFixed(0)} api_rss_start_mb=${(rss0 / 2 ** 20).toFixed(0)} ` +
          `api_js_heap_peak_mb=${(heapPeak / 2 ** 20).toFixed(0)} api_cpu_s=${apiCpuS.toFixed(1)} ` +
          `accounts_per_api_cpu_s=${(r.accounts / apiCpuS).toFixed(0)} client_cpu_s=${r.cpuS.toFixed(1)} ` +
          `first=${JSON.stringify(r.first)} last=${JSON.stringify(r.last)}`,
      );
      console.log(
        `machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, node ${process.version}, load avg before ${loadBefore}, after ${load()}`,
      );
    } finally {
      w.proc.kill('SIGKILL');
      await server.close();
    }
  } finally {
    await kafka
      .admin()
      .deleteTopics(Object.values(topics))
      .catch(() => undefined);
    await kafka.close();
    await ch.close();
    if (process.env.BENCH_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
    await local?.stop();
  }
}

if (process.argv[2] === 'client') {
  process.on('message', (m: { port: number; want: number }) => {
    void client(m.port, m.want).then((result) => process.send!({ result }));
  });
  process.send!({ ready: true });
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
