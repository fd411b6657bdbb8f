// The engine's internal views endpoint and its client (issue 33, item 1): every StreamViews call made through
// remoteViews reaches the endpoint's StreamViews with the same arguments and answers the same values (u64s exact,
// absent values absent), a snapshot's bytes arrive whole and stopping early cancels the engine's read, errors carry
// the engine's message, and bad requests are refused naming what is wrong. The StreamViews behind the endpoint is
// an in-memory one: what is tested is the transport, whose contract is the interface (the ClickHouse side is the
// statements the live layer always ran, covered by the replay, snapshot and PubSub integration tests).
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamViews } from './stream-views.js';
import { startViewsEndpoint, type ViewsEndpoint } from './views-endpoint.js';
import { remoteViews } from './views-remote.js';

const BIG = 18_446_744_073_709_551_615n; // u64 max: must cross as text, exactly
const calls: unknown[][] = [];
let snapshotClosed = 0;
let signatureSignal: AbortSignal | undefined;

const views: StreamViews = {
  async replayOffsets(topics, fromSlot) {
    calls.push(['replayOffsets', topics, fromSlot]);
    return [
      { topic: topics[0]!, partition: 0, start: BIG.toString(), indexed: '7' },
      { topic: topics[0]!, partition: 1, start: null, indexed: '3' },
    ];
  },
  async firstAvailable(starts) {
    calls.push(['firstAvailable', starts]);
    return starts.length === 0 ? undefined : starts[0]!.low + 1n;
  },
  async head(commitment) {
    calls.push(['head', commitment]);
    if (commitment === 'finalized') return undefined;
    if (commitment === 'confirmed') throw new Error('views unreadable: test');
    return BIG;
  },
  async *accountSnapshot(candidates, slot) {
    calls.push(['accountSnapshot', candidates, slot]);
    try {
      for (let i = 0; i < 200; i++) yield Buffer.alloc(1000, i);
    } finally {
      snapshotClosed++;
    }
  },
  async signatureStatus(signature, client, signal) {
    calls.push(['signatureStatus', signature, client]);
    signatureSignal = signal;
    if (signature === 'wait') await new Promise((resolve) => signal.addEventListener('abort', resolve));
    return signature === 'none' ? undefined : { slot: 42n, err: '{"InstructionError":[0,"Custom"]}', level: 'confirmed' };
  },
};

let endpoint: ViewsEndpoint;
let remote: StreamViews;

beforeAll(async () => {
  endpoint = await startViewsEndpoint({ views, host: '127.0.0.1', port: 0, log: pino({ level: 'silent' }) });
  remote = remoteViews({ url: endpoint.url, tag: 'w1' });
});

afterAll(async () => {
  await endpoint?.close();
});

describe('views endpoint and remoteViews', () => {
  it('replay offsets, first available slot and heads cross exactly', async () => {
    expect(await remote.replayOffsets(['t.tx'], 5n)).toEqual([
      { topic: 't.tx', partition: 0, start: BIG.toString(), indexed: '7' },
      { topic: 't.tx', partition: 1, start: null, indexed: '3' },
    ]);
    expect(calls.at(-1)).toEqual(['replayOffsets', ['t.tx'], 5n]);
    expect(await remote.firstAvailable([{ topic: 't.tx', partition: 1, low: BIG - 1n }])).toBe(BIG);
    expect(await remote.firstAvailable([])).toBeUndefined();
    expect(await remote.head('processed')).toBe(BIG);
    expect(await remote.head('finalized')).toBeUndefined();
  });

  it("a failed call rejects with the engine's message", async () => {
    await expect(remote.head('confirmed')).rejects.toThrow(/head: HTTP 500: views unreadable: test/);
  });

  it('a snapshot streams whole, and stopping early cancels the read', async () => {
    const closedBefore = snapshotClosed;
    const bytes: Buffer[] = [];
    for await (const chunk of remote.accountSnapshot({ kind: 'owners', owners: ['o'], pubkeys: ['p'] }, 9n)) bytes.push(chunk);
    const all = Buffer.concat(bytes);
    expect(all.length).toBe(200 * 1000);
    for (let i = 0; i < 200; i++) expect(all[i * 1000 + 999]).toBe(i);
    expect(calls.at(-1)).toEqual(['accountSnapshot', { kind: 'owners', owners: ['o'], pubkeys: ['p'] }, 9n]);
    await waitUntil(() => snapshotClosed === closedBefore + 1);

    for await (const chunk of remote.accountSnapshot({ kind: 'all' }, 9n)) {
      expect(chunk.length).toBeGreaterThan(0);
      break;
    }
    await waitUntil(() => snapshotClosed === closedBefore + 2);
  });

  it("signature look-ups name the process in the client, and the caller's abort reaches the engine", async () => {
    expect(await remote.signatureStatus('sig', 'c7', new AbortController().signal)).toEqual({
      slot: 42n,
      err: '{"InstructionError":[0,"Custom"]}',
      level: 'confirmed',
    });
    expect(calls.at(-1)).toEqual(['signatureStatus', 'sig', 'w1/c7']);
    expect(await remote.signatureStatus('none', 'c7', new AbortController().signal)).toBeUndefined();
    const abort = new AbortController();
    const waiting = remote.signatureStatus('wait', 'c8', abort.signal);
    await waitUntil(() => calls.at(-1)?.[1] === 'wait');
    abort.abort();
    await expect(waiting).rejects.toThrow();
    await waitUntil(() => signatureSignal?.aborted === true);
  });

  it('refuses bad requests naming what is wrong', async () => {
    const post = (path: string, body: string) => fetch(`${endpoint.url}${path}`, { method: 'POST', body });
    const malformed = await post('/head', '{nope');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: string }).error).toMatch(/malformed JSON/);
    const badCommitment = await post('/head', '{"commitment":"rooted"}');
    expect(((await badCommitment.json()) as { error: string }).error).toMatch(/commitment must be processed, confirmed or finalized/);
    const badSlot = await post('/replayOffsets', '{"topics":["t"],"fromSlot":-1}');
    expect(((await badSlot.json()) as { error: string }).error).toMatch(/fromSlot must be a u64/);
    expect((await post('/nope', '{}')).status).toBe(404);
    expect((await fetch(`${endpoint.url}/head`)).status).toBe(405);
  });

  it('with a token, refuses a caller without it', async () => {
    const guarded = await startViewsEndpoint({ views, host: '127.0.0.1', port: 0, token: 's3cret', log: pino({ level: 'silent' }) });
    try {
      await expect(remoteViews({ url: guarded.url, tag: 'x' }).head('processed')).rejects.toThrow(/HTTP 401/);
      expect(await remoteViews({ url: guarded.url, tag: 'x', token: 's3cret' }).head('processed')).toBe(BIG);
    } finally {
      await guarded.close();
    }
  });
});

async function waitUntil(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 10));
}
