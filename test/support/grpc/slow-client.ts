// The slow-client scenario shared by the slow-client tests (api/grpc/*/slow-client.int.test.ts: who is cut off,
// who gets everything) and bench/stream-latency.ts (how long the reading client waits meanwhile): chain-like
// traffic of ~2 KB transactions of one account, published at a steady rate, and the server's cut-off count.
import { randomBytes } from 'node:crypto';
import { slowClientCutoffs } from '../../../api/grpc/metrics.js';
import type { ChainEvent } from '../../../schemas/codec.js';
import { waitFor } from '../harness/kafka.js';
import { b58, key, newClient, subscribe, txEvent, type Recorder, type TestPublisher } from './clients.js';

/** Slow clients cut off by this process's servers so far (the api's counter). */
export const cutoffs = async (): Promise<number> => (await slowClientCutoffs.get()).values[0]?.value ?? 0;

/** `count` transaction updates of `account`, one per slot from `firstSlot`, each with ~2 KB of instruction data. */
export function bigTransactions(account: Buffer, firstSlot: bigint, count: number): ChainEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    kind: 'transactions' as const,
    event: txEvent(firstSlot + BigInt(i), [account], {
      memos: [],
      instructions: [{ programIdIndex: 0, accounts: Buffer.alloc(0), data: randomBytes(2048) }],
    }),
  }));
}

/**
 * Publishes `events` like a busy chain, `perSecond` updates a second in batches of `batch` (not one burst: the
 * point is a reader that stops, not one merely slower); `each` runs after every batch with the count published.
 * The rate is a shape of the traffic, never a bound: on a starved machine batches go out late and the run is longer.
 */
export async function publishPaced(
  pub: TestPublisher,
  events: ChainEvent[],
  { perSecond = 2_000, batch = 20, each }: { perSecond?: number; batch?: number; each?: (published: number) => Promise<void> } = {},
): Promise<void> {
  const t0 = Date.now();
  for (let i = 0; i < events.length; i += batch) {
    await pub.publish(events.slice(i, i + batch));
    await each?.(Math.min(i + batch, events.length));
    const due = t0 + ((i + batch) / perSecond) * 1000 - Date.now();
    if (due > 0) await new Promise((r) => setTimeout(r, due));
  }
}

/**
 * A publishPaced `each` that waits until the reading client holds everything published so far: on a starved machine
 * (the servers and that client share the test's process) a backlog fetched at once would otherwise fill the reading
 * client's queue too and cut it off as well. The slow client, which reads nothing, still backs up: a reader that
 * stops is cut off, not one that is merely slower.
 */
export const caughtUp =
  (received: () => number) =>
  async (published: number): Promise<void> => {
    await waitFor(() => received() >= published, {
      what: `the reading client to hold the ${published} updates published`,
      timeoutMs: 300_000,
    });
  };

/** p50, p99 and max of `xs` (ms). */
export function percentiles(xs: number[]): { p50: number; p99: number; max: number } {
  const sorted = [...xs].sort((x, y) => x - y);
  return {
    p50: sorted[Math.floor(0.5 * sorted.length)]!,
    p99: sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)]!,
    max: sorted[sorted.length - 1]!,
  };
}

/** What a stream.Stream slow-client run left behind (streamSlowClient). */
export interface StreamSlowRun {
  fast: Recorder;
  slow: Recorder;
  /** Updates published before the probe. */
  n: number;
  /** The probe's signature, and ms from its publication to its arrival on the fast client (a figure, not a bound). */
  probe: { signature: Buffer; ms: number };
  close(): void;
}

/**
 * stream.Stream, two grpc-js clients with the same filter: the slow one stops reading, 3,000 updates of ~2 KB go
 * out (far beyond the HTTP/2 windows plus a 1,000-update queue), the fast one gets them all and the server cuts the
 * slow one off; then one more update (the probe) must still reach the fast client. Deadlines are against a hang.
 */
export async function streamSlowClient(port: number, pub: TestPublisher): Promise<StreamSlowRun> {
  const a = key();
  const clients = [newClient(port), newClient(port)];
  const [fast, slow] = clients.map((c) => subscribe(c)) as [Recorder, Recorder];
  const close = (): void => {
    for (const r of [fast, slow]) r.cancel();
    for (const c of clients) c.close();
  };
  try {
    const req = { transactions: { a: { account_include: [await b58(a)] } } };
    for (const [r, id] of [
      [fast, 1],
      [slow, 2],
    ] as const) {
      r.send(req);
      r.send({ ping: { id } });
      await waitFor(() => r.of('pong').length === 1, { what: 'filters applied', timeoutMs: 300_000 });
    }
    slow.call.pause(); // stops reading: HTTP/2 flow control backs up to the server

    const before = await cutoffs();
    const n = 3_000;
    await publishPaced(pub, bigTransactions(a, 10_000n, n), { batch: 100, each: caughtUp(() => fast.of('transaction').length) });
    await waitFor(() => fast.of('transaction').length === n, { what: 'fast client got everything', timeoutMs: 300_000 }).catch((e) => {
      throw new Error(`${e.message}: fast got ${fast.of('transaction').length}, slow ${slow.updates.length}, err ${fast.error?.message}`);
    });
    await waitFor(async () => (await cutoffs()) > before, { what: 'slow client cut off on the server', timeoutMs: 300_000 });

    // After the cut-off, the fast client still gets a new update.
    const probe = txEvent(20_000n, [a]);
    const sent = performance.now();
    await pub.publish([{ kind: 'transactions', event: probe }]);
    await waitFor(() => fast.of('transaction').length === n + 1, { what: 'probe on the fast client', intervalMs: 5, timeoutMs: 300_000 });
    const ms = fast.receivedAt[fast.receivedAt.length - 1]! - sent;
    return { fast, slow, n, probe: { signature: probe.signatures[0]!, ms }, close };
  } catch (e) {
    close();
    throw e;
  }
}
