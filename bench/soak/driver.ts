// The soak (issue 22): the whole service (`slotstream all`, local broker, embedded ClickHouse) fed by a local
// Yellowstone upstream replaying a mainnet-shaped recording at the chain's pace (upstream.ts, recording.ts,
// shape.ts), with clients on every interface in processes of their own (client-worker.ts). Once a second it
// samples how far each role trails the chain (the upstream's tip against the ingest's last slot from /metrics,
// the views' processed slot from JSON-RPC getSlot, the newest slot each client process saw), end-to-end
// latencies, CPU and RSS of every process (/proc), and every 15 s the bytes on disk of Kafka and ClickHouse.
// It prints a line per minute and one summary line per run (stats.ts summaryLine).
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startAll, type AllProcess } from '../../test/support/cli/all-process.js';
import { startIngestProcess, type IngestProcess } from './ingest-process.js';
import { startWorker, stopWorker, type Worker } from '../support/workers.js';
import type { ClientSample } from './client-worker.js';
import { childPids, procUsage } from './proc.js';
import { ensureRecording, recordingPath } from './recording.js';
import type { StreamStart, UpstreamStats } from './schedule.js';
import { loadShape, MAINNET, slotsFor } from './shape.js';
import { percentile, slope, STAGES, summaryLine, type SoakSummary, type Stage } from './stats.js';

export interface SoakOptions {
  /** Load as a multiple of mainnet (shape.ts). */
  multiple: number;
  /** Measured minutes (after the service serves and the clients are connected). */
  minutes: number;
  /** Where recordings are kept between runs (made once per multiple and length). */
  recordingDir: string;
  /** gRPC streams (half stream.Stream, half geyser.Geyser), PubSub subscriptions, JSON-RPC requests per second. */
  grpcStreams?: number;
  pubsubSubscriptions?: number;
  rpcPerSecond?: number;
  /** Longest wait for the views to answer (a finalized slot) before measuring, default 120 s. */
  warmupSeconds?: number;
  /** Replays the recording this many times faster than the chain (slots of 400/speedup ms): `multiple` is then
   * made of a recording at multiple/speedup (one recording serves several multiples; trails are in these shorter
   * slots). Default 1. */
  speedup?: number;
  /** Slots to record (default: enough for `minutes` plus `spareSeconds`); a run ends early when they are used up. */
  recordingSlots?: number;
  /** Recorded seconds beyond `minutes` (the service starts and warms up while the upstream already sends), default 90. */
  spareSeconds?: number;
  /** The ingest in a process of its own (`slotstream ingest` beside `slotstream all --source none`, which keeps
   * the projector and the api together: they share one embedded ClickHouse), instead of all roles in one. */
  split?: boolean;
  /** `exclude`: the ingest drops vote transactions and vote-account writes (`--votes exclude`, issue 33 item 4), as a
   * deployment that serves no votes runs; the upstream still sends them. Default `include`. */
  votes?: 'include' | 'exclude';
  /** How the ingest publishes the upstream's slots (`--yellowstone-publish`): `slots` (default) or `pieces`. */
  publish?: 'slots' | 'pieces';
  log?: (line: string) => void;
}

export interface MinuteRow {
  minute: number;
  trail: Record<string, { p50: number; p99: number }>;
  e2e: Record<string, { p50: number; p99: number; n: number }>;
  /** geyser.Geyser transactions' e2e in its parts (stats.ts STAGES): the slot's wait, the ingest to the api's read,
   * the api to the client. */
  stages: Record<Stage, { p50: number; p99: number }>;
  rpcMs: { p50: number; p99: number; n: number };
  cpuCores: Record<string, number>;
  rssMb: Record<string, number>;
  upstreamLateP99Ms: number;
  /** The service's event loop lag (prom-client's p99 over its window), the largest sample of the minute. */
  eventLoopLagP99Ms: number;
  /** Per Node process of the service (service, stream_<pid>, ingest): its main thread's busy share (perf_hooks
   * event-loop utilization, the minute's mean) and its event loop lag p99 (the largest per-second p99). */
  mainThreadBusy: Record<string, number>;
  loopLagP99Ms: Record<string, number>;
  /** JSON-RPC -32429 refusals in the minute. */
  rpcRefused: number;
}

export interface SoakResult {
  summary: SoakSummary;
  line: string;
  minutes: MinuteRow[];
  /** Bytes on disk at the end and their growth per hour over the measured window. */
  disk: {
    kafkaBytes: number;
    clickhouseBytes: number;
    kafkaGbPerHour: number;
    clickhouseGbPerHour: number;
    /** Per day of the chain at this multiple (bytes per published slot x slots a day). */
    kafkaGbPerDay: number;
    clickhouseGbPerDay: number;
  };
  /** CPU each process needs to keep the chain's pace (CPU seconds per published slot x slots per second). */
  coresAtPace: Record<string, number>;
  rssSlopeMbPerHour: Record<string, number>;
  cpuCores: Record<string, number>;
  deadLetters: number;
  cutoffs: { grpc: number; pubsub: number };
  errorTexts: string[];
  warnings: number;
  /** JSON-RPC answers -32007/-32016 (the views trail too far). */
  rpcBehind: number;
  /** JSON-RPC -32429 refusals over the run. */
  rpcRefused: number;
  /** Each Node process's main-thread busy share over the run. */
  mainThreadBusy: Record<string, number>;
}

const CLIENT_ROLES = ['stream', 'geyser', 'pubsub', 'jsonrpc'] as const;
type ClientRole = (typeof CLIENT_ROLES)[number];
const SCRIPT = (name: string): URL => new URL(`./${name}`, import.meta.url);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const run = promisify(execFile);
/** Where the ingest process's metrics start in the joined text (split mode). */
const INGEST_METRICS = '\n# the ingest process\n';

/** A metric's value summed over its label sets (0 when absent). */
export function metricSum(text: string, name: string): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name) || (line[name.length] !== ' ' && line[name.length] !== '{')) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

async function diskBytes(dir: string, exclude?: string): Promise<number> {
  try {
    // Blocks in use, not apparent sizes: Kafka preallocates its index files sparse (10 MB each per segment).
    const { stdout } = await run('du', ['-sk', ...(exclude ? [`--exclude=${exclude}`] : []), dir]);
    return Number(stdout.split('\t')[0]) * 1024;
  } catch (e) {
    // du exits 1 when a file goes away during its walk (ClickHouse drops merged parts all the time) but still
    // prints the total of what it saw: that total is the figure (a CI run of 16:21 read 0 bytes here).
    const stdout = (e as { stdout?: string }).stdout ?? '';
    const kb = Number(stdout.split('\t')[0]);
    return stdout && Number.isFinite(kb) ? kb * 1024 : 0;
  }
}

/** Every descendant of `pid` (the service's Kafka broker is its child). */
function descendants(pid: number): number[] {
  const out: number[] = [];
  for (const c of childPids(pid)) out.push(c, ...descendants(c));
  return out;
}

export async function runSoak(o: SoakOptions): Promise<SoakResult> {
  const log = o.log ?? ((l: string) => process.stdout.write(`${l}\n`));
  const speedup = o.speedup ?? 1;
  const slotMs = MAINNET.slotMs / speedup;
  const shape = loadShape(o.multiple / speedup, o.recordingSlots ?? Math.ceil(slotsFor(o.minutes, o.spareSeconds ?? 90) * speedup));
  const file = recordingPath(o.recordingDir, shape);
  const index = await ensureRecording(file, shape, log);
  const m = index.mix;
  log(
    `soak load: ${o.multiple}x mainnet = ${shape.tps * speedup} tx/s (recorded at ${shape.tps} tx/s, replayed ${speedup}x faster), ` +
      `${m.slots} slots (${m.blocks} blocks), votes ${((100 * m.votes) / m.transactions).toFixed(1)}%, ` +
      `${(m.accountWrites / m.transactions).toFixed(2)} account writes/tx, ${(m.entries / m.blocks).toFixed(0)} entries/block, ` +
      `${(((Object.values(m.bytes).reduce((a, b) => a + b, 0) / m.slots) * (1000 / slotMs)) / 1e6).toFixed(1)} MB/s upstream`,
  );
  const dataDir = await mkdtemp(path.join(tmpdir(), 'slotstream-soak-'));
  const stops: (() => Promise<unknown>)[] = [];
  const starts: StreamStart[] = [];
  const clients = new Map<ClientRole, Worker>();
  try {
    const up = await startWorker(SCRIPT('upstream.ts'), 'upstream', { SOAK_RECORDING: file, SOAK_SLOT_MS: String(slotMs) });
    stops.push(() => stopWorker(up.w));
    up.w.proc.on('message', (msg: { started?: StreamStart }) => {
      if (!msg.started) return;
      log(`soak: the upstream starts a stream (from_slot ${msg.started.fromSlot ?? 'none'})`);
      starts.push(msg.started);
      for (const c of clients.values()) c.proc.send({ cmd: 'start', start: msg.started });
    });
    const source = [
      '--source',
      'yellowstone',
      '--yellowstone-url',
      `http://127.0.0.1:${up.port}`,
      ...(o.votes === 'exclude' ? ['--votes', 'exclude'] : []),
      ...(o.publish === 'pieces' ? ['--yellowstone-publish', 'pieces'] : []),
    ];
    if (o.publish === 'pieces') log('soak: the ingest publishes slots in pieces (--yellowstone-publish pieces)');
    if (o.votes === 'exclude') log('soak: the ingest excludes votes (--votes exclude)');
    // SOAK_SERVICE_NODE_ARGS: node flags for the service (`--cpu-prof --cpu-prof-dir=<dir>`: where its main thread goes).
    const nodeArgs = (process.env.SOAK_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const all: AllProcess = await startAll(dataDir, [...(o.split ? ['--source', 'none'] : source), '--keep-kafka-data', 'true'], nodeArgs);
    stops.push(() => all.stop());
    let ingest: IngestProcess | undefined;
    if (o.split) {
      ingest = await startIngestProcess(all.output(), source);
      stops.push(() => ingest!.stop());
    }
    log(
      `soak: slotstream all serves (pid ${all.child.pid})${ingest ? `, its ingest apart (pid ${ingest.child.pid})` : ''}; starting clients`,
    );
    const grpcStreams = o.grpcStreams ?? 100;
    const envs: Record<ClientRole, Record<string, string>> = {
      stream: { SOAK_PORT: String(all.ports.grpc), SOAK_CLIENTS: String(Math.ceil(grpcStreams / 2)) },
      geyser: { SOAK_PORT: String(all.ports.grpc), SOAK_CLIENTS: String(Math.floor(grpcStreams / 2)) },
      pubsub: { SOAK_PORT: String(all.ports.pubsub), SOAK_CLIENTS: String(o.pubsubSubscriptions ?? 100) },
      jsonrpc: { SOAK_PORT: String(all.ports.rpc), SOAK_RPC_RPS: String(o.rpcPerSecond ?? 20) },
    };
    for (const role of CLIENT_ROLES) {
      const c = await startWorker(SCRIPT('client-worker.ts'), role, {
        ...envs[role],
        SOAK_INDEX: `${file}.json`,
        SOAK_SLOT_MS: String(slotMs),
        SOAK_PUBLISH: o.publish ?? 'slots',
      });
      clients.set(role, c.w);
      stops.push(() => stopWorker(c.w));
      for (const s of starts) c.w.proc.send({ cmd: 'start', start: s });
    }
    // Warm-up: JSON-RPC answers (and the views can be measured) once the views hold a finalized slot (32 slots
    // after the first block, api/views/state.ts); the run measures from then, or from the warm-up's limit.
    const warmupEnd = Date.now() + (o.warmupSeconds ?? 120) * 1000;
    while (
      Date.now() < warmupEnd &&
      typeof (await all.rpc('getSlot', [{ commitment: 'processed' }]).catch(() => ({ result: undefined }))).result !== 'number'
    ) {
      await sleep(1000);
    }
    log(`soak: warm-up over after ${Math.round((Date.now() - warmupEnd) / 1000 + (o.warmupSeconds ?? 120))} s; measuring`);
    return await measure(o, log, all, ingest, up.w, clients, dataDir);
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  }
}

interface Sample {
  t: number;
  trail: Record<string, number>;
  e2e: Record<string, number[]>;
  stages: Record<Stage, number[]>;
  rpcMs: number[];
  rpcRefused: number;
  cpu: Record<string, number>;
  rss: Record<string, number>;
  lateMs: number[];
  loopLagMs: number;
  /** Per Node process: main-thread busy share and event loop lag p99 (ms) of the second. */
  busy: Record<string, number>;
  lagMs: Record<string, number>;
}

/** The stream processes `slotstream all` runs (issue 33), from its log: pid -> own metrics port, alive ones. */
export function streamProcessesOf(lines: readonly Record<string, unknown>[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const l of lines) {
    if (l.msg === 'stream processes are serving') {
      const pids = l.pids as number[];
      (l.metricsPorts as number[]).forEach((port, i) => out.set(pids[i]!, port));
    } else if (l.msg === 'stream process restarted') out.set(l.pid as number, l.metricsPort as number);
    else if (l.msg === 'stream process died: starting another') out.delete(l.pid as number);
  }
  return out;
}

/** `slotstream all`'s ingest process (with stream processes, issue 33), from its log: pid and own metrics port. */
export function ingestProcessOf(lines: readonly Record<string, unknown>[]): { pid: number; metricsPort: number } | undefined {
  let out: { pid: number; metricsPort: number } | undefined;
  for (const l of lines) if (l.msg === 'ingest process is serving') out = { pid: l.pid as number, metricsPort: l.metricsPort as number };
  return out;
}

/** The JSON lines of a log text. */
function jsonLines(text: string): Record<string, unknown>[] {
  return text.split('\n').flatMap((l) => {
    if (!l.startsWith('{')) return [];
    try {
      return [JSON.parse(l) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

async function measure(
  o: SoakOptions,
  log: (line: string) => void,
  all: AllProcess,
  ingest: IngestProcess | undefined,
  up: Worker,
  clients: Map<ClientRole, Worker>,
  dataDir: string,
): Promise<SoakResult> {
  // The stream processes' log lines, read as they come (the output only grows).
  let logRead = 0;
  const workerLines: Record<string, unknown>[] = [];
  const streamProcesses = (): Map<number, number> => {
    const text = all.output();
    const cut = text.lastIndexOf('\n') + 1;
    if (cut > logRead) {
      workerLines.push(...jsonLines(text.slice(logRead, cut)).filter((l) => /^(stream|ingest) process/.test(String(l.msg))));
      logRead = cut;
    }
    return streamProcessesOf(workerLines);
  };
  const pids = (): Record<string, number[]> => {
    const service = all.child.pid!;
    const workers = [...streamProcesses().keys()];
    const child = ingestProcessOf(workerLines);
    const own = child ? [...workers, child.pid] : workers;
    const out: Record<string, number[]> = {
      service: [service],
      kafka: descendants(service).filter((p) => !own.includes(p)),
      upstream: [up.proc.pid!],
    };
    for (const w of workers) out[`stream_${w}`] = [w];
    if (ingest) out.ingest = [ingest.child.pid!];
    else if (child) out.ingest = [child.pid];
    for (const [role, w] of clients) out[`client_${role}`] = [w.proc.pid!];
    return out;
  };
  const usage = (ps: Record<string, number[]>): { cpu: Record<string, number>; rss: Record<string, number> } => {
    const cpu: Record<string, number> = {};
    const rss: Record<string, number> = {};
    for (const [name, list] of Object.entries(ps)) {
      cpu[name] = 0;
      rss[name] = 0;
      for (const pid of list) {
        const u = procUsage(pid);
        cpu[name] += u?.cpuSeconds ?? 0;
        rss[name] += u?.rssMb ?? 0;
      }
    }
    return { cpu, rss };
  };
  const disk = async (): Promise<{ kafka: number; clickhouse: number }> => {
    // Each store measured on its own: the data folder's total minus Kafka's, taken by two walks at two moments,
    // went negative when the broker wrote between them (a CI run of the soak test).
    const kafka = await diskBytes(path.join(dataDir, 'kafka'));
    return { kafka, clickhouse: await diskBytes(dataDir, 'kafka') };
  };
  // Both processes' metrics, one text: their names do not overlap apart from the process metrics, which no
  // figure here sums (the ingest's last slot comes from the process that ingests).
  const metricsOf = async (port: number): Promise<string> => {
    try {
      return await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    } catch {
      return '';
    }
  };
  /** Each Node process's main-thread busy share and event loop lag p99 (ms) over the last second. */
  const threads = async (serviceText: string): Promise<{ busy: Record<string, number>; lagMs: Record<string, number> }> => {
    const texts: [string, string][] = [['service', serviceText.split(INGEST_METRICS)[0]!]];
    if (ingest) texts.push(['ingest', serviceText.split(INGEST_METRICS)[1] ?? '']);
    const workers = [...streamProcesses()];
    const child = ingestProcessOf(workerLines);
    if (!ingest && child) texts.push(['ingest', await metricsOf(child.metricsPort)]);
    const scraped = await Promise.all(workers.map(([, port]) => metricsOf(port)));
    workers.forEach(([pid], i) => texts.push([`stream_${pid}`, scraped[i]!]));
    const busy: Record<string, number> = {};
    const lagMs: Record<string, number> = {};
    for (const [name, text] of texts) {
      if (text === '') continue;
      busy[name] = metricSum(text, 'slotstream_event_loop_utilization');
      lagMs[name] = metricSum(text, 'nodejs_eventloop_lag_p99_seconds') * 1000;
    }
    return { busy, lagMs };
  };
  const metrics = async (): Promise<string> => {
    const texts = await Promise.all([all.ports.metrics, ...(ingest ? [ingest.metricsPort] : [])].map(metricsOf));
    return texts.some((t) => t === '') ? '' : texts.join(INGEST_METRICS);
  };

  // What the clients and the upstream gathered during the warm-up is not the run's.
  await Promise.all([
    up.request({ cmd: 'stats' }, 'stats'),
    ...CLIENT_ROLES.map((r) => clients.get(r)!.request({ cmd: 'sample' }, 'sample')),
  ]);
  const startedAt = Date.now();
  const endAt = startedAt + o.minutes * 60_000;
  const disk0 = await disk();
  let ingestSlot = metricSum(await metrics(), 'slotstream_ingest_last_slot');
  // [hours since start, Kafka bytes, ClickHouse bytes, the ingest's last slot]
  const diskPoints: [number, number, number, number][] = [[0, disk0.kafka, disk0.clickhouse, ingestSlot]];
  const cpu0 = usage(pids()).cpu;
  const ingestSlot0 = ingestSlot;
  let prev = usage(pids());
  let prevT = Date.now();
  const samples: Sample[] = [];
  const rows: MinuteRow[] = [];
  let lastClient = new Map<ClientRole, ClientSample>();
  let metricsText = '';
  const trace: string[] = [];
  for (let second = 1; Date.now() < endAt; second++) {
    await sleep(Math.max(0, startedAt + second * 1000 - Date.now()));
    const [upStats, text, views, ...clientSamples] = await Promise.all([
      up.request<UpstreamStats>({ cmd: 'stats' }, 'stats'),
      metrics(),
      all.rpc('getSlot', [{ commitment: 'processed' }]).catch(() => ({ result: undefined })),
      ...CLIENT_ROLES.map((r) => clients.get(r)!.request<ClientSample>({ cmd: 'sample' }, 'sample')),
    ]);
    if (text) {
      metricsText = text;
      ingestSlot = metricSum(text, 'slotstream_ingest_last_slot');
    }
    lastClient = new Map(CLIENT_ROLES.map((r, i) => [r, clientSamples[i]!]));
    const thread = await threads(text);
    const now = Date.now();
    const u = usage(pids());
    const cpu: Record<string, number> = {};
    for (const k of Object.keys(u.cpu)) cpu[k] = Math.max(0, (u.cpu[k]! - (prev.cpu[k] ?? 0)) / ((now - prevT) / 1000));
    prev = u;
    prevT = now;
    const tip = upStats.tip;
    const trail: Record<string, number> = {};
    if (tip >= 0) {
      trail.ingest = tip - metricSum(text, 'slotstream_ingest_last_slot');
      if (typeof views.result === 'number') trail.views = tip - views.result;
      for (const [role, s] of lastClient) if (role !== 'jsonrpc' && s.tip >= 0) trail[role] = tip - s.tip;
    }
    trace.push(
      JSON.stringify({
        t: now,
        tip,
        ingest: metricSum(text, 'slotstream_ingest_last_slot'),
        views: views.result ?? null,
        trail,
        cpu,
        late: upStats.lateMs,
      }),
    );
    samples.push({
      t: now,
      trail,
      e2e: Object.fromEntries([...lastClient].filter(([r]) => r === 'geyser' || r === 'pubsub').map(([r, s]) => [r, s.e2eMs])),
      stages: lastClient.get('geyser')!.stagesMs,
      rpcMs: lastClient.get('jsonrpc')!.requestMs,
      rpcRefused: lastClient.get('jsonrpc')!.refused,
      busy: thread.busy,
      lagMs: thread.lagMs,
      cpu,
      rss: u.rss,
      lateMs: upStats.lateMs,
      loopLagMs: metricSum(text.split(INGEST_METRICS)[0]!, 'nodejs_eventloop_lag_p99_seconds') * 1000,
    });
    if (second % 15 === 0) {
      const d = await disk();
      diskPoints.push([(Date.now() - startedAt) / 3_600_000, d.kafka, d.clickhouse, ingestSlot]);
    }
    if (second % 60 === 0 || Date.now() >= endAt) {
      const row = minuteRow(
        rows.length + 1,
        samples.filter((s) => s.t > (rows.length === 0 ? 0 : startedAt + rows.length * 60_000)),
      );
      rows.push(row);
      log(minuteLine(row));
    }
    if (upStats.ended) {
      log('soak: the recording is used up; ending the run early');
      break;
    }
  }
  const d = await disk();
  diskPoints.push([(Date.now() - startedAt) / 3_600_000, d.kafka, d.clickhouse, ingestSlot]);
  const cpuEnd = usage(pids()).cpu;
  const hours = (Date.now() - startedAt) / 3_600_000;

  const all99 = (key: string): number =>
    percentile(
      samples.flatMap((s) => (s.trail[key] === undefined ? [] : [s.trail[key]!])),
      99,
    );
  const e2eAll = samples.flatMap((s) => Object.values(s.e2e).flat());
  const names = [...new Set(samples.flatMap((s) => Object.keys(s.cpu)))];
  const cpuCores = Object.fromEntries(
    names.map((n) => [n, samples.reduce((a, s) => a + (s.cpu[n] ?? 0), 0) / Math.max(1, samples.length)]),
  );
  const mainThreadBusy = meanOf(samples.map((s) => s.busy));
  const busiest = Object.entries(mainThreadBusy).reduce<[string, number] | undefined>(
    (m, e) => (m === undefined || e[1] > m[1] ? e : m),
    undefined,
  );
  const [busiestName, busiestShare] = busiest ?? ['none', NaN];
  const rpcRefused = samples.reduce((a, s) => a + s.rpcRefused, 0);
  const rssSlopeMbPerHour = Object.fromEntries(
    names.map((n) => [n, slope(samples.map((s) => [(s.t - startedAt) / 3_600_000, s.rss[n] ?? 0]))]),
  );
  const kafkaGbPerHour = slope(diskPoints.map((p) => [p[0], p[1]])) / 1e9;
  const clickhouseGbPerHour = slope(diskPoints.map((p) => [p[0], p[2]])) / 1e9;
  // Per day of the chain at this multiple: bytes and CPU per slot the ingest published, times the slots of a day
  // at the chain's pace (a service that trails still tells what a day costs; NaN when it published < 2 slots).
  const slotsPerDay = (86_400_000 / MAINNET.slotMs) * (o.speedup ?? 1);
  const ingested = ingestSlot - ingestSlot0;
  const perSlot = (i: 1 | 2): number => (ingested >= 2 ? slope(diskPoints.map((p) => [p[3], p[i]])) : NaN);
  const kafkaGbPerDay = (perSlot(1) * slotsPerDay) / 1e9;
  const clickhouseGbPerDay = (perSlot(2) * slotsPerDay) / 1e9;
  const cpuSecondsPerSlot = Object.fromEntries(
    Object.keys(cpuEnd).map((n) => [n, ingested >= 2 ? ((cpuEnd[n] ?? 0) - (cpu0[n] ?? 0)) / ingested : NaN]),
  );
  const coresAtPace = Object.fromEntries(Object.entries(cpuSecondsPerSlot).map(([n, c]) => [n, (c * slotsPerDay) / 86_400]));

  const out = all.output() + (ingest ? ingest.output() : '');
  const allLog = path.join(o.recordingDir, 'last-run.all.log');
  await writeFile(allLog, out);
  await writeFile(path.join(o.recordingDir, 'last-run.samples.jsonl'), trace.join('\n') + '\n');
  await writeFile(path.join(o.recordingDir, 'last-run.metrics.txt'), metricsText);
  log(`soak: slotstream all's output, the samples and the last /metrics are in ${o.recordingDir}/last-run.*`);
  const lines = out.split('\n');
  const levelOf = (l: string): number => Number(/"level":(\d+)/.exec(l)?.[1] ?? 0);
  const errorLines = lines.filter((l) => levelOf(l) >= 50);
  const warnings = lines.filter((l) => levelOf(l) === 40).length;
  const deadLetters =
    lines.filter((l) => l.includes('dead-lettered')).length +
    metricSum(metricsText, 'slotstream_ingest_dead_letters_total') +
    metricSum(metricsText, 'slotstream_ingest_unconvertible_total');
  const cutoffs = {
    grpc: metricSum(metricsText, 'slotstream_grpc_slow_client_cutoffs_total'),
    pubsub: metricSum(metricsText, 'slotstream_pubsub_slow_client_closes_total'),
  };
  const clientErrors = [...lastClient.values()].reduce((a, s) => a + s.errors, 0);
  const rpcBehind = lastClient.get('jsonrpc')?.behind ?? 0;
  const errorTexts = [...errorLines.slice(0, 5), ...[...lastClient.values()].flatMap((s) => s.errorTexts)];
  const gone = (c: { exitCode: number | null; signalCode: NodeJS.Signals | null }) => c.exitCode !== null || c.signalCode !== null;
  const exited = gone(all.child) || (ingest !== undefined && gone(ingest.child));
  if (gone(all.child)) errorTexts.push(`slotstream all exited during the run (${all.child.exitCode ?? all.child.signalCode})`);
  if (ingest && gone(ingest.child))
    errorTexts.push(`slotstream ingest exited during the run (${ingest.child.exitCode ?? ingest.child.signalCode})`);
  const summary: SoakSummary = {
    multiple: o.multiple,
    minutes: Math.round(hours * 60 * 10) / 10,
    ingestLagP99Slots: all99('ingest'),
    viewsLagP99Slots: all99('views'),
    e2eP99Ms: percentile(e2eAll, 99),
    // slotstream's own processes: the engine, its stream processes, the broker, a split ingest.
    cpuCores: Object.entries(cpuCores).reduce(
      (a, [n, c]) => a + (n === 'service' || n === 'kafka' || n === 'ingest' || n.startsWith('stream_') ? c : 0),
      0,
    ),
    rssSlopeMbPerH: rssSlopeMbPerHour.service ?? 0,
    diskGbPerDay: kafkaGbPerDay + clickhouseGbPerDay,
    cutoffs: cutoffs.grpc + cutoffs.pubsub,
    errors: errorLines.length + clientErrors + deadLetters + (exited ? 1 : 0),
    rpcP99Ms: percentile(
      samples.flatMap((s) => s.rpcMs),
      99,
    ),
    busiestThread: { process: busiestName, share: busiestShare },
  };
  const line = summaryLine(summary);
  log(
    `soak detail: cpu_cores ${fmtMap(cpuCores, 2)}; rss_slope_mb_per_h ${fmtMap(rssSlopeMbPerHour, 0)}; ` +
      `ingest published ${ingested} slots in ${(hours * 60).toFixed(1)} min (the chain's pace: ${((hours * 3_600_000) / (MAINNET.slotMs / (o.speedup ?? 1))).toFixed(0)}); ` +
      `kafka ${(d.kafka / 1e6).toFixed(0)} MB (+${(kafkaGbPerHour * 24).toFixed(1)} GB per day of this run, ${kafkaGbPerDay.toFixed(1)} GB per day of the chain), ` +
      `clickhouse ${(d.clickhouse / 1e6).toFixed(0)} MB (+${(clickhouseGbPerHour * 24).toFixed(1)} GB per day of this run, ${clickhouseGbPerDay.toFixed(1)} GB per day of the chain); ` +
      `CPU s per published slot ${fmtMap(cpuSecondsPerSlot, 2)} (cores at the chain's pace ${fmtMap(coresAtPace, 2)}); dead letters ${deadLetters}; cutoffs grpc ${cutoffs.grpc} pubsub ${cutoffs.pubsub}; ` +
      `error lines ${errorLines.length}, client errors ${clientErrors}, ` +
      `JSON-RPC answers saying the views trail too far ${rpcBehind}, refused (-32429) ${rpcRefused}, warnings ${warnings}; ` +
      `main thread busy share ${fmtMap(mainThreadBusy, 2)}`,
  );
  for (const t of errorTexts.slice(0, 10)) log(`soak error: ${t.slice(0, 400)}`);
  log(line);
  return {
    summary,
    line,
    minutes: rows,
    disk: { kafkaBytes: d.kafka, clickhouseBytes: d.clickhouse, kafkaGbPerHour, clickhouseGbPerHour, kafkaGbPerDay, clickhouseGbPerDay },
    coresAtPace,
    rssSlopeMbPerHour,
    cpuCores,
    deadLetters,
    cutoffs,
    errorTexts,
    warnings,
    rpcBehind,
    rpcRefused,
    mainThreadBusy,
  };
}

/** The mean of each key over the records that have it. */
function meanOf(records: readonly Record<string, number>[]): Record<string, number> {
  const sum = new Map<string, [number, number]>();
  for (const r of records) {
    for (const [k, v] of Object.entries(r)) {
      if (!Number.isFinite(v)) continue;
      const [a, n] = sum.get(k) ?? [0, 0];
      sum.set(k, [a + v, n + 1]);
    }
  }
  return Object.fromEntries([...sum].map(([k, [a, n]]) => [k, a / n]));
}

const fmtMap = (m: Record<string, number>, digits: number): string =>
  Object.entries(m)
    .map(([k, v]) => `${k}=${v.toFixed(digits)}`)
    .join(' ');

function minuteRow(minute: number, ss: readonly Sample[]): MinuteRow {
  const keys = [...new Set(ss.flatMap((s) => Object.keys(s.trail)))];
  const trail = Object.fromEntries(
    keys.map((k) => {
      const xs = ss.flatMap((s) => (s.trail[k] === undefined ? [] : [s.trail[k]!]));
      return [k, { p50: percentile(xs, 50), p99: percentile(xs, 99) }];
    }),
  );
  const e2eKeys = [...new Set(ss.flatMap((s) => Object.keys(s.e2e)))];
  const e2e = Object.fromEntries(
    e2eKeys.map((k) => {
      const xs = ss.flatMap((s) => s.e2e[k] ?? []);
      return [k, { p50: percentile(xs, 50), p99: percentile(xs, 99), n: xs.length }];
    }),
  );
  const stages = Object.fromEntries(
    STAGES.map((k) => {
      const xs = ss.flatMap((s) => s.stages[k]);
      return [k, { p50: percentile(xs, 50), p99: percentile(xs, 99) }];
    }),
  ) as MinuteRow['stages'];
  const rpc = ss.flatMap((s) => s.rpcMs);
  const names = [...new Set(ss.flatMap((s) => Object.keys(s.cpu)))];
  const lagNames = [...new Set(ss.flatMap((s) => Object.keys(s.lagMs)))];
  return {
    minute,
    trail,
    e2e,
    stages,
    rpcMs: { p50: percentile(rpc, 50), p99: percentile(rpc, 99), n: rpc.length },
    cpuCores: Object.fromEntries(names.map((n) => [n, ss.reduce((a, s) => a + (s.cpu[n] ?? 0), 0) / Math.max(1, ss.length)])),
    rssMb: Object.fromEntries(names.map((n) => [n, ss.at(-1)?.rss[n] ?? 0])),
    eventLoopLagP99Ms: Math.max(...ss.map((s) => s.loopLagMs)),
    mainThreadBusy: meanOf(ss.map((s) => s.busy)),
    loopLagP99Ms: Object.fromEntries(
      lagNames.map((n) => [n, Math.max(...ss.flatMap((s) => (s.lagMs[n] === undefined ? [] : [s.lagMs[n]!])))]),
    ),
    rpcRefused: ss.reduce((a, s) => a + s.rpcRefused, 0),
    upstreamLateP99Ms: percentile(
      ss.flatMap((s) => s.lateMs),
      99,
    ),
  };
}

function minuteLine(r: MinuteRow): string {
  const p = (x: number): string => (Number.isFinite(x) ? x.toFixed(0) : '-');
  return (
    `soak minute ${r.minute}: trail slots p50/p99 ${Object.entries(r.trail)
      .map(([k, v]) => `${k} ${p(v.p50)}/${p(v.p99)}`)
      .join(', ')}; e2e ms p50/p99 ${Object.entries(r.e2e)
      .map(([k, v]) => `${k} ${p(v.p50)}/${p(v.p99)} (n=${v.n})`)
      .join(', ')} (geyser: slot wait ${p(r.stages.wait.p50)}/${p(r.stages.wait.p99)}, to api read ${p(r.stages.ingest.p50)}/${p(
      r.stages.ingest.p99,
    )}, to client ${p(r.stages.serve.p50)}/${p(r.stages.serve.p99)}); jsonrpc ms ${p(r.rpcMs.p50)}/${p(r.rpcMs.p99)} (n=${r.rpcMs.n}, refused ${r.rpcRefused}); ` +
    `upstream late p99 ${p(r.upstreamLateP99Ms)} ms; ` +
    `main thread busy ${fmtMap(r.mainThreadBusy, 2)}; event loop lag p99 ms ${fmtMap(r.loopLagP99Ms, 0)}; ` +
    `cpu ${fmtMap(r.cpuCores, 2)}; rss MB ${fmtMap(r.rssMb, 0)}`
  );
}
