import { describe, expect, it } from 'vitest';
import { chiSquare, CRITICAL_49_DF } from '../../../test/support/sim/checks.js';
import { leaderSchedule, validatorStakes } from './validators.js';

describe('stake-weighted leader schedule', () => {
  const stakes = validatorStakes(1, 50);

  it('stakes are heavy-tailed and deterministic', () => {
    expect(validatorStakes(1, 50)).toEqual(stakes);
    expect(Math.max(...stakes) / Math.min(...stakes)).toBeGreaterThan(5);
  });

  it('a 432,000-slot epoch follows stake (chi-square, 49 df, p > 0.001)', () => {
    const schedule = leaderSchedule(1, 0, stakes, 432_000);
    expect(schedule.length).toBe(108_000);
    expect(chiSquare(schedule, stakes)).toBeLessThan(CRITICAL_49_DF);
  });

  it('the test has power: a uniform draw fails it, and the schedule fails a uniform hypothesis', () => {
    const uniform = leaderSchedule(
      1,
      0,
      stakes.map(() => 1),
      432_000,
    );
    expect(chiSquare(uniform, stakes)).toBeGreaterThan(CRITICAL_49_DF * 10);
    expect(
      chiSquare(
        leaderSchedule(1, 0, stakes, 432_000),
        stakes.map(() => 1),
      ),
    ).toBeGreaterThan(CRITICAL_49_DF * 10);
  });

  it('each epoch has its own schedule; the same epoch and seed give the same one', () => {
    expect(leaderSchedule(1, 3, stakes, 8192)).toEqual(leaderSchedule(1, 3, stakes, 8192));
    expect(leaderSchedule(1, 3, stakes, 8192)).not.toEqual(leaderSchedule(1, 4, stakes, 8192));
    expect(leaderSchedule(1, 3, stakes, 8192)).not.toEqual(leaderSchedule(2, 3, stakes, 8192));
  });
});
