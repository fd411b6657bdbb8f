import { describe, expect, it } from 'vitest';
import { SlotStatus } from '../../schemas/codec.js';
import { slotStatus } from '../../test/support/projector/events.js';
import { HeadCache } from '../head/head-cache.js';
import type { ViewsState } from '../views/state.js';
import { headIsCurrent, headState } from './head.js';

const state = (processed?: bigint, confirmed?: bigint, finalized?: bigint): ViewsState => ({
  head: { processed, confirmed, finalized },
  height: { processed: undefined, confirmed: undefined, finalized: undefined },
  oldestBlock: undefined,
});

describe('headState', () => {
  it('is undefined until the cache has a processed head, then its heads with the height of the newest block at or below each', () => {
    const c = new HeadCache({ slots: 150, fromStart: true });
    expect(headState(c)).toBeUndefined();
    c.onEvent({ kind: 'slot', event: slotStatus(10, SlotStatus.SLOT_STATUS_PROCESSED, { parent: 9, height: 500 }) });
    c.onEvent({ kind: 'slot', event: slotStatus(12, SlotStatus.SLOT_STATUS_PROCESSED) });
    c.onEvent({ kind: 'slot', event: slotStatus(10, SlotStatus.SLOT_STATUS_CONFIRMED) });
    expect(headState(c)).toEqual({
      head: { processed: 12n, confirmed: 10n, finalized: undefined },
      height: { processed: 500n, confirmed: 500n, finalized: undefined },
      oldestBlock: undefined,
    });
  });
});

describe('headIsCurrent', () => {
  it('lets the cache answer unless one of its heads trails the views (or it has none where they have one)', () => {
    expect(headIsCurrent(state(10n, 8n, 5n), undefined)).toBe(true);
    expect(headIsCurrent(state(10n, 8n, 5n), state(10n, 8n, 5n))).toBe(true);
    expect(headIsCurrent(state(12n, 9n, 5n), state(10n, 8n, 5n))).toBe(true);
    expect(headIsCurrent(state(12n, 9n, 4n), state(10n, 8n, 5n))).toBe(false);
    expect(headIsCurrent(state(12n, 9n, undefined), state(10n, 8n, 5n))).toBe(false);
    expect(headIsCurrent(state(12n, 9n, undefined), state(10n, 8n, undefined))).toBe(true);
  });
});
