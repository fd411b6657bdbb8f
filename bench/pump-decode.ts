// Decode cost per real pump.fun / PumpSwap transaction (issue 20; target ≤ 5 µs): the real-data part of
// `npm run bench:parsed` (bench/parsed-decode.ts) on its own. Run with `npx tsx bench/pump-decode.ts`. Env:
// BENCH_PUMP_ROUNDS (default 7), BENCH_PUMP_PASSES (passes over the 19 transactions per round, default 20,000),
// SLOTSTREAM_MAINNET_DATA (the data folder).
import { loadavg } from 'node:os';
import { decodeSink, realDecodeCost } from './parsed-decode.js';

const env = (name: string, def: number): number => (process.env[name] ? Number(process.env[name]) : def);
const rounds = env('BENCH_PUMP_ROUNDS', 7);
const passes = env('BENCH_PUMP_PASSES', 20_000);
const r = realDecodeCost(rounds, passes);
console.log(
  `${r.transactions} real pump/PumpSwap transactions (${r.instructions} instructions, ${r.events} events), best of ${rounds} rounds × ${passes} passes`,
);
console.log(`pump-decode: ${r.pumpMicros.toFixed(2)} µs per pump transaction (target ≤ 5) ${r.pumpMicros <= 5 ? 'met' : 'NOT met'}`);
console.log(`pump-decode: ${r.otherMicros.toFixed(2)} µs per transaction of neither program`);
console.log(`(${decodeSink()} instructions decoded in all) load average ${loadavg()[0]!.toFixed(1)}`);
