import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleWatch } from './idle-watch.js';

describe('IdleWatch', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('fires once after `ms` of silence, counted from the last touch, and never while updates come', () => {
    let fired = 0;
    const w = new IdleWatch(1_000, () => fired++);
    w.arm();
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(600);
      w.touch();
    }
    expect(fired).toBe(0);
    vi.advanceTimersByTime(999);
    expect(fired).toBe(0);
    vi.advanceTimersByTime(1);
    expect(fired).toBe(1);
    vi.advanceTimersByTime(10_000);
    expect(fired).toBe(1);
  });

  it('disarmed, it never fires; armed again, it watches afresh', () => {
    let fired = 0;
    const w = new IdleWatch(500, () => fired++);
    w.arm();
    w.disarm();
    vi.advanceTimersByTime(5_000);
    expect(fired).toBe(0);
    w.arm();
    vi.advanceTimersByTime(500);
    expect(fired).toBe(1);
  });
});
