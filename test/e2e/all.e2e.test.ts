// The quick start, end to end: `slotstream all` as a child process with a local Kafka broker,
// embedded ClickHouse and the simulator; JSON-RPC and gRPC answer with simulated chain data; the ingest runs in a
// process of its own, restarted when killed; SIGINT stops it and leaves no process behind.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { waitFor } from '../support/harness/kafka.js';
import { startAll, type AllProcess } from '../support/cli/all-process.js';
import { alive, descendants } from '../support/cli/descendants.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PUMP = '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P';

/** slotstream all's JSON log lines so far (its ingest process writes to the same stderr). */
const logLines = (): Record<string, unknown>[] =>
  all
    .output()
    .split('\n')
    .flatMap((l) => {
      if (!l.startsWith('{')) return [];
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });

let all: AllProcess;
let child: ChildProcess;
let dataDir: string;
let ports: AllProcess['ports'];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'slotstream-e2e-'));
  // No bound on the start's duration here (a clock bound, which a busy machine fails: issue 32); startAll's own
  // deadline bounds a start that hangs. 100 tps (40 transactions a slot): the simulator keeps 100 ms slots on two cores;
  // at 300 it signed 125 a slot and the chain crawled at 4 slots a second, so every wait on a slot took longer
  // (bench/README.md, "The test suite").
  all = await startAll(dataDir, ['--slot-ms', '100', '--tps', '100']);
  ({ child, ports } = all);
});

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('slotstream all', () => {
  it('answers JSON-RPC from views the projector built from the simulated chain', async () => {
    // getBlockHeight answers from the head cache (the live read) as soon as a block is finalized; the views-only
    // getSignaturesForAddress answers once the projector has caught up.
    // The views' answer is the one the wait saw: asked again, it could be -32007 by then (views trailing Kafka by more
    // than the lag limit on a busy machine).
    const sigs = await waitFor(
      async () => {
        const r = await all.rpc('getBlockHeight', [{ commitment: 'finalized' }]);
        const s = await all.rpc('getSignaturesForAddress', [PUMP, { limit: 5, commitment: 'confirmed' }]);
        return typeof r.result === 'number' && r.result > 0 && Array.isArray(s.result) ? s.result : undefined;
      },
      { timeoutMs: 300_000, what: 'a finalized block height, and the views answering' },
    );
    expect(sigs.length).toBeLessThanOrEqual(5);
    const processed = (await all.rpc('getBlockHeight', [{ commitment: 'processed' }])).result as number;
    const finalized = (await all.rpc('getBlockHeight', [{ commitment: 'finalized' }])).result as number;
    expect(processed).toBeGreaterThanOrEqual(finalized);
    expect(await all.rpc('getNothing')).toMatchObject({ error: { code: -32601, message: 'Method not found' } });
  });

  it('streams matching transactions over gRPC', async () => {
    const def = loadSync(join(ROOT, 'proto/stream.proto'), { keepCase: true, longs: String, defaults: true, oneofs: true });
    const proto = grpc.loadPackageDefinition(def) as unknown as { stream: { Stream: grpc.ServiceClientConstructor } };
    const client = new proto.stream.Stream(`127.0.0.1:${ports.grpc}`, grpc.credentials.createInsecure());
    const call = client.Subscribe?.() as grpc.ClientDuplexStream<unknown, { filters: string[]; transaction?: { slot: string } }>;
    const got: { filters: string[]; transaction?: { slot: string } }[] = [];
    call.on('data', (u) => got.push(u));
    call.on('error', () => {});
    call.write({ transactions: { pump: { account_include: [PUMP] } }, accounts: {} });
    await waitFor(() => got.some((u) => u.transaction), { timeoutMs: 300_000, what: 'a pump.fun transaction update' });
    expect(got.find((u) => u.transaction)!.filters).toEqual(['pump']);
    call.cancel();
    client.close();
  });

  it('notifies PubSub logs and slot subscriptions', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${ports.pubsub}/`);
    const got: { method?: string; params?: { result: { value?: { signature: string }; slot?: number } } }[] = [];
    ws.on('message', (d: Buffer) => got.push(JSON.parse(d.toString()) as (typeof got)[number]));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'logsSubscribe', params: [{ mentions: [PUMP] }, { commitment: 'confirmed' }] }),
    );
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'slotSubscribe' }));
    await waitFor(() => got.some((m) => m.method === 'logsNotification') && got.some((m) => m.method === 'slotNotification'), {
      timeoutMs: 300_000,
      what: 'logs and slot notifications',
    });
    expect(got.find((m) => m.method === 'logsNotification')!.params!.result.value!.signature).toEqual(expect.any(String));
    ws.close();
  });

  it("publishes the simulator's entries and dead forks by default", async () => {
    expect(all.output()).toMatch(/dead-fork rate 0\.01, entries published/);
    const entries = async () => {
      const text = await (await fetch(`http://127.0.0.1:${ports.metrics}/metrics`)).text();
      const m = /^slotstream_ingest_records_total\{topic="solana\.entries\.v1"\} (\d+)/m.exec(text);
      return m ? Number(m[1]) : 0;
    };
    await waitFor(async () => (await entries()) > 0, { timeoutMs: 300_000, what: 'entries records published' });
  });

  it('runs the ingest in a process of its own; a SIGKILLed one is restarted and resumes where Kafka ends', async () => {
    const serving = (): Record<string, unknown>[] => logLines().filter((l) => l.msg === 'ingest process is serving');
    const first = serving()[0]!;
    const pid = first.pid as number;
    expect(pid).not.toBe(child.pid);
    expect(descendants(child.pid!)).toContain(pid);
    // The engine's /metrics carries the ingest process's figures.
    const lastSlot = async (): Promise<number> => {
      const text = await (await fetch(`http://127.0.0.1:${ports.metrics}/metrics`)).text();
      return Number(/^slotstream_ingest_last_slot (\d+)/m.exec(text)?.[1] ?? -1);
    };
    await waitFor(async () => (await lastSlot()) > 0, {
      timeoutMs: 300_000,
      what: "the ingest process's last slot on the engine's /metrics",
    });
    process.kill(pid, 'SIGKILL');
    await waitFor(() => serving().length === 2, { timeoutMs: 300_000, what: 'another ingest process serving' });
    const next = serving()[1]!.pid as number;
    expect(next).not.toBe(pid);
    expect(alive(pid)).toBe(false);
    expect(logLines().some((l) => l.msg === 'ingest process died: starting another' && l.pid === pid)).toBe(true);
    // It takes the name over once the killed one's heartbeat stops and resumes after the newest whole slot.
    await waitFor(() => logLines().some((l) => l.ingestProcess === next && String(l.msg).startsWith('ingest: resuming after slot')), {
      timeoutMs: 300_000,
      what: 'the new ingest process resuming',
    });
    const resumed = Number(logLines().find((l) => l.ingestProcess === next && String(l.msg).startsWith('ingest: resuming'))!.afterSlot);
    await waitFor(async () => (await lastSlot()) > resumed + 2, { timeoutMs: 300_000, what: 'the new ingest process publishing' });
    const tip = (await all.rpc('getSlot', [{ commitment: 'processed' }])).result as number;
    expect(tip).toBeGreaterThan(resumed);
  });

  it('stops on SIGINT and leaves no process behind', async () => {
    const pids = descendants(child.pid!);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 60_000))]);
    expect(code).toBe(0);
    await waitFor(() => pids.every((p) => !alive(p)), { timeoutMs: 300_000, what: 'every child process to end' });
  });
});
