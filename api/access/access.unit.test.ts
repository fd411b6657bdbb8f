import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AccessControl, type Admission, type Denial, type Lease, type Tenant } from './access.js';
import { INTERFACES, type AccessInterface, type KeyEntry, type KeyLimits } from './keys-file.js';

const entry = (id: string, key: string, limits: KeyLimits = {}, interfaces: readonly AccessInterface[] = INTERFACES): KeyEntry => ({
  id,
  sha256: createHash('sha256').update(key).digest(),
  interfaces: new Set(interfaces),
  limits,
});

const tenantOf = (a: Admission): Tenant => {
  if (!a.ok) throw new Error(`refused: ${a.denial.message}`);
  return a.tenant;
};
const denialOf = (a: Admission): Denial => {
  if (a.ok) throw new Error('admitted');
  return a.denial;
};
const isLease = (l: Lease | Denial): l is Lease => 'release' in l;

describe('AccessControl.admit', () => {
  it('open without token or keys: every request is anonymous', () => {
    const a = new AccessControl();
    expect(a.open).toBe(true);
    expect(tenantOf(a.admit(undefined, 'stream')).id).toBe('anonymous');
    expect(tenantOf(a.admit('anything', 'pubsub')).id).toBe('anonymous');
  });

  it('with keys and the shared token: each key is its tenant, the token is "token"; missing and unknown are unauthenticated', () => {
    const a = new AccessControl({ keys: [entry('acme', 'k-acme')], sharedToken: 'shared' });
    expect(tenantOf(a.admit('k-acme', 'geyser')).id).toBe('acme');
    expect(tenantOf(a.admit('shared', 'jsonrpc')).id).toBe('token');
    expect(denialOf(a.admit(undefined, 'stream'))).toMatchObject({ kind: 'unauthenticated', reason: 'missing' });
    expect(denialOf(a.admit('', 'stream'))).toMatchObject({ kind: 'unauthenticated', reason: 'missing' });
    expect(denialOf(a.admit('k-acm', 'stream'))).toMatchObject({ kind: 'unauthenticated', reason: 'invalid' });
    expect(a.unauthenticated).toEqual({ missing: 2, invalid: 1 });
  });

  it('an empty keys file locks everyone out (it is not open)', () => {
    const a = new AccessControl({ keys: [] });
    expect(a.open).toBe(false);
    expect(denialOf(a.admit('x', 'stream')).kind).toBe('unauthenticated');
  });

  it('refuses an interface the key does not list with forbidden, naming it', () => {
    const a = new AccessControl({ keys: [entry('rpc-only', 'k', {}, ['jsonrpc'])] });
    expect(tenantOf(a.admit('k', 'jsonrpc')).id).toBe('rpc-only');
    expect(denialOf(a.admit('k', 'geyser'))).toEqual({
      kind: 'forbidden',
      reason: 'interface',
      message: 'API key rpc-only may not use geyser',
    });
  });
});

describe('Tenant limits', () => {
  it('counts gRPC streams of both services together, PubSub connections apart, and frees them on release', () => {
    const t = tenantOf(new AccessControl({ keys: [entry('a', 'k', { streams: 2, connections: 1 })] }).admit('k', 'stream'));
    const s1 = t.openStream('stream', () => undefined);
    const s2 = t.openStream('geyser', () => undefined);
    const s3 = t.openStream('stream', () => undefined);
    expect([isLease(s1), isLease(s2), isLease(s3)]).toEqual([true, true, false]);
    expect(s3).toMatchObject({
      kind: 'exhausted',
      reason: 'streams',
      message: 'API key a: at most 2 gRPC streams open at once (limit streams)',
    });
    expect(isLease(t.openStream('pubsub', () => undefined))).toBe(true);
    expect(t.openStream('pubsub', () => undefined)).toMatchObject({ reason: 'connections' });
    (s1 as Lease).release();
    (s1 as Lease).release(); // twice is once
    expect(t.open).toMatchObject({ stream: 0, geyser: 1, pubsub: 1 });
    expect(isLease(t.openStream('stream', () => undefined))).toBe(true);
    expect(t.refusals).toEqual(
      new Map([
        ['streams', 1],
        ['connections', 1],
      ]),
    );
  });

  it('checks filters, keys and how far back from_slot reaches', () => {
    const t = tenantOf(
      new AccessControl({ keys: [entry('a', 'k', { filtersPerStream: 3, keysPerStream: 10, replaySlots: 100 })] }).admit('k', 'stream'),
    );
    expect(t.checkSubscription({ filters: 3, keys: 10, fromSlot: 900n, tip: 1000n })).toBeUndefined();
    expect(t.checkSubscription({ filters: 4, keys: 0 })).toMatchObject({ kind: 'exhausted', reason: 'filtersPerStream' });
    expect(t.checkSubscription({ filters: 1, keys: 11 })?.message).toBe(
      'API key a: 11 account keys in one stream, at most 10 (limit keysPerStream)',
    );
    expect(t.checkSubscription({ filters: 1, keys: 1, fromSlot: 899n, tip: 1000n })).toEqual({
      kind: 'forbidden',
      reason: 'replaySlots',
      message: 'API key a: from_slot 899 is 101 slots behind the newest slot 1000; this key may reach back at most 100 (limit replaySlots)',
    });
    expect(t.checkSubscription({ filters: 1, keys: 1, fromSlot: 1n })).toBeUndefined(); // no tip yet: not judged
    expect(t.checkSubscriptionCount(2)).toBeUndefined();
    expect(t.checkSubscriptionCount(3)).toMatchObject({ reason: 'filtersPerStream' });
  });

  it('rate-limits JSON-RPC requests with a token bucket (a batch counts each) and says when to retry', () => {
    let now = 0;
    const t = tenantOf(
      new AccessControl({ keys: [entry('a', 'k', { rpcPerSecond: 2, rpcBurst: 4 })], now: () => now }).admit('k', 'jsonrpc'),
    );
    expect(t.request('jsonrpc', 3)).toBeUndefined();
    expect(t.request('jsonrpc')).toBeUndefined();
    expect(t.request('jsonrpc')).toEqual({
      kind: 'exhausted',
      reason: 'rpcPerSecond',
      message: 'API key a: over 2 JSON-RPC requests per second (limit rpcPerSecond)',
      retryAfterS: 1,
    });
    expect(t.request('jsonrpc', 5)?.message).toMatch(/a batch of 5 requests is more than the 4/);
    now = 500;
    expect(t.request('jsonrpc')).toBeUndefined();
    expect(t.usage.jsonrpc.requests).toBe(5); // refused ones are not usage
    expect(t.request('stream')).toBeUndefined(); // other interfaces are counted, not rate-limited
    expect(t.usage.stream.requests).toBe(1);
  });

  it("counts what streams sent and ends them past the key's byte rate", () => {
    let now = 0;
    const t = tenantOf(new AccessControl({ keys: [entry('a', 'k', { streamBytesPerSecond: 1000 })], now: () => now }).admit('k', 'geyser'));
    expect(t.sent('geyser', 1, 600)).toBeUndefined();
    expect(t.sent('geyser', 1, 600)).toBeUndefined(); // overdraws
    expect(t.sent('pubsub', 1, 10)).toMatchObject({ kind: 'exhausted', reason: 'streamBytesPerSecond' });
    now = 1000;
    expect(t.sent('geyser', 0, 5)).toBeUndefined();
    expect(t.usage.geyser).toEqual({ requests: 0, updates: 2, bytes: 1205 });
    expect(t.usage.pubsub).toEqual({ requests: 0, updates: 1, bytes: 10 });
  });
});

describe('AccessControl.replace (a reload)', () => {
  it('keeps open streams and usage of kept keys, applies new limits, revokes removed keys and ends their streams', () => {
    const a = new AccessControl({ keys: [entry('a', 'ka', { streams: 5 }), entry('b', 'kb')] });
    const ta = tenantOf(a.admit('ka', 'stream'));
    const tb = tenantOf(a.admit('kb', 'stream'));
    const ended: string[] = [];
    const la = ta.openStream('stream', (m) => ended.push(`a: ${m}`));
    tb.openStream('geyser', (m) => ended.push(`b: ${m}`));
    ta.sent('stream', 3, 30);

    expect(a.replace([entry('a', 'ka', { streams: 1 }), entry('c', 'kc')])).toEqual({ added: ['c'], removed: ['b'] });
    expect(ended).toEqual(['b: API key b was revoked']);
    expect(tb.revoked).toBe(true);
    expect(denialOf(a.admit('kb', 'stream')).reason).toBe('invalid');
    expect(tenantOf(a.admit('ka', 'stream'))).toBe(ta); // the same tenant: counts and usage kept
    expect(ta.usage.stream.updates).toBe(3);
    expect(ta.openStream('stream', () => undefined)).toMatchObject({ reason: 'streams' }); // 1 open, new limit 1
    expect(isLease(la)).toBe(true);
    expect([...a.configured()].sort()).toEqual(['a', 'c']);
  });

  it('a key re-added after its revocation starts afresh', () => {
    const a = new AccessControl({ keys: [entry('a', 'ka')] });
    const before = tenantOf(a.admit('ka', 'stream'));
    a.replace([]);
    a.replace([entry('a', 'ka')]);
    expect(tenantOf(a.admit('ka', 'stream'))).not.toBe(before);
  });
});

describe('constant-time comparison', () => {
  // The secret is hashed before anything looks at it, so how much of a presented key matches cannot change the
  // work done. Measured robustly for a busy machine: many rounds, each timing a batch of both kinds back to back
  // (which goes first alternates), and the median of the rounds' ratios, so a burst of noise or a GC pause spoils a
  // few rounds, not the answer. Long keys (4 KiB) make a leak measurable: a comparison that stopped at the first
  // differing character would cost the all-but-one guess thousands of steps more than the no-match guess; the
  // control below runs such a comparison through the same measure and must be caught by it.
  const KEY = 'k'.repeat(4095) + 'Z';
  const NONE = 'x'.repeat(KEY.length);
  const ALL_BUT_ONE = KEY.slice(0, -1) + 'Q';
  const BOUNDS = [0.8, 1.25] as const;

  /** Median over rounds of (time of a batch of all-but-one guesses) / (time of a batch of no-match guesses). */
  const medianRatio = (check: (presented: string) => unknown): number => {
    const batch = (presented: string): number => {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < 50; i++) check(presented);
      return Number(process.hrtime.bigint() - t0);
    };
    for (let i = 0; i < 20; i++) {
      // warm-up (JIT)
      batch(NONE);
      batch(ALL_BUT_ONE);
    }
    const ratios: number[] = [];
    for (let round = 0; round < 101; round++) {
      if (round % 2 === 0) {
        const n = batch(NONE);
        ratios.push(batch(ALL_BUT_ONE) / n);
      } else {
        const ab = batch(ALL_BUT_ONE);
        ratios.push(ab / batch(NONE));
      }
    }
    return [...ratios].sort((x, y) => x - y)[ratios.length >> 1]!;
  };

  it('takes as long for a key matching no character as for one matching all but the last', () => {
    const a = new AccessControl({ keys: [entry('a', KEY)], sharedToken: KEY.slice(0, -1) + 'Y' });
    const median = medianRatio((presented) => a.admit(presented, 'stream'));
    expect(median).toBeGreaterThan(BOUNDS[0]);
    expect(median).toBeLessThan(BOUNDS[1]);
    expect(denialOf(a.admit(ALL_BUT_ONE, 'stream')).reason).toBe('invalid');
  });

  it('the measure catches a comparison that stops at the first differing character (the control)', () => {
    // What admit would cost if it compared the stored key character by character before its own work.
    const a = new AccessControl({ keys: [entry('a', KEY)] });
    const leaky = (presented: string): unknown => {
      let i = 0;
      while (i < KEY.length && presented.charCodeAt(i) === KEY.charCodeAt(i)) i++;
      return i === KEY.length || a.admit(presented, 'stream');
    };
    expect(medianRatio(leaky)).toBeGreaterThan(BOUNDS[1]);
  });
});
