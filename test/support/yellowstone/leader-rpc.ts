// A JSON-RPC stub with what the yellowstone source asks a node for: getEpochSchedule (mainnet's: 432,000
// slots, no warm-up) and getLeaderSchedule (two made-up leaders taking turns every 4 slots).
import { createServer, type Server } from 'node:http';
import bs58 from 'bs58';

export const LEADERS = [Buffer.alloc(32, 7), Buffer.alloc(32, 9)] as const;
export const SLOTS_PER_EPOCH = 432_000n;

/** The stub's leader of a slot. */
export const leaderOf = (slot: bigint): Buffer => LEADERS[Number(((slot % SLOTS_PER_EPOCH) / 4n) % 2n)]!;

export interface LeaderRpc {
  url: string;
  calls: string[];
  close(): Promise<void>;
}

export async function startLeaderRpc(): Promise<LeaderRpc> {
  const calls: string[] = [];
  // The two leaders' slot lists, each key encoded once (not once per slot of the epoch: 1.7 CPU s).
  const turns: [number[], number[]] = [[], []];
  for (let i = 0; i < Number(SLOTS_PER_EPOCH); i++) turns[Math.floor(i / 4) % 2]!.push(i);
  const schedule: Record<string, number[]> = { [bs58.encode(LEADERS[0])]: turns[0], [bs58.encode(LEADERS[1])]: turns[1] };
  const scheduleJson = JSON.stringify(schedule);
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      calls.push(method);
      const result =
        method === 'getEpochSchedule'
          ? JSON.stringify({
              slotsPerEpoch: Number(SLOTS_PER_EPOCH),
              leaderScheduleSlotOffset: Number(SLOTS_PER_EPOCH),
              warmup: false,
              firstNormalEpoch: 0,
              firstNormalSlot: 0,
            })
          : method === 'getLeaderSchedule'
            ? scheduleJson
            : undefined;
      res.setHeader('content-type', 'application/json');
      res.end(
        result === undefined
          ? JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } })
          : `{"jsonrpc":"2.0","id":${id},"result":${result}}`,
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
