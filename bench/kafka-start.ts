// How long the local Kafka launcher takes to give a broker that answers admin requests.
//   npx tsx bench/kafka-start.ts [--runs 3] [--network] [--three]
// cold:    empty jar cache (SLOTSTREAM_KAFKA_CACHE -> temp folder): Maven copies the jars from the local
//          Maven repository (~/.m2), storage format, broker start.
// network: (--network) also an empty local Maven repository: every jar and Maven plugin comes from Maven Central.
// warm:    jars cached: storage format + JVM start until describeCluster answers; `--runs` times.
// three:   (--three) one warm start of a 3-node quorum.
// Prints a Markdown section for bench/README.md. The shared cache of other processes is never touched.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureKafkaJars, KAFKA_VERSION, startLocalKafka } from '../platform/local-kafka/launcher.js';

interface Sample {
  name: string;
  jarsMs: number;
  formatMs: number;
  totalMs: number;
  load: number;
}

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    network: { type: 'boolean', default: false },
    three: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got ${values.runs}`);

/** One launch, timed from the call (jar check included) until the cluster answers. */
async function launch(name: string, nodes: 1 | 3 = 1): Promise<Sample> {
  const load = loadavg()[0]!;
  const t0 = performance.now();
  await ensureKafkaJars();
  const jarsMs = performance.now() - t0;
  let formatMs = 0;
  const kafka = await startLocalKafka({
    nodes,
    log: (msg, extra) => {
      if (msg === 'kafka ready') formatMs = (extra as { formatMs: number }).formatMs;
    },
  });
  const totalMs = performance.now() - t0;
  await kafka.stop();
  return { name, jarsMs, formatMs, totalMs, load };
}

async function withTempEnv<T>(vars: string[], fn: () => Promise<T>): Promise<T> {
  const dirs: string[] = [];
  const saved = vars.map((v) => process.env[v]);
  try {
    for (const v of vars) {
      const dir = await mkdtemp(join(tmpdir(), 'slotstream-bench-'));
      dirs.push(dir);
      process.env[v] = dir;
    }
    return await fn();
  } finally {
    vars.forEach((v, i) => {
      if (saved[i] === undefined) delete process.env[v];
      else process.env[v] = saved[i];
    });
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  }
}

async function machine(): Promise<string> {
  const cpuinfo = await readFile('/proc/cpuinfo', 'utf8');
  const model = /model name\s*:\s*(.*)/.exec(cpuinfo)?.[1] ?? cpus()[0]?.model ?? 'unknown';
  const nproc = execFileSync('nproc').toString().trim();
  const mem = execFileSync('free', ['-g']).toString().split('\n')[1]?.trim().split(/\s+/)[1];
  // `java -version` writes to stderr.
  const javaLine = spawnSync('java', ['-version'], { encoding: 'utf8' }).stderr.split('\n')[0]?.trim() ?? '';
  return `${nproc} cores (\`nproc\`), ${mem} GiB RAM (\`free -g\`), CPU: ${model}, Node ${process.version}${javaLine ? `, ${javaLine}` : ''}`;
}

const samples: Sample[] = [];
// Cold first (it fills nothing shared), then warm runs against the shared cache.
samples.push(await withTempEnv(['SLOTSTREAM_KAFKA_CACHE'], () => launch('cold (jars copied from ~/.m2)')));
if (values.network) {
  samples.push(
    await withTempEnv(['SLOTSTREAM_KAFKA_CACHE', 'SLOTSTREAM_MAVEN_REPO'], () => launch('cold (jars downloaded from Maven Central)')),
  );
}
await ensureKafkaJars();
for (let i = 1; i <= runs; i++) samples.push(await launch(`warm #${i}`));
if (values.three) samples.push(await launch('warm, 3-node quorum', 3));

const s = (ms: number): string => (ms / 1000).toFixed(1);
const rows = samples.map(
  (x) =>
    `| ${x.name} | ${s(x.jarsMs)} | ${s(x.formatMs)} | ${s(x.totalMs - x.jarsMs - x.formatMs)} | **${s(x.totalMs)}** | ${x.load.toFixed(1)} |`,
);
const warm = samples.filter((x) => x.name.startsWith('warm #')).map((x) => x.totalMs);
const median = [...warm].sort((a, b) => a - b)[Math.floor(warm.length / 2)]!;
console.log(`## Local Kafka broker start (Kafka ${KAFKA_VERSION}, \`bench/kafka-start.ts\`)

Machine: ${await machine()}. Measured ${new Date().toISOString().slice(0, 10)}.

| run | jars (s) | storage format (s) | broker up to admin answer (s) | total (s) | load avg (1 min) at start |
|---|---|---|---|---|---|
${rows.join('\n')}

Warm start median: ${s(median)} s.`);
