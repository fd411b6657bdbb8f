// The JSON-RPC node the relay test's slotstream B asks for epochs and leaders (--rpc-url): getEpochSchedule
// and getLeaderSchedule answered from slotstream A's own epochs topic (the simulator's schedule records),
// in Agave's shapes. Why not A's JSON-RPC: it answers getLeaderSchedule from the projector's ClickHouse
// views, so the test would run a projector and ClickHouse only to hand back what A's epochs topic already
// holds; reading the topic gives B exactly A's schedules with nothing in between.
import { createServer, type Server } from 'node:http';
import bs58 from 'bs58';
import type { Kafka } from '../../../platform/kafka/index.js';
import { EpochEvent } from '../../../schemas/codec.js';
import { waitFor } from '../harness/kafka.js';
import { readTopics } from '../kafka/read-topics.js';

export interface EpochRpc {
  url: string;
  /** Methods called, in order. */
  calls: string[];
  close(): Promise<void>;
}

/** getLeaderSchedule's answer for an epoch record: identity -> slot indices within the epoch. */
export function leaderScheduleOf(e: EpochEvent): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const id of e.identities) out[bs58.encode(id)] = [];
  const n = Number(e.slotsPerEpoch);
  for (let i = 0; i < n; i++) {
    const k = e.schedule[Math.floor(i / e.slotsPerLeader)];
    if (k !== undefined) out[bs58.encode(e.identities[k]!)]!.push(i);
  }
  return out;
}

export async function startEpochRpc(kafka: Kafka, epochsTopic: string, slotsPerEpoch: number): Promise<EpochRpc> {
  const calls: string[] = [];
  /** A's epoch record of the epoch starting at `firstSlot`; A publishes it with the epoch's first slot, which
   * precedes any slot of the epoch B can ask about, but the topic may trail by a commit: waited for. */
  const epochAt = async (firstSlot: bigint): Promise<EpochEvent> =>
    waitFor(
      async () => {
        const parts = (await readTopics(kafka, [epochsTopic])).get(epochsTopic)!;
        return parts
          .flat()
          .map((r) => EpochEvent.decode(r.value))
          .find((e) => e.firstSlot === firstSlot);
      },
      { what: `A's epoch record starting at slot ${firstSlot}`, timeoutMs: 300_000, intervalMs: 100 },
    );
  const answer = async (method: string, params: unknown[]): Promise<unknown> => {
    if (method === 'getEpochSchedule') {
      return { slotsPerEpoch, leaderScheduleSlotOffset: slotsPerEpoch, warmup: false, firstNormalEpoch: 0, firstNormalSlot: 0 };
    }
    if (method === 'getLeaderSchedule') {
      const slot = BigInt(params[0] as number);
      const spe = BigInt(slotsPerEpoch);
      return leaderScheduleOf(await epochAt((slot / spe) * spe));
    }
    return undefined;
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const { id, method, params } = JSON.parse(body) as { id: number; method: string; params?: unknown[] };
      calls.push(method);
      res.setHeader('content-type', 'application/json');
      answer(method, params ?? []).then(
        (result) =>
          res.end(
            JSON.stringify(
              result === undefined
                ? { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } }
                : { jsonrpc: '2.0', id, result },
            ),
          ),
        (err: unknown) => res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: (err as Error).message } })),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
