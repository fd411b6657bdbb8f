import { afterEach, describe, expect, it } from 'vitest';
import { CommitmentLevel, SubscribeRequest } from '../../proto/gen/stream.js';
import { SlotEvent, SlotStatus } from '../../schemas/codec.js';
import { compileSubscribeRequest } from '../filters/index.js';
import { Hub, type LiveSubscriber } from './hub.js';

const slot = (n: bigint, status: SlotStatus) => ({ kind: 'slots' as const, event: SlotEvent.fromPartial({ slot: n, status }) });

describe('Hub slot statuses', () => {
  let hub: Hub | undefined;
  afterEach(() => hub?.close());

  it('keeps levels and terminal statuses; progress statuses and gaps reach no stream', () => {
    hub = new Hub({ pingIntervalMs: 60_000 });
    const seen: [bigint, number][] = [];
    const s: LiveSubscriber = { onLive: () => undefined, onSlotStatus: (n, st) => seen.push([n, st]), onPing: () => undefined };
    const compiled = compileSubscribeRequest(SubscribeRequest.fromPartial({ commitment: CommitmentLevel.CONFIRMED }), { maxFiltersPerKind: 10, maxKeysPerList: 10 });
    if (!compiled.ok) throw new Error(compiled.error.message);
    hub.register(s, compiled.value, true, 0);

    hub.onEvent(slot(5n, SlotStatus.SLOT_STATUS_FIRST_SHRED_RECEIVED));
    hub.onEvent(slot(5n, SlotStatus.SLOT_STATUS_CREATED_BANK));
    expect(hub.statusOf(5n)).toBeUndefined();
    hub.onEvent(slot(5n, SlotStatus.SLOT_STATUS_PROCESSED));
    hub.onEvent(slot(5n, SlotStatus.SLOT_STATUS_COMPLETED));
    hub.onEvent(slot(5n, SlotStatus.SLOT_STATUS_CONFIRMED));
    expect(hub.statusOf(5n)).toBe(SlotStatus.SLOT_STATUS_CONFIRMED);

    hub.onEvent(slot(6n, SlotStatus.SLOT_STATUS_CREATED_BANK));
    hub.onEvent(slot(6n, SlotStatus.SLOT_STATUS_DEAD));
    hub.onEvent(slot(6n, SlotStatus.SLOT_STATUS_FINALIZED));
    expect(hub.statusOf(6n)).toBe(SlotStatus.SLOT_STATUS_DEAD);

    hub.onEvent(slot(7n, SlotStatus.SLOT_STATUS_GAP));
    expect(hub.statusOf(7n)).toBeUndefined();

    expect(seen).toEqual([
      [5n, SlotStatus.SLOT_STATUS_PROCESSED],
      [5n, SlotStatus.SLOT_STATUS_CONFIRMED],
      [6n, SlotStatus.SLOT_STATUS_DEAD],
      [6n, SlotStatus.SLOT_STATUS_DEAD],
    ]);
  });
});
