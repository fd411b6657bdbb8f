// The ingest's added CPU for SubscribeParsed's prebuilt updates (ingest/publish/parsed-update.ts): the framer
// over the same simulated slot batches with and without them, rounds alternating, best of each; per event
// (every record the ingest publishes) and per pump transaction built.
// Run: npx tsx bench/parsed-ingest-cost.ts (BENCH_SIM_SLOTS 30, BENCH_SIM_TPS 1,000, BENCH_ROUNDS 5).
import { loadavg } from 'node:os';
import { SlotFramer, type RecordKind } from '../ingest/publish/framer.js';
import { parsedUpdates } from '../ingest/publish/parsed-update.js';
import { topicNames } from '../schemas/topics.js';
import { collect } from '../test/support/sim/checks.js';

const env = (name: string, def: number): number => (process.env[name] ? Number(process.env[name]) : def);
const batches = await collect({ seed: 7, maxSlots: env('BENCH_SIM_SLOTS', 30), fast: true, tps: env('BENCH_SIM_TPS', 1_000) });
const events = batches.reduce((a, b) => a + b.events.length, 0);
const built = batches.reduce((a, b) => a + [...parsedUpdates(b.events).values()].filter((f) => f.parsedUpdate.length > 0).length, 0);
const KINDS: readonly RecordKind[] = ['transactions', 'accounts', 'slots', 'entries', 'epochs'];
const partitions = new Map(KINDS.map((k) => [k, 4]));
const topics = topicNames('cost');

function run(parsed: boolean): number {
  const framer = new SlotFramer(partitions, topics, { parsedUpdates: parsed });
  const t0 = process.cpuUsage();
  for (const b of batches) framer.frame(b);
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / 1e3;
}

const best = { with: Infinity, without: Infinity };
for (let r = 0; r < env('BENCH_ROUNDS', 5); r++) {
  best.without = Math.min(best.without, run(false));
  best.with = Math.min(best.with, run(true));
}
const added = best.with - best.without;
console.log(
  `framer over ${batches.length} slots, ${events} events (${built} pump transactions built): without ${best.without.toFixed(0)} ms, ` +
    `with ${best.with.toFixed(0)} ms CPU; added ${((added * 1e3) / events).toFixed(2)} µs per event, ` +
    `${((added * 1e3) / built).toFixed(1)} µs per pump transaction; framer alone ${((best.without * 1e3) / events).toFixed(2)} µs per event; ` +
    `load avg ${loadavg()[0]!.toFixed(2)}`,
);
