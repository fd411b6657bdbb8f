import { afterEach, describe, expect, it } from 'vitest';
import { CommitmentLevel, SubscribeRequest } from '../../proto/gen/stream.js';
import { SlotEvent, SlotStatus } from '../../schemas/codec.js';
import { Commitment, compileSubscribeRequest, compileSubscription, EMPTY_SUBSCRIPTION } from '../filters/index.js';
import { Hub, type LiveSubscriber } from './hub.js';
import { ChainRecord, entryRecord, slotRecord } from './stream-event.js';
import { EntryEvent, ParsedTransactionEvent } from '../../schemas/gen/events.js';

const slot = (n: bigint, status: SlotStatus) => slotRecord(SlotEvent.fromPartial({ slot: n, status }), 0);

describe('Hub slot statuses', () => {
  let hub: Hub | undefined;
  afterEach(() => hub?.close());

  it('keeps levels and terminal statuses; progress statuses and gaps reach no stream', () => {
    hub = new Hub({ pingIntervalMs: 60_000 });
    const seen: [bigint, number][] = [];
    const s: LiveSubscriber = { onLive: () => undefined, onSlotStatus: (n, st) => seen.push([n, st]), onPing: () => undefined };
    const compiled = compileSubscribeRequest(SubscribeRequest.fromPartial({ commitment: CommitmentLevel.CONFIRMED }), {
      maxFiltersPerKind: 10,
      maxKeysPerList: 10,
    });
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

  // Yellowstone's block_machine_storage_fills_missing_commitment_levels, live: a slot reported processed then
  // finalized gets its confirmed status first; each level goes out once, and after the gates learnt it.
  it('fills in a skipped confirmed level before finalized, announces each level once, and tells the gates before the slot streams', () => {
    hub = new Hub({ pingIntervalMs: 60_000 });
    const seen: string[] = [];
    const s: LiveSubscriber = {
      onLive: (u) => seen.push(`update ${u.live.kind} ${u.slot} ${u.live.kind === 'slot' ? u.live.event.status : ''}`.trim()),
      onSlotStatus: (n, st) => seen.push(`gate ${n} ${st}`),
      onPing: () => undefined,
    };
    const slots = [{ name: 's', filterByCommitment: false, interslotUpdates: false }];
    hub.register(
      s,
      compileSubscription({ ...EMPTY_SUBSCRIPTION, commitment: Commitment.confirmed, slots, blocksMeta: [{ name: 'm' }] }),
      true,
      0,
    );

    hub.onEvent(slotRecord(SlotEvent.fromPartial({ slot: 9n, status: SlotStatus.SLOT_STATUS_PROCESSED, block: { parentSlot: 8n } }), 0));
    hub.onEvent(slot(9n, SlotStatus.SLOT_STATUS_FINALIZED));
    // A level already announced (a late or repeated record) is not announced again.
    hub.onEvent(slot(9n, SlotStatus.SLOT_STATUS_CONFIRMED));
    hub.onEvent(slot(9n, SlotStatus.SLOT_STATUS_FINALIZED));
    // Nothing known of slot 3 (processed before the api started): finalized alone.
    hub.onEvent(slot(3n, SlotStatus.SLOT_STATUS_FINALIZED));
    expect(seen).toEqual([
      'gate 9 0',
      'update slot 9 0',
      'update blockMeta 9',
      'gate 9 1',
      'update slot 9 1',
      'gate 9 2',
      'update slot 9 2',
      'gate 3 2',
      'update slot 3 2',
    ]);
    expect(hub.statusOf(9n)).toBe(SlotStatus.SLOT_STATUS_FINALIZED);
  });
});

describe('Hub parsed records', () => {
  it('go to the sessions with parsed filters only, under their names, and to none once the filter is gone', () => {
    const hub = new Hub({ pingIntervalMs: 60_000 });
    try {
      const got = new Map<string, [string, string[]][]>();
      const session = (id: string): LiveSubscriber => ({
        onLive: (u, names) => got.set(id, [...(got.get(id) ?? []), [u.live.kind, [...names]]]),
        onSlotStatus: () => undefined,
        onPing: () => undefined,
      });
      const parsed = session('parsed');
      const entries = session('entries');
      hub.register(parsed, compileSubscription({ ...EMPTY_SUBSCRIPTION, parsed: [{ name: 'p' }] }), false, 0);
      hub.register(entries, compileSubscription({ ...EMPTY_SUBSCRIPTION, entry: [{ name: 'e' }] }), false, 0);
      hub.onEvent(new ChainRecord('parsed', ParsedTransactionEvent.fromPartial({ slot: 5n }), 0));
      hub.onEvent(entryRecord(EntryEvent.fromPartial({ slot: 5n }), 0));
      expect(got.get('parsed')).toEqual([['parsed', ['p']]]);
      expect(got.get('entries')).toEqual([['entry', ['e']]]);
      hub.register(parsed, compileSubscription({ ...EMPTY_SUBSCRIPTION, entry: [{ name: 'e2' }] }), false, 0);
      hub.onEvent(new ChainRecord('parsed', ParsedTransactionEvent.fromPartial({ slot: 6n }), 0));
      expect(got.get('parsed')).toEqual([['parsed', ['p']]]);
    } finally {
      hub.close();
    }
  });
});
