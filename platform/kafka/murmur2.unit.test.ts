import { describe, expect, it } from 'vitest';
import { murmur2, partitionForKey } from './murmur2.js';

// Hashes printed by Kafka's own Java `Utils.murmur2` (kafka-clients 4.1.2) for these UTF-8 strings.
// The integration contract test (kafka.int.test.ts) checks random slot and pubkey keys against the
// Java client at run time as well.
const JAVA: readonly [string, number][] = [
  ['21', -973932308],
  ['foobar', -790332482],
  ['abc', 479470107],
  ['a-little-bit-long-string', -985981536],
  ['a-little-bit-longer-string', -1486304829],
  ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
];

describe('murmur2 partitioning', () => {
  it("hashes like Kafka's Java client for every tail length", () => {
    for (const [s, h] of JAVA) expect(murmur2(Buffer.from(s))).toBe(h);
  });
  it('maps a hash to a partition the way the Java client does (sign bit dropped, then modulo)', () => {
    for (const [s, h] of JAVA) expect(partitionForKey(Buffer.from(s), 7)).toBe((h & 0x7fffffff) % 7);
  });
});
