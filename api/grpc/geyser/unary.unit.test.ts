// The unary calls against a chain state fed slot records: levels, unknown commitment, a level not seen yet,
// blockhash validity and its argument check; and SubscribeReplayInfo's rule for combining partitions.
import bs58 from 'bs58';
import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { SlotEvent, SlotStatus } from '../../../schemas/gen/events.js';
import { ChainState } from '../../live/index.js';
import { firstAvailableOf } from './replay-info.js';
import { yellowstoneSlice } from './slices.js';
import { GeyserCallError, geyserUnary, levelOf } from './unary.js';

const hash = (n: number) => Buffer.alloc(32, n);
function chain(): ChainState {
  const c = new ChainState();
  for (let s = 10n; s <= 12n; s++) {
    c.onSlot(
      SlotEvent.fromPartial({
        slot: s,
        status: SlotStatus.SLOT_STATUS_PROCESSED,
        block: { blockhash: hash(Number(s)), blockHeight: s + 100n },
      }),
    );
  }
  c.onSlot(SlotEvent.fromPartial({ slot: 11n, status: SlotStatus.SLOT_STATUS_CONFIRMED }));
  return c;
}
const calls = (c: ChainState) => geyserUnary({ chain: c, kafka: undefined as never, topics: undefined as never, views: undefined });
function callError(f: () => unknown): GeyserCallError {
  try {
    f();
  } catch (e) {
    if (e instanceof GeyserCallError) return e;
    throw e;
  }
  throw new Error('expected an error');
}

describe('geyser unary calls', () => {
  it('answer per commitment level from the chain state', () => {
    const u = calls(chain());
    expect(u.getSlot({ commitment: 0 })).toEqual({ slot: '12' });
    expect(u.getSlot({})).toEqual({ slot: '12' });
    expect(u.getSlot({ commitment: 1 })).toEqual({ slot: '11' });
    expect(u.getBlockHeight({ commitment: 1 })).toEqual({ blockHeight: '111' });
    expect(u.getLatestBlockhash({ commitment: 0 })).toEqual({ slot: '12', blockhash: bs58.encode(hash(12)), lastValidBlockHeight: '262' });
    expect(u.isBlockhashValid({ blockhash: bs58.encode(hash(10)), commitment: 1 })).toEqual({ slot: '11', valid: true });
    expect(u.isBlockhashValid({ blockhash: bs58.encode(hash(12)), commitment: 1 })).toEqual({ slot: '11', valid: false });
    expect(u.ping({ count: 9 })).toEqual({ count: 9 });
    expect(JSON.parse(u.getVersion().version).version.package).toBe('slotstream');
  });

  it('errors: unknown commitment and bad blockhash are INVALID_ARGUMENT, a level not reached yet UNAVAILABLE', () => {
    const u = calls(chain());
    expect(callError(() => levelOf(5))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: 'failed to create CommitmentLevel from 5',
    });
    expect(callError(() => u.isBlockhashValid({ blockhash: 'xyz0', commitment: 0 }))).toMatchObject({ code: status.INVALID_ARGUMENT });
    expect(callError(() => u.isBlockhashValid({ blockhash: bs58.encode(Buffer.alloc(5)), commitment: 0 })).details).toMatch(
      /not base58 of 32 bytes/,
    );
    expect(callError(() => u.getSlot({ commitment: 2 }))).toMatchObject({
      code: status.UNAVAILABLE,
      details: 'no slot at finalized seen yet',
    });
    expect(callError(() => calls(new ChainState()).getLatestBlockhash({}))).toMatchObject({
      code: status.UNAVAILABLE,
      details: 'no block at processed seen yet',
    });
  });
});

describe('firstAvailableOf', () => {
  it('nothing trimmed: the oldest first slot; some trimmed: after the newest trimmed first slot; nothing held: undefined', () => {
    expect(firstAvailableOf([])).toBeUndefined();
    expect(
      firstAvailableOf([
        { slot: 7n, trimmed: false },
        { slot: 5n, trimmed: false },
      ]),
    ).toBe(5n);
    expect(
      firstAvailableOf([
        { slot: 7n, trimmed: true },
        { slot: 5n, trimmed: false },
        { slot: 9n, trimmed: true },
      ]),
    ).toBe(10n);
  });
});

describe('yellowstoneSlice', () => {
  it('concatenates the ranges that fit; a range past the end gives nothing; no slices: the data', () => {
    const data = Buffer.from('0123456789');
    expect(
      Buffer.from(
        yellowstoneSlice(data, [
          { offset: 0, length: 2 },
          { offset: 5, length: 3 },
        ]),
      ).toString(),
    ).toBe('01567');
    expect(Buffer.from(yellowstoneSlice(data, [{ offset: 8, length: 5 }])).toString()).toBe('');
    expect(
      Buffer.from(
        yellowstoneSlice(data, [
          { offset: 1, length: 1 },
          { offset: 9, length: 2 },
        ]),
      ).toString(),
    ).toBe('1');
    expect(yellowstoneSlice(data, [])).toBe(data);
  });
});
