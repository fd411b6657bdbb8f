// The projector's cost per record of each topic kind: the simulator's chain framed as the ingest frames it
// (ingest/publish/framer.ts, the parsed topic included), each kind's records projected in slices of 1,000 as the
// runner does (projector/slice.ts: decode, rows, replay index), best of BENCH_ROUNDS. Entries and parsed records
// feed the replay index alone; this says what indexing them adds to the projector's main thread. In-process, no
// broker, no ClickHouse (fetching and inserting are not in these figures). Last line:
//   projector_kinds transactions_us=<..> accounts_us=<..> slots_us=<..> entries_us=<..> parsed_us=<..>
import { cpus, loadavg, totalmem } from 'node:os';
import { SlotFramer, type FramedRecord } from '../ingest/publish/framer.js';
import { projectSlice } from '../projector/slice.js';
import { topicNames, RECORD_KINDS, type RecordKind } from '../schemas/topics.js';
import { frameSlotRuns } from '../test/support/ingest/framed-slot.js';
import { collect } from '../test/support/sim/checks.js';

const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const SLOTS = env('BENCH_SLOTS', 150);
const TPS = env('BENCH_SIM_TPS', 1_000);
const ROUNDS = env('BENCH_ROUNDS', 5);
const SLICE = 1_000;
const say = (msg: string): void => void process.stderr.write(`[bench:projector-kinds] ${msg}\n`);

const topics = topicNames('bench');
const batches = await collect({ seed: 7, maxSlots: SLOTS, fast: true, tps: TPS });
const framed = frameSlotRuns(
  new SlotFramer(new Map(RECORD_KINDS.map((k) => [k, 1])), topics),
  batches.flatMap((b) => b.events),
);
const byKind = new Map<RecordKind, FramedRecord[]>();
for (const r of framed) {
  if (r.dead !== undefined) continue;
  const list = byKind.get(r.kind);
  if (list) list.push(r);
  else byKind.set(r.kind, [r]);
}
say(
  `${process.version}, ${cpus().length} x ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; the simulator at ${TPS} tx/s, ${SLOTS} slots`,
);

const figures: string[] = [];
// Not epochs: one record an epoch, none in a run this short.
for (const kind of RECORD_KINDS.filter((k) => k !== 'epochs')) {
  const records = byKind.get(kind) ?? [];
  const raw = records.map((r, i) => ({ offset: String(i), key: r.key, value: r.value }));
  let best = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < raw.length; i += SLICE) {
      const part = raw.slice(i, i + SLICE);
      const slice = projectSlice(kind, topics[kind], 0, part, part.at(-1)!.offset);
      if (slice.deadLetters.length > 0) throw new Error(`${kind}: ${slice.deadLetters[0]!.reason}`);
    }
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e3 / raw.length);
  }
  const bytes = records.reduce((n, r) => n + r.value.length, 0) / Math.max(1, records.length);
  say(
    `${kind}: ${records.length} records (${(records.length / SLOTS).toFixed(1)} a slot, ${bytes.toFixed(0)} B each): ${best.toFixed(2)} µs a record`,
  );
  figures.push(`${kind}_us=${best.toFixed(2)}`);
}
process.stdout.write(`projector_kinds ${figures.join(' ')}\n`);
