// Asks a JSON-RPC method until it answers anything but -32007: the views answer that while they trail Kafka by more
// than the api's lag limit (RPC_MAX_SLOT_LAG, 150 slots), which a busy machine's projector can on a fast chain. A
// client asks again then; the answer returned is the one the wait saw, so a caller never reads an error as data.
import { waitFor } from '../harness/kafka.js';

export interface LagAnswer {
  result?: unknown;
  error?: { code: number; message?: string };
}

export function withinLagLimit<A extends LagAnswer>(
  rpc: (method: string, params: unknown[]) => Promise<A>,
  method: string,
  params: unknown[],
  what = `${method} to answer within the lag limit`,
): Promise<A> {
  return waitFor(
    async () => {
      const a = await rpc(method, params);
      return a.error?.code === -32007 ? undefined : a;
    },
    { timeoutMs: 300_000, intervalMs: 200, what },
  );
}
