// Decoding cost of SubscribeParsed's input, CPU µs per transaction of this process (process.cpuUsage), best of
// the rounds (issue 20; target ≤ 5 µs per pump transaction), for bench/parsed.ts and bench/pump-decode.ts:
// - real: extractPumpTransaction (api/pumpfun/extract.ts) over the real mainnet transactions of
//   ../shared/data/mainnet/pump (read in place; the v1 one left out until the wire decoder reads v1), already in
//   the event model as the live layer holds them: every pump and PumpSwap instruction (top level and inner) and
//   every self-CPI event, all fields, pubkeys copied out; and the same transactions with the programs' ids
//   replaced (what every other transaction costs: the scan alone);
// - sim: the simulator's pump.fun / PumpSwap transactions (today's layouts, routed trades, migrations):
//   extractPumpTransaction alone, scanParsedTransaction (what the stream builds once per transaction: the decode
//   plus the proto messages) and encodeParsed (its bytes, once per transaction since parsed-update.ts).
import { PUMP_PROGRAMS } from '../schemas/pumpfun/decoder.js';
import { extractPumpTransaction } from '../schemas/pumpfun/extract.js';
import { scanParsedTransaction } from '../schemas/pumpfun/parsed-scan.js';
import { encodeParsed } from '../schemas/pumpfun/encode-parsed.js';
import type { TransactionEvent } from '../schemas/gen/events.js';
import { pumpRecordTransaction, readPumpRecords } from '../test/support/mainnet/pump.js';

const cpuSeconds = (f: () => void): number => {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
};

// Results feed this, so the work cannot be optimized away.
let sink = 0;

/** Best CPU µs per transaction of `work` over `txs`, `passes` passes per round. */
export function bestMicrosPerTx(
  txs: readonly TransactionEvent[],
  rounds: number,
  passes: number,
  work: (tx: TransactionEvent) => number,
): number {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const s = cpuSeconds(() => {
      for (let p = 0; p < passes; p++) for (const tx of txs) sink += work(tx);
    });
    best = Math.min(best, (s * 1e6) / (passes * txs.length));
  }
  return best;
}

const extract = (tx: TransactionEvent): number => extractPumpTransaction(tx).instructions.length;

export interface RealDecode {
  transactions: number;
  instructions: number;
  events: number;
  pumpMicros: number;
  otherMicros: number;
}

/** The real mainnet transactions (passes over the 19 per round). */
export function realDecodeCost(rounds: number, passes: number): RealDecode {
  const txs = readPumpRecords()
    .filter((r) => r.version !== 1)
    .map(pumpRecordTransaction);
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
  return {
    transactions: txs.length,
    instructions: counts.ix,
    events: counts.ev,
    pumpMicros: bestMicrosPerTx(txs, rounds, passes, extract),
    otherMicros: bestMicrosPerTx(others, rounds, passes, extract),
  };
}

export interface SimDecode {
  transactions: number;
  instructions: number;
  events: number;
  inner: number;
  extractMicros: number;
  scanMicros: number;
  encodeMicros: number;
}

/** The simulator's pump transactions (`txs`: those with SubscribeParsed content). */
export function simDecodeCost(txs: readonly TransactionEvent[], rounds: number, passes: number): SimDecode {
  const scans = txs.map(scanParsedTransaction);
  const byTx = new Map(txs.map((t, i) => [t, scans[i]!]));
  return {
    transactions: txs.length,
    instructions: scans.reduce((a, s) => a + s.instructions.length, 0),
    events: scans.reduce((a, s) => a + s.events.length, 0),
    inner: scans.reduce((a, s) => a + s.instructions.filter((x) => x.inner).length, 0),
    extractMicros: bestMicrosPerTx(txs, rounds, passes, extract),
    scanMicros: bestMicrosPerTx(txs, rounds, passes, (tx) => scanParsedTransaction(tx).instructions.length),
    encodeMicros: bestMicrosPerTx(txs, rounds, passes, (tx) => encodeParsed(tx, byTx.get(tx)!, undefined, undefined).length),
  };
}

export const decodeSink = (): number => sink;
