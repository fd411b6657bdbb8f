// A local Solana JSON-RPC test server (node:http on 127.0.0.1, any free port) that serves a small chain of
// ConfirmedBlocks as Agave answers getSlot, getBlocks, getBlock, getEpochSchedule and getLeaderSchedule,
// getProgramAccounts from a fixed answer per program, with faults on demand: HTTP 429 with Retry-After, a request that never gets an answer (a timeout),
// -32004 (block not available yet), and skipped slots as -32007/-32009. Every request is recorded. A slot's
// block may also be given as its getBlock answer (recorded transactions).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import bs58 from 'bs58';
import type { ConfirmedBlock } from '../../../schemas/yellowstone/storage.js';
import { agaveBlock, toJsonText, type BlockEncoding } from './agave-block.js';

/** What the chain holds at a slot. Slots not in the map are skipped (not listed by getBlocks, -32007). */
export type TestSlot =
  /** `mangle` edits the rendered getBlock answer (Agave's JSON shape) before it is served: data a source cannot convert. */
  | { kind: 'block'; block: ConfirmedBlock; mangle?: (answer: AgaveBlockAnswer) => void }
  /** A getBlock answer given as is (Agave's JSON shape, encoding base64; the same for every encoding asked):
   * blocks built from recorded getTransaction results rather than from a ConfirmedBlock. */
  | { kind: 'answer'; answer: AgaveBlockAnswer }
  /** Listed by getBlocks (as a node with a stale index might) but getBlock answers this skipped code. */
  | { kind: 'listed-skipped'; code: -32007 | -32009 };

export interface Fault {
  method: string;
  /** Only requests whose first param is this slot. */
  slot?: number;
  /** How many matching requests get the fault. */
  times: number;
  what: { http429: { retryAfterSeconds: number } } | { hang: true } | { rpcError: number };
}

export interface RecordedRequest {
  at: number;
  method: string;
  params: unknown[];
  /** What the server did: 'ok', '429', 'hang', or the error code. */
  answer: string;
}

export interface TestRpcServer {
  url: string;
  requests: RecordedRequest[];
  /** Most getBlock requests answered concurrently. */
  maxConcurrentGetBlock: number;
  tip: { confirmed: number; finalized: number };
  close(): Promise<void>;
}

export interface TestChainOptions {
  slots: Map<number, TestSlot>;
  slotsPerEpoch: number;
  /** Leader identities; slot s of an epoch is led by identities[floor(s / 4) % n]. */
  identities: Buffer[];
  tip: { confirmed: number; finalized: number };
  faults?: Fault[];
  /** Delay before each getBlock answer (pacing for the restart test). */
  getBlockDelayMs?: number;
  /** getProgramAccounts answers (encoding base64, withContext) per program id: the context slot and the
   * entries as Agave writes them ({ pubkey, account: { lamports, owner, data: [b64, "base64"], ... } }). */
  programAccounts?: Map<string, { slot: number; accounts: unknown[] }>;
  /** getVersion's answer (Agave's RpcVersionInfo); absent: getVersion is -32601, as for a node without it. */
  version?: { 'solana-core': string; 'feature-set'?: number };
}

/** The rendered getBlock answer, for `mangle`. */
export interface AgaveBlockAnswer {
  transactions: { transaction: unknown; meta: Record<string, unknown> | null }[];
  rewards?: { rewardType: string | null }[];
  [field: string]: unknown;
}

/** The leader identity of a slot under the server's schedule (for expected events). */
export function testLeaderOf(o: Pick<TestChainOptions, 'identities' | 'slotsPerEpoch'>, slot: number): Buffer {
  return o.identities[Math.floor((slot % o.slotsPerEpoch) / 4) % o.identities.length]!;
}

const skippedMessage = (code: number, slot: number): string =>
  code === -32009
    ? `Slot ${slot} was skipped, or missing in long-term storage`
    : `Slot ${slot} was skipped, or missing due to ledger jump to recent snapshot`;

export async function startTestRpcServer(o: TestChainOptions): Promise<TestRpcServer> {
  const faults = (o.faults ?? []).map((f) => ({ ...f }));
  const rendered = new Map<string, string>();
  const hanging = new Set<ServerResponse>();
  let inGetBlock = 0;
  const state: TestRpcServer = { url: '', requests: [], maxConcurrentGetBlock: 0, tip: o.tip, close: async () => {} };

  const blockText = (slot: number, b: ConfirmedBlock, encoding: BlockEncoding): string => {
    const k = `${slot}/${encoding}`;
    let t = rendered.get(k);
    if (t === undefined) {
      const answer = agaveBlock(b, encoding) as AgaveBlockAnswer;
      const at = o.slots.get(slot);
      if (at?.kind === 'block') at.mangle?.(answer);
      rendered.set(k, (t = toJsonText(answer)));
    }
    return t;
  };

  // Rendered once per epoch, each identity encoded once: mainnet's 432,000 slots took 432,000 base58 encodings a
  // request (2.5 s quiet), which a busy machine stretched past the source's 10 s timeout on every retry.
  const schedules = new Map<number, string>();
  const names = o.identities.map((id) => bs58.encode(id));
  const scheduleText = (first: number): string => {
    let t = schedules.get(first);
    if (t === undefined) {
      const schedule: Record<string, number[]> = {};
      for (let i = 0; i < o.slotsPerEpoch; i++) (schedule[names[o.identities.indexOf(testLeaderOf(o, first + i))]!] ??= []).push(i);
      schedules.set(first, (t = JSON.stringify(schedule)));
    }
    return t;
  };

  const answer = async (method: string, params: unknown[]): Promise<{ result?: string; error?: { code: number; message: string } }> => {
    const cfg = (params.find((p) => typeof p === 'object' && p !== null) ?? {}) as { commitment?: string; encoding?: BlockEncoding };
    const tipAt = cfg.commitment === 'finalized' ? state.tip.finalized : state.tip.confirmed;
    switch (method) {
      case 'getSlot':
        return { result: String(tipAt) };
      case 'getEpochSchedule':
        return {
          result: JSON.stringify({
            slotsPerEpoch: o.slotsPerEpoch,
            leaderScheduleSlotOffset: o.slotsPerEpoch,
            warmup: false,
            firstNormalEpoch: 0,
            firstNormalSlot: 0,
          }),
        };
      case 'getLeaderSchedule': {
        const slot = typeof params[0] === 'number' ? params[0] : tipAt;
        return { result: scheduleText(slot - (slot % o.slotsPerEpoch)) };
      }
      case 'getBlocks': {
        const [start, end] = params as [number, number | undefined];
        const last = Math.min(typeof end === 'number' ? end : tipAt, tipAt);
        const out: number[] = [];
        for (let s = start; s <= last; s++) if (o.slots.has(s)) out.push(s);
        return { result: JSON.stringify(out) };
      }
      case 'getBlock': {
        const slot = params[0] as number;
        const at = o.slots.get(slot);
        if (slot > tipAt) return { error: { code: -32004, message: `Block not available for slot ${slot}` } };
        if (at === undefined) return { error: { code: -32007, message: skippedMessage(-32007, slot) } };
        if (at.kind === 'listed-skipped') return { error: { code: at.code, message: skippedMessage(at.code, slot) } };
        if (o.getBlockDelayMs) await new Promise((r) => setTimeout(r, o.getBlockDelayMs));
        if (at.kind === 'answer') return { result: toJsonText(at.answer) };
        return { result: blockText(slot, at.block, cfg.encoding ?? 'json') };
      }
      case 'getProgramAccounts': {
        const program = o.programAccounts?.get(params[0] as string);
        if (program === undefined) return { result: JSON.stringify({ context: { slot: tipAt }, value: [] }) };
        return { result: JSON.stringify({ context: { slot: program.slot }, value: program.accounts }) };
      }
      case 'getVersion':
        if (o.version !== undefined) return { result: JSON.stringify(o.version) };
        return { error: { code: -32601, message: 'Method not found' } };
      default:
        return { error: { code: -32601, message: 'Method not found' } };
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: unknown; method: string; params?: unknown[] };
    const params = body.params ?? [];
    const rec: RecordedRequest = { at: Date.now(), method: body.method, params, answer: 'ok' };
    state.requests.push(rec);
    const fault = faults.find((f) => f.times > 0 && f.method === body.method && (f.slot === undefined || f.slot === params[0]));
    if (fault) {
      fault.times--;
      if ('http429' in fault.what) {
        rec.answer = '429';
        res
          .writeHead(429, { 'retry-after': String(fault.what.http429.retryAfterSeconds), 'content-type': 'text/plain' })
          .end('Too Many Requests');
        return;
      }
      if ('hang' in fault.what) {
        rec.answer = 'hang';
        hanging.add(res);
        return;
      }
      rec.answer = String(fault.what.rpcError);
      const error = {
        code: fault.what.rpcError,
        message: fault.what.rpcError === -32004 ? `Block not available for slot ${String(params[0])}` : 'injected',
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error, id: body.id }));
      return;
    }
    const isBlock = body.method === 'getBlock';
    if (isBlock) state.maxConcurrentGetBlock = Math.max(state.maxConcurrentGetBlock, ++inGetBlock);
    try {
      const a = await answer(body.method, params);
      if (a.error) rec.answer = String(a.error.code);
      const text =
        a.result !== undefined
          ? `{"jsonrpc":"2.0","result":${a.result},"id":${JSON.stringify(body.id)}}`
          : JSON.stringify({ jsonrpc: '2.0', error: a.error, id: body.id });
      res.writeHead(200, { 'content-type': 'application/json' }).end(text);
    } finally {
      if (isBlock) inGetBlock--;
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: Error) => res.writeHead(500).end(e.message));
  });
  // The server never closes an idle connection itself; the clients close theirs. With Node's default (5 s) a client
  // sending on a pooled socket just as the server's timer closes it gets ECONNRESET: undici's global dispatcher is
  // shared by the rpc source and @solana/web3.js in one test file, so a socket the source left idle ~5 s could meet
  // web3.js's request (a CI run failed so).
  server.keepAliveTimeout = 0;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  state.close = async () => {
    for (const r of hanging) r.destroy();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return state;
}
