// Generator speed of the simulator alone (no Kafka): events per second in fast (unsigned) and signed
// mode, and the fast-forward rate used on resume. Reports events per CPU second (the machine is shared,
// wall time depends on other load) and the wall-clock rate. Usage: npx tsx bench/sim-speed.ts [slots] [tps]
import { encodeRecord } from '../schemas/codec.js';
import { SimChain } from '../ingest/sources/sim/chain.js';
import type { SignMode } from '../ingest/sources/sim/block.js';
import { DEFAULT_SIM_OPTIONS } from '../ingest/sources/sim/options.js';

const slots = Number(process.argv[2] ?? 300);
const tps = Number(process.argv[3] ?? 5000);

function measure(mode: SignMode, encode: boolean): void {
  const chain = new SimChain({ ...DEFAULT_SIM_OPTIONS, tps, slotMs: 0, fast: mode === 'fast' });
  chain.next(mode); // genesis is setup cost, not steady state
  let events = 0;
  let txs = 0;
  let bytes = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (let i = 0; i < slots; i++) {
    const b = chain.next(mode);
    events += b.events.length;
    for (const e of b.events) {
      if (e.kind === 'transactions') txs++;
      if (encode) bytes += encodeRecord(e).value.length;
    }
  }
  const s = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  const cpu = (c.user + c.system) / 1e6;
  const what = mode === 'skip' ? 'fast-forward (resume)' : `${mode}${encode ? ' + encodeRecord' : ''}`;
  console.log(
    `${what.padEnd(26)} ${slots} slots, ${events} events: ${Math.round(events / cpu)} events/CPU-s ` +
      `(${Math.round(txs / cpu)} tx/CPU-s${encode ? `, ${(bytes / cpu / 1e6).toFixed(1)} MB/CPU-s` : ''}); ` +
      `wall ${s.toFixed(2)} s = ${Math.round(events / s)} events/s`,
  );
}

console.log(`sim-speed: tps ${tps} of chain time, ${slots} slots per measurement`);
measure('fast', false);
measure('fast', true);
measure('ed25519', false);
measure('skip', false);
