import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { EpochMath, epochLeaders } from './epochs.js';

const MAINNET = { slotsPerEpoch: 432_000, leaderScheduleSlotOffset: 432_000, warmup: false, firstNormalEpoch: 0, firstNormalSlot: 0 };
// A cluster with warm-up (solana-test-validator's default schedule): epochs of 32, 64, ... slots.
const WARMUP = { slotsPerEpoch: 8192, leaderScheduleSlotOffset: 8192, warmup: true, firstNormalEpoch: 8, firstNormalSlot: 8160 };

describe('EpochMath', () => {
  it("follows mainnet's fixed epochs", () => {
    const m = new EpochMath(MAINNET);
    expect(m.epochOf(64_800_004n)).toBe(150n);
    expect(m.firstSlot(150n)).toBe(64_800_000n);
    expect(m.epochOf(64_799_999n)).toBe(149n);
    expect(m.slotsIn(150n)).toBe(432_000n);
  });

  it("follows Agave's warm-up epochs", () => {
    const m = new EpochMath(WARMUP);
    expect([0n, 31n, 32n, 95n, 96n, 8159n, 8160n, 8160n + 8192n].map((s) => m.epochOf(s))).toEqual([0n, 0n, 1n, 1n, 2n, 7n, 8n, 9n]);
    expect([0n, 1n, 2n, 7n, 8n, 9n].map((e) => m.firstSlot(e))).toEqual([0n, 32n, 96n, 4064n, 8160n, 16352n]);
    expect([0n, 1n, 7n, 8n].map((e) => m.slotsIn(e))).toEqual([32n, 64n, 4096n, 8192n]);
  });
});

describe('epochLeaders', () => {
  const a = bs58.encode(Buffer.alloc(32, 1));
  const b = bs58.encode(Buffer.alloc(32, 2));
  it('builds the compact record (identities by first slot led, one index per 4 slots) and the slot -> leader lookup', () => {
    const l = epochLeaders(3n, 96n, 16n, { [b]: [0, 1, 2, 3, 12, 13, 14, 15], [a]: [4, 5, 6, 7, 8, 9, 10, 11] });
    expect(l.event).toEqual({
      epoch: 3n,
      firstSlot: 96n,
      slotsPerEpoch: 16n,
      slotsPerLeader: 4,
      identities: [Buffer.alloc(32, 2), Buffer.alloc(32, 1)],
      schedule: [0, 1, 1, 0],
    });
    expect(l.leaderOf(96n)).toEqual(Buffer.alloc(32, 2));
    expect(l.leaderOf(104n)).toEqual(Buffer.alloc(32, 1));
    expect(l.leaderOf(200n)).toHaveLength(0);
  });
});
