import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AccessControl } from './access.js';
import { INTERFACES } from './keys-file.js';
import { usageRecord } from './usage.js';

describe('usageRecord', () => {
  it('is the difference since the previous snapshot, totalled and by interface, with the open streams at its end', () => {
    const a = new AccessControl({
      keys: [{ id: 'a', sha256: createHash('sha256').update('k').digest(), interfaces: new Set(INTERFACES), limits: {} }],
    });
    const ad = a.admit('k', 'geyser');
    if (!ad.ok) throw new Error('refused');
    const t = ad.tenant;
    t.request('geyser');
    t.sent('geyser', 2, 100);
    const before = structuredClone(t.usage);
    t.sent('geyser', 3, 30);
    t.request('jsonrpc', 4);
    t.answered('jsonrpc', 7);
    t.openStream('pubsub', () => undefined);
    expect(usageRecord(t, before, 0, 60_000)).toEqual({
      start: '1970-01-01T00:00:00.000Z',
      end: '1970-01-01T00:01:00.000Z',
      key: 'a',
      requests: 4,
      updates: 3,
      bytes: 37,
      openStreams: 0,
      openConnections: 1,
      interfaces: { geyser: { requests: 0, updates: 3, bytes: 30 }, jsonrpc: { requests: 4, updates: 0, bytes: 7 } },
    });
    expect(usageRecord(t, undefined, 0, 1)?.updates).toBe(5);
  });

  it('writes nothing more for a revoked key once it is idle', () => {
    const a = new AccessControl({
      keys: [{ id: 'a', sha256: createHash('sha256').update('k').digest(), interfaces: new Set(INTERFACES), limits: {} }],
    });
    const t = [...a.all()][0]!;
    a.replace([]);
    expect(usageRecord(t, structuredClone(t.usage), 0, 1)).toBeUndefined();
  });
});
