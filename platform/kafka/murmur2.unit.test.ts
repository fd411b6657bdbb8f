import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { u64Key } from '../schemas/topics.js';
import { murmur2, partitionForKey } from './partition.js';

// kafkajs' own (Java-compatible) murmur2 is the reference: every client must agree on partitions.
const require = createRequire(import.meta.url);
const reference = require('kafkajs/src/producer/partitioners/default/murmur2.js') as (key: Buffer) => number;

describe('murmur2 partitioning', () => {
  it('matches kafkajs (Java) for keys of every tail length and for slot and pubkey keys', () => {
    const keys: Buffer[] = [Buffer.alloc(0), u64Key(0n), u64Key(123456789n), u64Key((1n << 64n) - 1n)];
    for (let len = 1; len <= 40; len++) keys.push(randomBytes(len));
    for (let i = 0; i < 500; i++) keys.push(randomBytes(32));
    for (const k of keys) {
      expect(murmur2(k)).toBe(reference(k));
      expect(partitionForKey(k, 7)).toBe((reference(k) & 0x7fffffff) % 7);
    }
  });
  it('known value: Kafka maps the key "21" to hash -973932308', () => {
    // From Kafka's UtilsTest.testMurmur2.
    expect(murmur2(Buffer.from('21'))).toBe(-973932308);
  });
});
