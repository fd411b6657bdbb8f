import { describe, expect, it } from 'vitest';
import { topicNames } from '../../schemas/topics.js';
import { createKafka, topicSpecs } from './index.js';

describe('topicSpecs', () => {
  const specs = topicSpecs(topicNames('p'), { partitions: 6, retentionMs: 86_400_000, replicationFactor: 3 });
  const byName = Object.fromEntries(specs.map((s) => [s.topic, s]));
  const config = (topic: string, name: string): string | undefined => byName[topic]?.config[name];

  it('covers the event topics, entries and parsed updates included, and the deadletter topic', () => {
    expect(Object.keys(byName).sort()).toEqual(
      ['p.accounts.v1', 'p.deadletter.v1', 'p.entries.v1', 'p.epochs.v1', 'p.parsed.v1', 'p.slots.v1', 'p.transactions.v1'].sort(),
    );
  });

  it('uses the configured partitions except for epochs and deadletter, and the configured retention everywhere', () => {
    expect(byName['p.transactions.v1']!.numPartitions).toBe(6);
    expect(byName['p.accounts.v1']!.numPartitions).toBe(6);
    expect(byName['p.slots.v1']!.numPartitions).toBe(6);
    expect(byName['p.epochs.v1']!.numPartitions).toBe(1);
    for (const s of specs) {
      expect(s.replicationFactor).toBe(3);
      expect(config(s.topic, 'retention.ms')).toBe('86400000');
    }
  });

  it('lets epoch records of ~2 MB through', () => {
    expect(Number(config('p.epochs.v1', 'max.message.bytes'))).toBeGreaterThan(2 * 1024 * 1024);
  });

  it('rejects bad options naming the option', () => {
    const t = topicNames('p');
    expect(() => topicSpecs(t, { partitions: 0, retentionMs: 1, replicationFactor: 1 })).toThrow(/partitions/);
    expect(() => topicSpecs(t, { partitions: 1, retentionMs: 0, replicationFactor: 1 })).toThrow(/retentionMs/);
    expect(() => topicSpecs(t, { partitions: 1, retentionMs: 1, replicationFactor: 0 })).toThrow(/replicationFactor/);
  });
});

describe('createKafka', () => {
  it('refuses an empty broker list', () => {
    expect(() => createKafka({ brokers: [], clientId: 'x' })).toThrow(/broker list is empty/);
  });
});
