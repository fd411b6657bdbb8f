// Where a transaction stands, as domain values: the heads it is measured against and its level and
// confirmations (getSignatureStatuses' Agave JSON of the same values: methods/read-parsers.unit.test.ts).
import { describe, expect, it } from 'vitest';
import { statusHeads, statusOf } from './signature-statuses.js';
import type { ViewsState } from './state.js';

const state = (processed?: bigint, confirmed?: bigint, finalized?: bigint): ViewsState => ({
  head: { processed, confirmed, finalized },
  height: { processed: undefined, confirmed: undefined, finalized: undefined },
  oldestBlock: undefined,
});

describe('signature statuses', () => {
  it('has no heads before the views hold a processed slot; missing stronger heads fall back to processed', () => {
    expect(statusHeads(state())).toBeUndefined();
    expect(statusHeads(state(10n))).toEqual({ processed: 10n, confirmed: 10n, finalized: 10n });
    expect(statusHeads(state(10n, 8n, 5n))).toEqual({ processed: 10n, confirmed: 8n, finalized: 5n });
  });

  it('gives the level and Agave-style confirmations of a slot', () => {
    const heads = { processed: 1000n, confirmed: 990n, finalized: 960n };
    expect(statusOf(950n, null, heads, [])).toEqual({ slot: 950n, err: null, confirmations: null, level: 'finalized' });
    expect(statusOf(980n, '{"x":1}', heads, [970n, 980n, 985n, 990n])).toEqual({
      slot: 980n,
      err: '{"x":1}',
      confirmations: 3,
      level: 'confirmed',
    });
    expect(statusOf(995n, null, heads, [])).toMatchObject({ confirmations: 0, level: 'processed' });
    expect(
      statusOf(
        961n,
        null,
        heads,
        Array.from({ length: 40 }, (_, i) => 962n + BigInt(i)),
      ),
    ).toMatchObject({ confirmations: 31 });
  });
});
