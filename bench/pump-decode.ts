// Decode cost per pump.fun / PumpSwap transaction (issue 20; target ≤ 5 µs): extractPumpTransaction
// (api/pumpfun/extract.ts) over the real mainnet transactions of ../shared/data/mainnet/pump (read in place, the
// v1 one left out until the wire decoder reads v1), already in the event model as the live layer holds them,
// so only the decoding is timed: every pump and PumpSwap instruction (top level and inner) and every self-CPI
// event, all fields, pubkeys copied out. Also the cost for a transaction of neither program (the scan alone).
// Figures are CPU µs per transaction of this process (process.cpuUsage), best of the rounds.
// Run with `npx tsx bench/pump-decode.ts`. Env: BENCH_PUMP_ROUNDS (default 7), BENCH_PUMP_PASSES (passes over
// the 19 transactions per round, default 20,000), SLOTSTREAM_MAINNET_DATA (the data folder).
import { PUMP_PROGRAMS } from '../api/pumpfun/decoder.js';
import { extractPumpTransaction } from '../api/pumpfun/extract.js';
import type { TransactionEvent } from '../schemas/gen/events.js';
import { pumpRecordTransaction, readPumpRecords } from '../test/support/mainnet/pump.js';

const env = (name: string, def: number): number => (process.env[name] ? Number(process.env[name]) : def);

const cpuSeconds = (f: () => void): number => {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
};

// Results feed this, so the work cannot be optimized away.
let sink = 0;

function bestMicrosPerTx(txs: readonly TransactionEvent[], rounds: number, passes: number): number {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const s = cpuSeconds(() => {
      for (let p = 0; p < passes; p++) for (const tx of txs) sink += extractPumpTransaction(tx).instructions.length;
    });
    best = Math.min(best, (s * 1e6) / (passes * txs.length));
  }
  return best;
}

const rounds = env('BENCH_PUMP_ROUNDS', 7);
const passes = env('BENCH_PUMP_PASSES', 20_000);
const records = readPumpRecords().filter((r) => r.version !== 1);
const txs = records.map(pumpRecordTransaction);
const counts = txs
  .map(extractPumpTransaction)
  .reduce((a, p) => ({ ix: a.ix + p.instructions.length, ev: a.ev + p.events.length }), { ix: 0, ev: 0 });
// The same transactions with the programs' ids replaced: what every other transaction costs.
const notPump = (keys: Buffer[]) => keys.map((k) => (PUMP_PROGRAMS.some((p) => p.programIdBytes.equals(k)) ? Buffer.alloc(32, 9) : k));
const others = txs.map((t) => ({
  ...t,
  accountKeys: notPump(t.accountKeys),
  loadedWritable: notPump(t.loadedWritable),
  loadedReadonly: notPump(t.loadedReadonly),
}));
if (others.some((t) => extractPumpTransaction(t).instructions.length > 0))
  throw new Error('the "other" transactions still hold pump instructions');

const pump = bestMicrosPerTx(txs, rounds, passes);
const other = bestMicrosPerTx(others, rounds, passes);
console.log(
  `${txs.length} real pump/PumpSwap transactions (${counts.ix} instructions, ${counts.ev} events), best of ${rounds} rounds × ${passes} passes`,
);
console.log(`pump-decode: ${pump.toFixed(2)} µs per pump transaction (target ≤ 5) ${pump <= 5 ? 'met' : 'NOT met'}`);
console.log(`pump-decode: ${other.toFixed(2)} µs per transaction of neither program`);
console.log(`(${sink} instructions decoded in all) load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)}`);
