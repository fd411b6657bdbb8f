// Streams opened with nothing to send (issue 18 item 1): shared by api/grpc/open-headers.int.test.ts (they open at
// all, before any update) and bench/stream-latency.ts (how long opening takes).
import type * as grpc from '@grpc/grpc-js';
import type { GeyserClient } from '../geyser/client.js';
import type { Msg } from './clients.js';

/** Server pings far apart: the first ping can never be what opens a stream. */
export const FAR_PING_MS = 3_600_000;

/** `p`'s value and how long it took, or a rejection once `deadlineMs` passed (a deadline against a hang). */
export async function timeToOpen<T>(p: Promise<T>, deadlineMs: number, what: string): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not open after ${deadlineMs} ms`)), deadlineMs);
  });
  try {
    const value = await Promise.race([p, late]);
    return { value, ms: performance.now() - t0 };
  } finally {
    clearTimeout(timer);
  }
}

/** The response headers of `call` (grpc-js's 'metadata' event). */
export function headersOf(call: grpc.ClientDuplexStream<Msg, Msg>): Promise<grpc.Metadata> {
  return new Promise((resolve, reject) => {
    call.once('metadata', resolve);
    call.once('error', reject);
  });
}

/** `n` geyser.Geyser streams opened together through the Yellowstone client (its subscribe() resolves on the headers). */
export async function openGeyserStreams(geyser: GeyserClient, n: number, deadlineMs: number): Promise<{ ms: number; destroy(): void }[]> {
  const opened = await Promise.all(Array.from({ length: n }, (_, i) => timeToOpen(geyser.subscribe(), deadlineMs, `geyser stream ${i}`)));
  return opened.map((o) => ({ ms: o.ms, destroy: () => o.value.destroy() }));
}

/** `pairs` stream.Stream Subscribe and SubscribeParsed calls opened together: the time to each one's headers. */
export async function openStreamCalls(client: Msg, pairs: number, deadlineMs: number): Promise<{ ms: number[]; cancel(): void }> {
  const calls: grpc.ClientDuplexStream<Msg, Msg>[] = [];
  for (let i = 0; i < pairs; i++) calls.push(client.Subscribe(), client.SubscribeParsed());
  const cancel = (): void => calls.forEach((c) => c.cancel());
  try {
    const opened = await Promise.all(
      calls.map((c, i) => timeToOpen(headersOf(c), deadlineMs, `${i % 2 === 0 ? 'Subscribe' : 'SubscribeParsed'} ${i >> 1}`)),
    );
    return { ms: opened.map((o) => o.ms), cancel };
  } catch (e) {
    cancel();
    throw e;
  }
}
