// The projector's insert bodies in TabSeparated (projector/tsv.ts) against RowBinary (projector/row-binary.ts), issue
// 33 item 3: the simulator's chain framed as the ingest frames it, projected in slices of 1,000 records and planned
// into batches of BENCH_BATCH events (20,000, the default batchRows) as the runner does (projectSlice, planBatch),
// then per batch each format's bodies built (account_writes' body shared with its owner-keyed copies, as the runner
// does) and inserted into embedded ClickHouse with the projector's settings, each format into a database of its
// own in one engine, the order of the two alternating batch by batch. Per format: encode µs per event (this
// process's CPU over building every batch's bodies, before any insert: best of the rounds), insert CPU µs per event (this process's CPU over
// the insert, chdb's threads included) and insert wall µs per event (summed over the rounds, divided by them), and
// per table the insert CPU per row. In-process, no broker (fetching is not in these figures). Last line:
//   projector_formats tsv_encode_us=.. tsv_insert_cpu_us=.. rb_encode_us=.. rb_insert_cpu_us=.. (per event)
// Knobs: BENCH_SLOTS (150), BENCH_SIM_TPS (1000), BENCH_ROUNDS (3), BENCH_BATCH (20000).
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { SlotFramer } from '../ingest/publish/framer.js';
import { createClickHouse, insertTabSeparated } from '../platform/clickhouse.js';
import { insertRowBinary } from '../platform/row-binary-insert.js';
import { applyMigrations } from '../platform/migrations.js';
import { planBatch, type BatchPlan } from '../projector/plan.js';
import { VIEW_COLUMNS, type ViewTable } from '../projector/projections/rows.js';
import { rowBinaryRows } from '../projector/row-binary.js';
import { projectSlice, type Slice } from '../projector/slice.js';
import { sameRows, tabSeparatedRows } from '../projector/tsv.js';
import { RECORD_KINDS, topicNames } from '../schemas/topics.js';
import { frameSlotRuns } from '../test/support/ingest/framed-slot.js';
import { collect } from '../test/support/sim/checks.js';

const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const SLOTS = env('BENCH_SLOTS', 150);
const TPS = env('BENCH_SIM_TPS', 1_000);
const ROUNDS = env('BENCH_ROUNDS', 3);
const BATCH = env('BENCH_BATCH', 20_000);
const SLICE = 1_000;
const say = (msg: string): void => void process.stderr.write(`[bench:projector-formats] ${msg}\n`);
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

type Format = 'tsv' | 'rb';
const FORMATS: readonly Format[] = ['tsv', 'rb'];

/** The runner's bodies: one per distinct (columns, rows) pair. */
function bodies(plan: BatchPlan, format: Format): Buffer[] {
  const built = new Map<string, { rows: readonly unknown[]; body: Buffer }>();
  return plan.inserts.map((ins) => {
    const columns = VIEW_COLUMNS[ins.table].join('\t');
    const prev = built.get(columns);
    if (prev !== undefined && sameRows(prev.rows, ins.rows)) return prev.body;
    const body = format === 'tsv' ? tabSeparatedRows(ins.table, ins.rows as never[]) : rowBinaryRows(ins.table, ins.rows as never[]);
    built.set(columns, { rows: ins.rows, body });
    return body;
  });
}

async function main(): Promise<void> {
  const topics = topicNames('bench');
  const batches = await collect({ seed: 7, maxSlots: SLOTS, fast: true, tps: TPS });
  const framed = frameSlotRuns(
    new SlotFramer(new Map(RECORD_KINDS.map((k) => [k, 1])), topics),
    batches.flatMap((b) => b.events),
  ).filter((r) => r.dead === undefined);
  // Slices of up to 1,000 records of one kind, in the framed order (the runner's fetches mix kinds likewise).
  const slices: Slice[] = [];
  const offsets = new Map<string, number>();
  let run: typeof framed = [];
  const cut = () => {
    if (run.length === 0) return;
    const kind = run[0]!.kind;
    const first = offsets.get(kind) ?? 0;
    const raw = run.map((r, i) => ({ offset: String(first + i), key: r.key, value: r.value }));
    offsets.set(kind, first + run.length);
    const s = projectSlice(kind, topics[kind], 0, raw, raw.at(-1)!.offset);
    if (s.deadLetters.length > 0) throw new Error(`${kind}: ${s.deadLetters[0]!.reason}`);
    slices.push(s);
    run = [];
  };
  for (const r of framed) {
    if (run.length > 0 && (run[0]!.kind !== r.kind || run.length >= SLICE)) cut();
    run.push(r);
  }
  cut();
  const plans: BatchPlan[] = [];
  for (let i = 0; i < slices.length;) {
    const part: Slice[] = [];
    let events = 0;
    while (i < slices.length && events < BATCH) {
      events += slices[i]!.events;
      part.push(slices[i++]!);
    }
    plans.push(planBatch(part));
  }
  const events = plans.reduce((n, p) => n + p.events, 0);
  say(
    `${process.version}, ${cpus().length} x ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, load ${load()}; ` +
      `the simulator at ${TPS} tx/s, ${SLOTS} slots: ${events} events in ${plans.length} batches, ${ROUNDS} rounds`,
  );

  const dir = mkdtempSync(join(tmpdir(), 'bench-projector-formats-'));
  const ch = await createClickHouse({ dataDir: dir, database: 'bench_tsv' });
  try {
    const db: Record<Format, string> = { tsv: 'bench_tsv', rb: 'bench_rb' };
    for (const f of FORMATS) {
      await ch.command({ query: `CREATE DATABASE IF NOT EXISTS ${db[f]}` });
      await applyMigrations(ch, db[f]);
    }
    // Encoding first, alone (the engine idle): this process's CPU over each format's build of every batch, the
    // order alternating, best of the rounds.
    const encodeBest: Record<Format, number> = { tsv: Infinity, rb: Infinity };
    for (let round = 0; round < ROUNDS; round++) {
      for (const f of round % 2 === 0 ? FORMATS : [...FORMATS].reverse()) {
        const c0 = process.cpuUsage();
        for (const plan of plans) bodies(plan, f);
        const c = process.cpuUsage(c0);
        encodeBest[f] = Math.min(encodeBest[f], c.user + c.system);
      }
    }
    const insertCpu: Record<Format, number> = { tsv: 0, rb: 0 };
    const insertWall: Record<Format, number> = { tsv: 0, rb: 0 };
    const bytes: Record<Format, number> = { tsv: 0, rb: 0 };
    const tableCpu = new Map<string, number>();
    const tableRows = new Map<ViewTable, number>();
    for (let round = 0; round < ROUNDS; round++) {
      for (let b = 0; b < plans.length; b++) {
        const plan = plans[b]!;
        const order = (round + b) % 2 === 0 ? FORMATS : [...FORMATS].reverse();
        for (const f of order) {
          const built = bodies(plan, f);
          if (round === 0) bytes[f] += sumDistinct(built);
          for (let i = 0; i < plan.inserts.length; i++) {
            const ins = plan.inserts[i]!;
            if (ins.rows.length === 0) continue;
            const settings = { insert_deduplication_token: `${ins.token}:${round}`, async_insert: 0, optimize_on_insert: 0 } as const;
            const table = `${db[f]}.${ins.table}`;
            const columns = VIEW_COLUMNS[ins.table] as readonly string[];
            const c0 = process.cpuUsage();
            const w0 = process.hrtime.bigint();
            if (f === 'tsv') await insertTabSeparated(ch, { table, columns, body: built[i]!, settings });
            else await insertRowBinary(ch, { table, columns, body: built[i]!, settings });
            const wall = Number(process.hrtime.bigint() - w0) / 1e3;
            const c = process.cpuUsage(c0);
            insertCpu[f] += c.user + c.system;
            insertWall[f] += wall;
            tableCpu.set(`${f}:${ins.table}`, (tableCpu.get(`${f}:${ins.table}`) ?? 0) + c.user + c.system);
            if (f === 'tsv' && round === 0) tableRows.set(ins.table, (tableRows.get(ins.table) ?? 0) + ins.rows.length);
          }
        }
      }
      say(`round ${round + 1} done, load ${load()}`);
    }
    // Both databases hold the same rows.
    for (const table of ['transactions', 'account_writes', 'transaction_records'] as const) {
      const counts = await Promise.all(
        FORMATS.map(async (f) => {
          const rs = await ch.query({ query: `SELECT count() AS n FROM ${db[f]}.${table} FINAL`, format: 'JSONEachRow' });
          return (await rs.json<{ n: string }>())[0]!.n;
        }),
      );
      if (counts[0] !== counts[1]) throw new Error(`${table}: ${counts[0]} rows by TabSeparated, ${counts[1]} by RowBinary`);
    }
    const encode = (f: Format) => encodeBest[f] / 1000;
    const perEvent = (us: number) => (us / events).toFixed(2);
    for (const f of FORMATS) {
      say(
        `${f}: encode ${perEvent(encode(f) * 1000)} µs/event (best of ${ROUNDS}), insert CPU ${perEvent(insertCpu[f] / ROUNDS)} µs/event, ` +
          `insert wall ${perEvent(insertWall[f] / ROUNDS)} µs/event, body ${(bytes[f] / events).toFixed(0)} B/event`,
      );
    }
    for (const [table, rows] of [...tableRows].sort((a, b) => b[1] - a[1])) {
      const per = (f: Format) => ((tableCpu.get(`${f}:${table}`) ?? 0) / ROUNDS / rows).toFixed(2);
      say(`  ${table}: ${rows} rows, insert CPU µs/row tsv ${per('tsv')} rb ${per('rb')}`);
    }
    say(`load after: ${load()}`);
    process.stdout.write(
      `projector_formats tsv_encode_us=${perEvent(encode('tsv') * 1000)} tsv_insert_cpu_us=${perEvent(insertCpu.tsv / ROUNDS)} ` +
        `rb_encode_us=${perEvent(encode('rb') * 1000)} rb_insert_cpu_us=${perEvent(insertCpu.rb / ROUNDS)}\n`,
    );
  } finally {
    await ch.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function sumDistinct(bufs: readonly Buffer[]): number {
  return [...new Set(bufs)].reduce((n, b) => n + b.length, 0);
}

await main();
