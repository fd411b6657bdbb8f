import { describe, expect, it } from 'vitest';
import { LagTracker } from './lag.js';

const opts = { stallMs: 10_000, maxLagSlots: 5 };

describe('LagTracker', () => {
  it('is ok and 0 behind while the ingest keeps up with a moving tip', () => {
    const t = new LagTracker(opts, 0);
    for (let s = 100n, now = 0; s < 120n; s++, now += 400) {
      t.upstream(s, now);
      t.handedOver(s);
      expect(t.state(now + 100)).toEqual({ health: 'ok', slots: 0, ms: 0, sinceTipMs: 100 });
    }
  });

  it('counts slots behind the tip and milliseconds since the oldest slot not handed over was announced', () => {
    const t = new LagTracker(opts, 0);
    t.upstream(100n, 1_000);
    t.handedOver(100n);
    t.upstream(101n, 1_400);
    t.upstream(103n, 2_200);
    expect(t.state(3_000)).toMatchObject({ health: 'ok', slots: 3, ms: 1_600 });
    t.handedOver(101n);
    // 102 was never announced on its own: the tip jumped to 103 at 2,200.
    expect(t.state(3_000)).toMatchObject({ slots: 2, ms: 800 });
    t.handedOver(103n);
    expect(t.state(3_000)).toMatchObject({ slots: 0, ms: 0 });
    // Statuses of old slots (replays, confirmations) do not move the tip back.
    t.upstream(90n, 3_100);
    expect(t.upstreamTip).toBe(103n);
  });

  it('says behind, naming the limit, when the ingest trails by more than maxLagSlots', () => {
    const t = new LagTracker(opts, 0);
    t.upstream(100n, 0);
    t.handedOver(100n);
    t.upstream(106n, 400);
    const s = t.state(500);
    expect(s).toMatchObject({ health: 'behind', slots: 6 });
    expect(s.reason).toBe("the ingest trails the upstream's tip (slot 106) by 6 slots (limit 5)");
    t.handedOver(101n);
    expect(t.state(500).health).toBe('ok');
  });

  it('says behind when the upstream tip stops advancing for stallMs, even when the ingest has everything', () => {
    const t = new LagTracker(opts, 0);
    t.upstream(100n, 1_000);
    t.handedOver(100n);
    expect(t.state(11_000).health).toBe('ok');
    const s = t.state(11_001);
    expect(s.health).toBe('behind');
    expect(s.reason).toBe("the upstream's tip (slot 100) has not advanced for 10001 ms (limit 10000 ms)");
    // The tip moves again: ok (101 is not handed over yet, but 1 slot is within the limit).
    t.upstream(101n, 11_500);
    expect(t.state(11_600)).toEqual({ health: 'ok', slots: 1, ms: 100, sinceTipMs: 100 });
  });

  it('an upstream that never reports is a stall from the start', () => {
    const t = new LagTracker(opts, 5_000);
    expect(t.state(15_000).health).toBe('ok');
    expect(t.state(15_001).reason).toBe('the upstream has reported no slot for 10001 ms (limit 10000 ms)');
  });

  it('estimates the age of slots already past when tracking began at 400 ms per slot (a backfill)', () => {
    const t = new LagTracker({ stallMs: 60_000, maxLagSlots: 1_000_000 }, 0);
    t.handedOver(1_000n); // resuming after slot 1,000
    t.upstream(11_000n, 2_000);
    expect(t.state(2_000)).toMatchObject({ slots: 10_000, ms: 9_999 * 400 });
    t.handedOver(10_999n);
    expect(t.state(2_500)).toMatchObject({ slots: 1, ms: 500 });
  });

  it('keeps bounded memory over a long backfill, erring low', () => {
    const t = new LagTracker({ stallMs: 60_000, maxLagSlots: 10 }, 0);
    t.upstream(0n, 0);
    t.handedOver(0n);
    for (let i = 1; i <= 100_000; i++) t.upstream(BigInt(i), i * 400);
    const s = t.state(100_000 * 400);
    expect(s.slots).toBe(100_000);
    expect(s.ms).toBeLessThanOrEqual(100_000 * 400 - 400);
    expect(s.ms).toBeGreaterThan(100_000 * 400 * 0.9);
    expect((t as unknown as { marks: unknown[] }).marks.length).toBeLessThanOrEqual(4097);
  });
});
