// examples/parsed-trades.ts, the SubscribeParsed example of docs/clients.md, run as written (`npx tsx`, from the
// repository's folder) against `slotstream all` (what `npm start` runs: the simulator, whose traffic trades
// pump.fun curves and, once they complete and migrate, PumpSwap pools): it prints pump.fun and PumpSwap
// trades with a mint, a side, a SOL amount and a price, a multi_hop_swap's pool hop included (its pool is not the
// instruction's first account: CI once saw `mint=?` for one). docs/clients.md shows the same file, checked here too.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startAll, type AllProcess } from '../support/cli/all-process.js';
import { onRunBroker } from '../support/cli/run-broker.js';
import { newClient, Recorder, type Msg } from '../support/grpc/clients.js';
import { waitFor } from '../support/harness/kafka.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLE = 'examples/parsed-trades.ts';
const LINE = /^(pump\.fun|PumpSwap) (buy |sell) mint=([1-9A-HJ-NP-Za-km-z]{32,44}) sol=(\S+) price=(\S+)$/;

describe('the SubscribeParsed example of docs/clients.md', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parsed-example-'));
  let all: AllProcess | undefined;
  let example: ChildProcess | undefined;
  let parsed: Recorder | undefined;

  afterAll(async () => {
    example?.kill('SIGKILL');
    parsed?.cancel();
    await all?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is in docs/clients.md as the file is', () => {
    const body = readFileSync(join(ROOT, EXAMPLE), 'utf8')
      .split('\n')
      .filter((l) => !l.startsWith('//'))
      .join('\n')
      .trim();
    expect(readFileSync(join(ROOT, 'docs/clients.md'), 'utf8')).toContain(body);
  });

  it('prints pump.fun and PumpSwap trades from a running service', async () => {
    // Curves complete and migrate to PumpSwap within seconds: a fifth of the curve buys are graduation buys (the
    // synthetic migration's). At 1,000 tps instead, the simulator signed 400 transactions a slot and the wait for the
    // first PumpSwap buy took 38-70 s of a whole service inside the suite. Routes through coin-quoted coins are a
    // quarter of the trades, so pool hops of multi_hop_swap come soon after the quote coins migrate.
    all = await startAll(join(dir, 'data'), [
      '--tps',
      '100',
      '--slot-ms',
      '100',
      '--sim-pump-mix',
      'graduate=0.2,multi_hop=0.25,coin_quote=0.5',
      // The run's broker: the example's subject is the stream (served by a stream process, as npm start's).
      ...onRunBroker('parsed-example'),
    ]);
    let out = '';
    let err = '';
    example = spawn(process.execPath, ['--import', 'tsx', EXAMPLE, `127.0.0.1:${all.ports.grpc}`], { cwd: ROOT });
    example.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    example.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    // The test's own SubscribeParsed names the multi-hop pool buys, whose lines the example must print with a mint.
    parsed = new Recorder(newClient(all.ports.grpc).SubscribeParsed());
    parsed.send({ event_kinds: ['BuyEvent'] });
    const multiHopSols = () =>
      parsed!.updates.flatMap((u: Msg) =>
        u.events
          .filter((e: Msg) => e.event_oneof === 'amm_buy' && e.amm_buy.ix_name === 'multi_hop_swap')
          .map((e: Msg) => `sol=${Number(e.amm_buy.quote_amount_in) / 1e9} `),
      );
    const lines = () => out.split('\n').filter(Boolean);
    const printedMultiHop = () => multiHopSols().some((sol) => lines().some((l) => l.startsWith('PumpSwap buy ') && l.includes(sol)));
    // Every kind asserted below: the first PumpSwap trade may be a sell, its first buy comes later.
    const KINDS = ['pump.fun buy ', 'pump.fun sell', 'PumpSwap buy '];
    await waitFor(() => KINDS.every((kind) => lines().some((l) => l.startsWith(kind))) && printedMultiHop(), {
      what: `pump.fun buys and sells, PumpSwap buys and a multi-hop pool buy (stdout:\n${out.slice(-2000)}\nstderr:\n${err.slice(-2000)})`,
      timeoutMs: 300_000,
    });
    for (const l of lines().slice(0, -1)) {
      const m = LINE.exec(l);
      expect(m, l).not.toBeNull();
      const [sol, price] = [Number(m![4]), Number(m![5])];
      expect(sol, l).toBeGreaterThan(0);
      expect(Number.isFinite(price) && price > 0, l).toBe(true);
    }
    for (const kind of KINDS)
      expect(
        lines().some((l) => l.startsWith(kind)),
        kind,
      ).toBe(true);
    expect(
      lines()
        .filter((l) => l.startsWith('PumpSwap'))
        .every((l) => !l.includes('mint=?')),
    ).toBe(true);
    expect(err).toBe('');
  });
});
