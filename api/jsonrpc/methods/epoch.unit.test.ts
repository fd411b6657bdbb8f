import { describe, expect, it } from 'vitest';
import { RpcError } from '../../solana-json/errors.js';
import { toJson } from '../../solana-json/json.js';
import { epochInfoJson, epochInfoOf, parseGetEpochInfo } from './getEpochInfo.js';
import { epochScheduleJson, epochScheduleOf, getEpochSchedule } from './getEpochSchedule.js';

describe('getEpochSchedule', () => {
  it("a chain without warmup (mainnet, the simulator): Agave's shape with zeros", () => {
    const s = epochScheduleOf({ epoch: 3n, firstSlot: 3n * 8192n, slotsPerEpoch: 8192n });
    expect(toJson(epochScheduleJson(s))).toBe(
      '{"slotsPerEpoch":8192,"leaderScheduleSlotOffset":8192,"warmup":false,"firstNormalEpoch":0,"firstNormalSlot":0}',
    );
    expect(epochScheduleOf({ epoch: 900n, firstSlot: 900n * 432_000n, slotsPerEpoch: 432_000n }).warmup).toBe(false);
  });

  it("with warmup: Agave's first normal epoch and slot (8192-slot epochs after 32, 64, ... 4096)", () => {
    // Warmup epochs 0..7 have 32..4096 slots (8160 in all), so epoch 8 is the first of 8192 slots.
    const s = epochScheduleOf({ epoch: 9n, firstSlot: 8160n + 8192n, slotsPerEpoch: 8192n });
    expect(s).toEqual({
      slotsPerEpoch: 8192n,
      leaderScheduleSlotOffset: 8192n,
      warmup: true,
      firstNormalEpoch: 8n,
      firstNormalSlot: 8160n,
    });
    // A length that is not a power of two rounds up, as Agave's next_power_of_two does.
    expect(epochScheduleOf({ epoch: 20n, firstSlot: 1n, slotsPerEpoch: 432_000n })).toMatchObject({
      firstNormalEpoch: 14n,
      firstNormalSlot: 32n * (2n ** 14n - 1n),
    });
  });

  it('takes no parameters', () => {
    expect(getEpochSchedule.parse([])).toBeNull();
    expect(() => getEpochSchedule.parse([{}])).toThrow(RpcError);
  });
});

describe('getEpochInfo', () => {
  it("Agave's shape: slot index within the epoch, exact u64s", () => {
    const i = epochInfoOf(166_598n, 166_500n, { epoch: 20n, firstSlot: 163_840n, slotsPerEpoch: 8192n }, 22_661_093n);
    expect(toJson(epochInfoJson(i))).toBe(
      '{"absoluteSlot":166598,"blockHeight":166500,"epoch":20,"slotIndex":2758,"slotsInEpoch":8192,"transactionCount":22661093}',
    );
    expect(toJson(epochInfoJson({ ...i, transactionCount: 2n ** 64n - 1n }))).toContain('"transactionCount":18446744073709551615');
  });

  it('parses the optional config like getBlockHeight', () => {
    expect(parseGetEpochInfo([])).toMatchObject({ commitment: 'finalized' });
    expect(parseGetEpochInfo([{ commitment: 'processed', minContextSlot: 5 }])).toMatchObject({
      commitment: 'processed',
      minContextSlot: 5n,
    });
    expect(() => parseGetEpochInfo([{ commitment: 'rooted' }])).toThrow(RpcError);
    expect(() => parseGetEpochInfo([{}, 1])).toThrow(RpcError);
  });
});
