// A real chain never holds two transactions with one signature (Agave's status cache refuses the second), so
// the simulated chain must not either: the views (getBlock) and the streams would disagree (issue 18, item 11).
// Signed (ed25519) runs, since there equal messages mean equal signatures; more votes per block than
// validators was how two came about.
import { describe, expect, it } from 'vitest';
import { collect } from '../../../test/support/sim/checks.js';

async function signatures(o: Parameters<typeof collect>[0]): Promise<{ all: string[]; votes: number; perSlot: number[] }> {
  const all: string[] = [];
  let votes = 0;
  const perSlot: number[] = [];
  for (const b of await collect(o)) {
    const txs = b.events.flatMap((e) => (e.kind === 'transactions' ? [e.event] : []));
    perSlot.push(txs.length);
    for (const tx of txs) {
      if (tx.isVote) votes++;
      for (const s of tx.signatures) all.push(s.toString('hex'));
    }
  }
  return { all, votes, perSlot };
}

const repeated = (xs: string[]): string[] => {
  const seen = new Set<string>();
  return xs.filter((x) => seen.size === seen.add(x).size);
};

describe('simulated signatures', () => {
  it('no signature repeats over 150 slots of the default chain (50 validators, 200 tps: ~55 votes a block)', async () => {
    const { all, votes } = await signatures({ fast: false, maxSlots: 150 });
    expect(votes).toBeGreaterThan(5000);
    expect(repeated(all)).toEqual([]);
  });

  it('no signature repeats with far more votes a block than validators; the rate stays tps', async () => {
    const { all, votes, perSlot } = await signatures({ fast: false, maxSlots: 80, validators: 4, tps: 400, skipRate: 0 });
    expect(repeated(all)).toEqual([]);
    const blocks = perSlot.filter((n) => n > 0).length;
    expect(votes).toBeLessThanOrEqual(4 * blocks); // one vote per validator per block
    expect(all.length / blocks).toBeGreaterThan(0.8 * 160); // 400 tps x 0.4 s, drawn in 0.8-1.2 of the mean
  });
});
