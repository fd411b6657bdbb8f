// Runs a real Apache Kafka broker (KRaft) from the jars Maven fetched, on free loopback ports.
// Used by the test harness, the benchmarks and local development; no Docker needed.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { retry, type RetryPolicy } from '../retry.js';
import { createKafka } from '../kafka/index.js';
import { newClusterId, serverProperties, type NodeAddress } from './server-properties.js';

const execFileP = promisify(execFile);

/** Keep in step with <kafka.version> in platform/local-kafka/pom.xml. */
export const KAFKA_VERSION = '4.1.2';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(HERE, '..', '..');
const POM = join(HERE, 'pom.xml');
const LOG4J_CONFIG = join(HERE, 'log4j2.xml');
const SUPERVISOR = join(HERE, 'supervise.sh');

export type LaunchLog = (msg: string, extra?: object) => void;

export interface StartLocalKafkaOptions {
  nodes?: 1 | 3;
  /** Folder for the cluster's data; default a fresh temp folder. An existing folder from an earlier
   * run with keepData is reused (same cluster id, and the same ports when they are still free). */
  dataDir?: string;
  /** Keep the data folder on stop (default: delete it). */
  keepData?: boolean;
  log?: LaunchLog;
  /** JVM max heap per broker (default env SLOTSTREAM_KAFKA_HEAP or 512m: several brokers share 2 cores). */
  heap?: string;
  /**
   * A light broker (default: env SLOTSTREAM_KAFKA_LIGHT=1, which the test harness sets): the C1 compiler only and the
   * serial collector. Measured on one 2-core machine: a third less CPU to start, a quarter less to create topics and
   * half to take a test's records, at a lower peak rate; so the tests' brokers, never the service's by default.
   */
  light?: boolean;
  /** How long to wait for the cluster to answer admin requests (default 180 s). */
  readyTimeoutMs?: number;
}

export interface LocalKafka {
  /** Bootstrap addresses, `127.0.0.1:<port>` per node. */
  brokers: string[];
  /** JVM pids, one per node, in node order. */
  pids: number[];
  dataDir: string;
  /** SIGTERM every broker, wait for exit (SIGKILL after 20 s), delete the data unless keepData. */
  stop(): Promise<void>;
  /** Fault tests: stops node `index` (0-based, as in `brokers`) and waits for its exit; its data stays.
   * SIGTERM is a clean shutdown, SIGKILL a crash. */
  stopNode(index: number, signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Starts a stopped node again on the same ports and data; resolves once it answers. Updates `pids`. */
  startNode(index: number): Promise<void>;
}

/** Root of the jar cache: env SLOTSTREAM_KAFKA_CACHE, else `<repo>/.cache/kafka` (git-ignored). */
export function kafkaCacheRoot(): string {
  return process.env.SLOTSTREAM_KAFKA_CACHE ?? join(REPO_ROOT, '.cache', 'kafka');
}

let jarsPromise: Promise<string> | undefined;

/** Fetches the broker jars once (Maven, offline first) into the cache and returns the libs folder. */
export function ensureKafkaJars(log: LaunchLog = () => {}): Promise<string> {
  const libs = join(kafkaCacheRoot(), KAFKA_VERSION, 'libs');
  if (isCompleteLibs(libs)) return Promise.resolve(libs);
  jarsPromise ??= fetchJars(libs, log).finally(() => {
    jarsPromise = undefined;
  });
  return jarsPromise;
}

function isCompleteLibs(libs: string): boolean {
  // The folder only appears through an atomic rename after Maven finished, so this file suffices.
  return existsSync(join(libs, `kafka_2.13-${KAFKA_VERSION}.jar`));
}

async function fetchJars(libs: string, log: LaunchLog): Promise<string> {
  await mkdir(dirname(libs), { recursive: true });
  // Concurrent processes may fetch at once: each fills its own folder and the first rename wins.
  const tmp = `${libs}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const args = ['-q', '-B', '-f', POM, 'dependency:copy-dependencies', `-Dkafka.libs=${tmp}`];
  if (process.env.SLOTSTREAM_MAVEN_REPO) args.push(`-Dmaven.repo.local=${process.env.SLOTSTREAM_MAVEN_REPO}`);
  const started = Date.now();
  try {
    try {
      await execFileP('mvn', ['-o', ...args], { maxBuffer: 16 * 1024 * 1024 });
    } catch {
      log('kafka jars not in the local Maven repository; fetching from Maven Central', { version: KAFKA_VERSION });
      await rm(tmp, { recursive: true, force: true });
      await execFileP('mvn', args, { maxBuffer: 16 * 1024 * 1024 });
    }
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    const e = err as { stdout?: string; stderr?: string; message: string };
    const out = `${e.stdout ?? ''}${e.stderr ?? ''}`.trim().split('\n').slice(-20).join('\n');
    throw new Error(`could not fetch the Kafka ${KAFKA_VERSION} jars with Maven (${POM}): ${e.message}\n${out}`, {
      cause: err,
    });
  }
  try {
    await rename(tmp, libs);
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    if (!isCompleteLibs(libs)) throw err;
  }
  log('kafka jars ready', { libs, ms: Date.now() - started });
  return libs;
}

interface ClusterState {
  clusterId: string;
  nodes: NodeAddress[];
}

interface RunningNode {
  address: NodeAddress;
  dir: string;
  child: ChildProcess;
  pid: number;
  exited: Promise<void>;
  /** Where this JVM writes a class-data-sharing archive when it exits (see cdsFlags). */
  archiveTmp?: string;
}

/** Class-data-sharing archive of the broker's classes, next to the jars. A JVM that maps it spends
 * about 45% less CPU starting (measured: 3.2 s instead of 5.7 s of CPU time); with several brokers
 * starting on a 2-core machine that is most of the start time. Made once, by the first broker that
 * exits cleanly (-XX:ArchiveClassesAtExit); set SLOTSTREAM_KAFKA_CDS=0 to do without. */
function cdsArchive(libs: string): string {
  return join(dirname(libs), 'broker-classes.jsa');
}

function cdsEnabled(): boolean {
  return process.env.SLOTSTREAM_KAFKA_CDS !== '0';
}

function cdsFlags(libs: string): string[] {
  const archive = cdsArchive(libs);
  return cdsEnabled() && existsSync(archive) ? [`-XX:SharedArchiveFile=${archive}`] : [];
}

/** Publishes the archive a node dumped at a clean exit (exit status 0, or 143 after SIGTERM). */
async function finishArchive(libs: string, node: RunningNode): Promise<void> {
  const tmp = node.archiveTmp;
  if (!tmp) return;
  node.archiveTmp = undefined;
  const code = node.child.exitCode;
  const size = await stat(tmp).then(
    (st) => st.size,
    () => 0,
  );
  if ((code === 0 || code === 143) && size > 0) {
    await rename(tmp, cdsArchive(libs)).catch(() => rm(tmp, { force: true }));
  } else {
    await rm(tmp, { force: true });
  }
}

/** Archives half-written by a JVM that was killed while dumping (older than 10 minutes). */
async function removeStaleArchives(libs: string): Promise<void> {
  const dir = dirname(libs);
  const prefix = `${basename(cdsArchive(libs))}.tmp-`;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith(prefix)) continue;
    const file = join(dir, name);
    const age =
      Date.now() -
      (await stat(file).then(
        (st) => st.mtimeMs,
        () => Date.now(),
      ));
    if (age > 10 * 60_000) await rm(file, { force: true });
  }
}

/** Install time (scripts/prepare-kafka.ts, run by scripts/setup.sh): the jars fetched and the class-data archive made
 * by one light broker's start and clean stop. Otherwise a fresh clone's first run does both: the test suite's shared
 * broker fetched the jars before any test started, and every broker started before the first clean stop ran without
 * the archive (about 2.5 s more CPU each) and dumped one of its own at exit. */
export async function prepareLocalKafka(log: LaunchLog = () => {}): Promise<'prepared' | 'ready'> {
  const libs = await ensureKafkaJars(log);
  if (!cdsEnabled() || existsSync(cdsArchive(libs))) return 'ready';
  const kafka = await startLocalKafka({ nodes: 1, light: true, log });
  await kafka.stop();
  return 'prepared';
}

/** A start that lost a port race is tried again at once with new ports, three attempts in all. */
const PORT_RACE_RETRY: RetryPolicy = { initialMs: 0, maxMs: 0, maxAttempts: 3 };

/** Starts a 1-node (default) or 3-node KRaft cluster and resolves once it answers admin requests. */
export async function startLocalKafka(opts: StartLocalKafkaOptions = {}): Promise<LocalKafka> {
  const log = opts.log ?? (() => {});
  const libs = await ensureKafkaJars(log);
  const ownDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'slotstream-kafka-')));
  await mkdir(dataDir, { recursive: true });
  // Ports are picked free but may be taken by another process before the JVM binds them: retry.
  try {
    return await retry(() => startCluster(libs, dataDir, ownDir, opts, log), {
      policy: PORT_RACE_RETRY,
      isRetriable: (err) => /BindException|Address already in use/.test((err as Error).message),
      // launcher.json keeps the cluster id; ports found taken are replaced on the next load.
      onRetry: (_err, attempt) => log('kafka port taken while starting; retrying with new ports', { attempt: attempt + 1 }),
    });
  } catch (err) {
    if (!opts.keepData) await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
}

async function startCluster(
  libs: string,
  dataDir: string,
  ownDir: boolean,
  opts: StartLocalKafkaOptions,
  log: LaunchLog,
): Promise<LocalKafka> {
  const count = opts.nodes ?? 1;
  const state = await loadOrCreateState(dataDir, count);
  const jvm: JvmChoice = {
    heap: opts.heap ?? process.env.SLOTSTREAM_KAFKA_HEAP ?? '512m',
    light: opts.light ?? process.env.SLOTSTREAM_KAFKA_LIGHT === '1',
  };
  const started = Date.now();
  const nodes: RunningNode[] = [];
  const removeExitHook = termOnExit(nodes);
  const launch: Launch = { libs, dataDir, ownDir, deleteData: !opts.keepData, jvm };
  try {
    const formatMs = await spawnNodes(launch, state, nodes);
    const brokers = state.nodes.map((a) => `127.0.0.1:${a.brokerPort}`);
    const readyTimeoutMs = opts.readyTimeoutMs ?? 180_000;
    await waitUntilReady(brokers, nodes, readyTimeoutMs);
    log('kafka ready', { brokers, nodes: count, ms: Date.now() - started, formatMs, dataDir });
    return clusterHandle(launch, { nodes, brokers, readyTimeoutMs, removeExitHook, log });
  } catch (err) {
    await stopNodes(libs, nodes, dataDir, false);
    removeExitHook();
    throw err;
  }
}

/** How every node of one cluster is started: jars, data folder, and whether stopping deletes the data. */
interface Launch {
  libs: string;
  dataDir: string;
  ownDir: boolean;
  deleteData: boolean;
  jvm: JvmChoice;
}

/** The parent going away asks the JVMs to stop now (the supervisors finish the job); returns the hook's removal. */
function termOnExit(nodes: readonly RunningNode[]): () => void {
  const onExit = (): void => {
    for (const n of nodes) {
      if (!isRunning(n)) continue;
      // The supervisor removes the node's data only when marked orphaned (supervise.sh). Its own watcher marks it on
      // the EOF of our pipe, but this SIGTERM can end the JVM first: under a load of 70 the watcher lost that race
      // and the folder stayed (launcher.int.test.ts, "exits without stop()"). Marked here first, it cannot.
      try {
        writeFileSync(join(n.dir, 'broker.out.orphaned'), '');
      } catch {
        // The folder is gone already: nothing to remove.
      }
      safeKill(n.pid, 'SIGTERM');
    }
  };
  process.on('exit', onExit);
  return () => {
    process.off('exit', onExit);
  };
}

/** Formats every node's storage, then starts the JVMs one by one, each pushed into `nodes` once running (so a
 * failure stops the ones started); the first also dumps the class-data archive when there is none. Returns the
 * milliseconds formatting took. */
async function spawnNodes(launch: Launch, state: ClusterState, nodes: RunningNode[]): Promise<number> {
  const { libs, dataDir, ownDir, deleteData, jvm } = launch;
  const started = Date.now();
  await Promise.all(state.nodes.map((a) => formatNode(libs, dataDir, state, a)));
  const formatMs = Date.now() - started;
  const makeArchive = cdsEnabled() && !existsSync(cdsArchive(libs));
  if (makeArchive) await removeStaleArchives(libs);
  for (const address of state.nodes) {
    const dump = makeArchive && nodes.length === 0 ? `${cdsArchive(libs)}.tmp-${process.pid}-${address.id}` : undefined;
    nodes.push(await spawnNode(libs, dataDir, ownDir, deleteData, jvm, address, dump));
  }
  return formatMs;
}

interface Running {
  /** Replaced in place when a node is restarted (startNode). */
  nodes: RunningNode[];
  brokers: string[];
  readyTimeoutMs: number;
  removeExitHook: () => void;
  log: LaunchLog;
}

/** The started cluster's handle: `stop` runs once (later calls share it), and no node is touched after it. */
function clusterHandle(launch: Launch, run: Running): LocalKafka {
  const { libs, dataDir, ownDir, deleteData, jvm } = launch;
  const { nodes, brokers, readyTimeoutMs, removeExitHook, log } = run;
  let stopping: Promise<void> | undefined;
  const pids = nodes.map((n) => n.pid);
  const nodeAt = (index: number): RunningNode => {
    const n = nodes[index];
    if (!n) throw new Error(`no Kafka node at index ${index}: the cluster has ${nodes.length}`);
    if (stopping) throw new Error('the Kafka cluster is stopped');
    return n;
  };
  return {
    brokers,
    pids,
    dataDir,
    stop: () => {
      stopping ??= stopNodes(libs, nodes, dataDir, deleteData).finally(removeExitHook);
      return stopping;
    },
    stopNode: async (index, signal = 'SIGTERM') => {
      const n = nodeAt(index);
      if (isRunning(n)) safeKill(n.pid, signal);
      if (!(await settlesWithin(n.exited, stopTimeoutMs(n)))) {
        safeKill(n.pid, 'SIGKILL');
        await n.exited;
      }
      n.child.stdin?.destroy();
      await finishArchive(libs, n);
    },
    startNode: async (index) => {
      const old = nodeAt(index);
      if (isRunning(old)) throw new Error(`Kafka node at index ${index} is still running (pid ${old.pid})`);
      const fresh = await spawnNode(libs, dataDir, ownDir, deleteData, jvm, old.address);
      nodes[index] = fresh;
      pids[index] = fresh.pid;
      await waitUntilReady([brokers[index]!], [fresh], readyTimeoutMs);
      log('kafka node restarted', { broker: brokers[index], pid: fresh.pid });
    },
  };
}

async function loadOrCreateState(dataDir: string, count: number): Promise<ClusterState> {
  const file = join(dataDir, 'launcher.json');
  if (existsSync(file)) {
    const saved = JSON.parse(await readFile(file, 'utf8')) as ClusterState;
    if (saved.nodes.length !== count) {
      throw new Error(`data folder ${dataDir} holds a ${saved.nodes.length}-node cluster, asked for ${count} nodes`);
    }
    if (await allFree(saved.nodes.flatMap((n) => [n.brokerPort, n.controllerPort]))) return saved;
    const ports = await freePorts(count * 2);
    const state = { clusterId: saved.clusterId, nodes: saved.nodes.map((n, i) => addr(n.id, ports, i)) };
    await writeFile(file, JSON.stringify(state, null, 2));
    return state;
  }
  const ports = await freePorts(count * 2);
  const state: ClusterState = {
    clusterId: newClusterId(randomBytes),
    nodes: Array.from({ length: count }, (_, i) => addr(i + 1, ports, i)),
  };
  await writeFile(file, JSON.stringify(state, null, 2));
  return state;
}

function addr(id: number, ports: number[], i: number): NodeAddress {
  return { id, brokerPort: ports[2 * i]!, controllerPort: ports[2 * i + 1]! };
}

function nodeDir(dataDir: string, id: number): string {
  return join(dataDir, `node-${id}`);
}

export interface JvmChoice {
  heap: string;
  light: boolean;
}

export function jvmArgs(libs: string, dir: string, logName: string, jvm: JvmChoice): string[] {
  // Either map the class archive or (first broker ever) write it at exit; never both.
  // A one-shot tool JVM, or a light broker, starts faster with the C1 compiler only and the serial collector; the
  // service's broker keeps Kafka's usual G1 settings since benchmarks run against it.
  const tuning = jvm.light ? ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'] : ['-XX:+UseG1GC', '-XX:MaxGCPauseMillis=20'];
  return [
    `-Xmx${jvm.heap}`,
    ...tuning,
    ...cdsFlags(libs),
    '-Djava.awt.headless=true',
    `-Dlog4j2.configurationFile=${LOG4J_CONFIG}`,
    `-Dslotstream.kafka.logfile=${join(dir, logName)}`,
    `-Dkafka.logs.dir=${dir}`,
    '-cp',
    `${libs}/*`,
  ];
}

async function formatNode(libs: string, dataDir: string, state: ClusterState, a: NodeAddress): Promise<void> {
  const dir = nodeDir(dataDir, a.id);
  await mkdir(dir, { recursive: true });
  const props = join(dir, 'server.properties');
  await writeFile(props, serverProperties({ nodeId: a.id, nodes: state.nodes, logDir: join(dir, 'data') }));
  const args = [
    ...jvmArgs(libs, dir, 'format.log', { heap: '256m', light: true }),
    'kafka.tools.StorageTool',
    'format',
    '--ignore-formatted',
    '--cluster-id',
    state.clusterId,
    '--config',
    props,
  ];
  try {
    await execFileP('java', args, { maxBuffer: 4 * 1024 * 1024 });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`formatting Kafka storage for node ${a.id} in ${dir} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`, {
      cause: err,
    });
  }
}

async function spawnNode(
  libs: string,
  dataDir: string,
  ownDir: boolean,
  removeData: boolean,
  jvm: JvmChoice,
  address: NodeAddress,
  archiveTmp?: string,
): Promise<RunningNode> {
  const dir = nodeDir(dataDir, address.id);
  const flags = jvmArgs(libs, dir, 'server.log', jvm);
  const args = [
    ...(archiveTmp ? flags.filter((a) => !a.startsWith('-XX:SharedArchiveFile=')) : flags),
    ...(archiveTmp ? [`-XX:ArchiveClassesAtExit=${archiveTmp}`] : []),
    'kafka.Kafka',
    join(dir, 'server.properties'),
  ];
  const child = spawn(
    'sh',
    [SUPERVISOR, join(dir, 'broker.out'), removeData ? dir : '', removeData && ownDir ? dataDir : '', 'java', ...args],
    // Its own process group: a Ctrl-C or a SIGTERM sent to the service's group must not stop the broker
    // before the roles have flushed and committed; the launcher stops it last, and the supervisor's
    // stdin watch stops it if the launcher dies.
    { stdio: ['pipe', 'pipe', 'inherit'], detached: true },
  );
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  const pid = await new Promise<number>((res, rej) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      lines.close();
      const n = Number(line.trim());
      if (Number.isInteger(n) && n > 0) res(n);
      else rej(new Error(`kafka supervisor printed "${line}" instead of the broker pid`));
    });
    child.once('error', rej);
    child.once('exit', (code) => rej(new Error(`kafka supervisor exited (${code}) before starting the broker`)));
  });
  return { address, dir, child, pid, exited, archiveTmp };
}

function isRunning(n: RunningNode): boolean {
  return n.child.exitCode === null && n.child.signalCode === null;
}

async function waitUntilReady(brokers: string[], nodes: RunningNode[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const kafka = createKafka({ brokers, clientId: 'slotstream-launcher' });
  let lastError: string;
  for (;;) {
    const dead = nodes.find((n) => !isRunning(n));
    if (dead) {
      throw new Error(`kafka node ${dead.address.id} exited while starting:\n${await logTail(dead.dir)}`);
    }
    try {
      const registered = new Set(await kafka.admin().brokerIds(1_000));
      if (nodes.every((n) => registered.has(n.address.id))) {
        await kafka.admin().listTopics();
        await kafka.close();
        return;
      }
      lastError = `brokers registered: ${[...registered].join(',') || 'none'}`;
    } catch (err) {
      lastError = (err as Error).message;
    }
    if (Date.now() > deadline) {
      await kafka.close();
      throw new Error(`kafka did not answer within ${timeoutMs} ms (${lastError}):\n${await logTail(nodes[0]!.dir)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function logTail(dir: string): Promise<string> {
  const parts: string[] = [];
  for (const name of ['broker.out', 'server.log']) {
    const text = await readFile(join(dir, name), 'utf8').catch(() => '');
    const tail = text.trim().split('\n').slice(-15).join('\n');
    if (tail) parts.push(`--- ${join(dir, name)} ---\n${tail}`);
  }
  return parts.join('\n') || `(no log in ${dir})`;
}

/** Dumping the class archive at exit takes several seconds more. */
function stopTimeoutMs(n: RunningNode): number {
  return n.archiveTmp ? 90_000 : 20_000;
}

async function stopNodes(libs: string, nodes: RunningNode[], dataDir: string, removeData: boolean): Promise<void> {
  for (const n of nodes) if (isRunning(n)) safeKill(n.pid, 'SIGTERM');
  await Promise.all(
    nodes.map(async (n) => {
      if (await settlesWithin(n.exited, stopTimeoutMs(n))) return;
      // A broker that lost its controller quorum can hang in controlled shutdown.
      safeKill(n.pid, 'SIGKILL');
      await n.exited;
    }),
  );
  for (const n of nodes) n.child.stdin?.destroy();
  for (const n of nodes) await finishArchive(libs, n);
  if (removeData) await rm(dataDir, { recursive: true, force: true });
}

function settlesWithin(p: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((res) => {
    timer = setTimeout(() => res(false), ms);
  });
  return Promise.race([p.then(() => true), timeout]).finally(() => clearTimeout(timer));
}

function safeKill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

async function allFree(ports: number[]): Promise<boolean> {
  for (const port of ports) {
    const free = await new Promise<boolean>((res) => {
      const srv = createServer();
      srv.once('error', () => res(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => res(true)));
    });
    if (!free) return false;
  }
  return true;
}

/** Distinct free loopback ports: all listeners stay open until every port is picked. */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((res, rej) => {
          const srv = createServer();
          srv.once('error', rej);
          srv.listen(0, '127.0.0.1', () => res(srv));
        }),
    ),
  );
  const ports = servers.map((s) => {
    const a = s.address();
    if (a === null || typeof a === 'string') throw new Error('could not read a free port');
    return a.port;
  });
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}
