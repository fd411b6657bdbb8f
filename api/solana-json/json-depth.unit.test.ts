import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';

const arrays = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('nestsDeeperThan', () => {
  it("Agave's bound: serde_json parses 127 levels and refuses 128", () => {
    expect(MAX_JSON_DEPTH).toBe(127);
    expect(nestsDeeperThan(arrays(127))).toBe(false);
    expect(nestsDeeperThan(arrays(128))).toBe(true);
    expect(nestsDeeperThan(objects(127))).toBe(false);
    expect(nestsDeeperThan(objects(128))).toBe(true);
    expect(nestsDeeperThan(arrays(6_000))).toBe(true);
  });

  it('depth, not count: siblings do not add up', () => {
    expect(nestsDeeperThan(`[${Array(1_000).fill(arrays(100)).join(',')}]`)).toBe(false);
  });

  it('brackets inside strings (escaped quotes included) do not count', () => {
    expect(nestsDeeperThan(`["${'['.repeat(500)}"]`)).toBe(false);
    expect(nestsDeeperThan(`["\\"${'{'.repeat(500)}\\\\", 1]`)).toBe(false);
    expect(nestsDeeperThan(`["\\\\", ${arrays(200)}]`)).toBe(true);
  });
});
