// The soak's clients, one process per interface (argv[2]: stream, geyser, pubsub or jsonrpc), started by the
// driver (driver.ts) through bench/support/workers.ts once the service serves. Filters are what real clients ask:
// pump.fun's program, the token program, a few busy accounts (the recording's most written), slots and block meta.
// Each process keeps the newest slot it saw (how far it trails the chain), end-to-end latencies against the
// upstream's schedule (schedule.ts: geyser.Geyser transactions by their index in the block, PubSub slot
// notifications; stream.Stream's transaction updates carry no index, so that interface reports its trail), and
// errors (a stream ended by the server, a failed request).
// IPC: -> { ready } ; <- { cmd: 'start', start: StreamStart } (each new upstream stream) ; <- { cmd: 'sample' }
// -> { sample: ClientSample } (since the last sample) ; <- { cmd: 'stop' }.
import { readFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import WebSocket from 'ws';
import { GEYSER_SERVICE, type SubscribeUpdate as GeyserUpdate } from '../../ingest/sources/yellowstone/geyser-service.js';
import { PUMP } from '../../schemas/pumpfun/pump-table.js';
import {
  StreamService,
  SubscribeRequest,
  SubscribeRequestFilterAccounts,
  SubscribeRequestFilterTransactions,
  SubscribeUpdate,
} from '../../proto/gen/stream.js';
import { TOKEN_PROGRAM } from '../../schemas/programs.js';
import type { RecordingIndex } from './recording.js';
import { Schedule, type StreamStart } from './schedule.js';
import { STAGES, type Stage } from './stats.js';

const noStages = (): Record<Stage, number[]> => ({ wait: [], ingest: [], serve: [] });

export interface ClientSample {
  /** Newest slot any stream of this process saw (-1: none). */
  tip: number;
  updates: number;
  /** End-to-end latencies (ms) since the last sample. */
  e2eMs: number[];
  /** geyser.Geyser transactions' end-to-end latency in three parts (ms; their sum is the e2e figure): `wait` from
   * when the upstream was due to send the transaction to when it was due to send its slot's last update (a source
   * that publishes whole slots cannot publish it before; 0 with SOAK_PUBLISH=pieces), `ingest` from then to the api's read of the record (the
   * update's created_at: the ingest's assembly and publish, Kafka, the stream process's fetch), `serve` from that
   * read to this client's receive callback. */
  stagesMs: Record<Stage, number[]>;
  /** Request latencies (ms; jsonrpc) since the last sample. */
  requestMs: number[];
  errors: number;
  /** JSON-RPC answers saying the views trail too far (-32007, -32016), so far. */
  behind: number;
  /** JSON-RPC refusals (-32429: over the client's share of the views' queries) since the last sample; counted as
   * errors too. */
  refused: number;
  /** The first few error messages of the run, for the report. */
  errorTexts: string[];
  /** Streams or subscriptions open now. */
  open: number;
}

const role = process.argv[2] ?? '';
const index = JSON.parse(readFileSync(process.env.SOAK_INDEX ?? '', 'utf8')) as RecordingIndex;
const count = Number(process.env.SOAK_CLIENTS ?? 50);
const port = Number(process.env.SOAK_PORT);
const SLOT_MS = Number(process.env.SOAK_SLOT_MS ?? 400);
const WHOLE_SLOTS = process.env.SOAK_PUBLISH !== 'pieces';
const PUMP_ID = PUMP.programId;
const busy = index.busyAccounts.slice(0, 5);
const send = (m: object): void => void process.send?.(m);

let schedule: Schedule | undefined;
const sample: ClientSample = {
  tip: -1,
  updates: 0,
  e2eMs: [],
  stagesMs: noStages(),
  requestMs: [],
  errors: 0,
  behind: 0,
  refused: 0,
  errorTexts: [],
  open: 0,
};
const seen = (slot: number): void => {
  sample.updates++;
  if (slot > sample.tip) sample.tip = slot;
};
const error = (text: string): void => {
  sample.errors++;
  if (sample.errorTexts.length < 5) sample.errorTexts.push(text);
};
const closers: (() => void)[] = [];
const grpcOptions = {
  'grpc.use_local_subchannel_pool': 1,
  'grpc.max_receive_message_length': -1,
  'grpc-node.flow_control_window': 8 * 1024 * 1024,
};

/** i-th stream's filter, in turn: pump.fun transactions, token program transactions, busy accounts, pump.fun's
 * accounts (bonding curves) and, on geyser.Geyser, slots with block meta. */
function kindOf(i: number, geyser: boolean): 'pump' | 'token' | 'busy' | 'curves' | 'slots' {
  const kinds = geyser ? (['pump', 'token', 'busy', 'curves', 'slots'] as const) : (['pump', 'token', 'busy', 'curves', 'pump'] as const);
  return kinds[i % kinds.length]!;
}

function streamClients(): void {
  const Client = grpc.makeGenericClientConstructor(StreamService, 'stream.Stream');
  for (let i = 0; i < count; i++) {
    const client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), grpcOptions);
    const call = (client as unknown as { subscribe(): grpc.ClientDuplexStream<SubscribeRequest, SubscribeUpdate> }).subscribe();
    sample.open++;
    call.on('data', (u: SubscribeUpdate) => {
      const o = u.updateOneof;
      if (o?.$case === 'transaction') seen(Number(o.value.slot));
      else if (o?.$case === 'account') seen(Number(o.value.slot));
    });
    call.on('error', (e: grpc.ServiceError) => {
      sample.open--;
      if (e.code !== grpc.status.CANCELLED) error(`stream.Stream ${i}: ${e.message}`);
    });
    const kind = kindOf(i, false);
    const tx = (keys: string[]): SubscribeRequest =>
      SubscribeRequest.fromPartial({
        transactions: new Map([[kind, SubscribeRequestFilterTransactions.fromPartial({ accountInclude: keys, vote: false })]]),
      });
    const acc = (f: Partial<SubscribeRequestFilterAccounts>): SubscribeRequest =>
      SubscribeRequest.fromPartial({ accounts: new Map([[kind, SubscribeRequestFilterAccounts.fromPartial(f)]]) });
    call.write(
      kind === 'pump'
        ? tx([PUMP_ID])
        : kind === 'token'
          ? tx([TOKEN_PROGRAM])
          : kind === 'busy'
            ? acc({ account: busy })
            : acc({ owner: [PUMP_ID] }),
    );
    closers.push(() => {
      call.cancel();
      client.close();
    });
  }
}

function geyserClients(): void {
  const Client = grpc.makeGenericClientConstructor(GEYSER_SERVICE, 'geyser.Geyser');
  for (let i = 0; i < count; i++) {
    const client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), grpcOptions);
    const call = (client as unknown as { subscribe(): grpc.ClientDuplexStream<object, GeyserUpdate> }).subscribe();
    sample.open++;
    call.on('data', (u: GeyserUpdate) => {
      const at = Date.now();
      if (u.transaction) {
        const slot = Number(u.transaction.slot);
        seen(slot);
        const index = Number(u.transaction.transaction?.index ?? -1);
        const l = schedule?.transactionLatency(slot, index, u.createdAt?.getTime() ?? at, at);
        if (l !== undefined) {
          sample.e2eMs.push(l.e2e);
          for (const k of STAGES) sample.stagesMs[k].push(l[k]);
        }
      } else if (u.account) seen(Number(u.account.slot));
      else if (u.slot) seen(Number(u.slot.slot));
      else if (u.blockMeta) seen(Number(u.blockMeta.slot));
    });
    call.on('error', (e: grpc.ServiceError) => {
      sample.open--;
      if (e.code !== grpc.status.CANCELLED) error(`geyser.Geyser ${i}: ${e.message}`);
    });
    const kind = kindOf(i, true);
    const none = {
      transactions: {},
      accounts: {},
      slots: {},
      blocksMeta: {},
      blocks: {},
      entry: {},
      transactionsStatus: {},
      accountsDataSlice: [],
    };
    const tx = (keys: string[]): object => ({
      ...none,
      transactions: { [kind]: { accountInclude: keys, accountExclude: [], accountRequired: [], vote: false } },
    });
    const acc = (f: { account?: string[]; owner?: string[] }): object => ({
      ...none,
      accounts: { [kind]: { account: f.account ?? [], owner: f.owner ?? [], filters: [] } },
    });
    call.write(
      kind === 'pump'
        ? tx([PUMP_ID])
        : kind === 'token'
          ? tx([TOKEN_PROGRAM])
          : kind === 'busy'
            ? acc({ account: busy })
            : kind === 'curves'
              ? acc({ owner: [PUMP_ID] })
              : { ...none, slots: { slots: {} }, blocksMeta: { meta: {} } },
    );
    closers.push(() => {
      call.cancel();
      client.close();
    });
  }
}

/** `count` subscriptions over ten connections, in turn: slot, account (busy), program (pump.fun), logs
 * (mentions pump.fun) and signature (a signature the logs just named, awaited to finalized, as a wallet does). */
function pubsubClients(): void {
  const conns: WebSocket[] = [];
  const perConn = Math.ceil(count / 10);
  let id = 0;
  let signatureSubs = 0;
  const maxSignatureSubs = Math.floor(count / 5);
  for (let c = 0; c < Math.ceil(count / perConn); c++) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/`);
    conns.push(ws);
    const req = (method: string, params: unknown[]): void => ws.send(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }));
    ws.on('open', () => {
      for (let j = 0; j < perConn && c * perConn + j < count; j++) {
        const n = c * perConn + j;
        sample.open++;
        switch (n % 5) {
          case 0:
            req('slotSubscribe', []);
            break;
          case 1:
            req('accountSubscribe', [busy[n % busy.length], { commitment: 'processed', encoding: 'base64' }]);
            break;
          case 2:
            req('programSubscribe', [PUMP_ID, { commitment: 'processed', encoding: 'base64' }]);
            break;
          case 3:
            req('logsSubscribe', [{ mentions: [PUMP_ID] }, { commitment: 'processed' }]);
            break;
          default:
            sample.open--; // a signature subscription opens when the logs name a signature
            break;
        }
      }
    });
    ws.on('message', (data: Buffer) => {
      const at = Date.now();
      const m = JSON.parse(data.toString()) as {
        method?: string;
        error?: { message: string };
        params?: { result: { slot?: number; context?: { slot: number }; value?: { signature?: string } } };
      };
      if (m.error) return error(`pubsub: ${m.error.message}`);
      const r = m.params?.result;
      if (!r) return;
      if (m.method === 'slotNotification' && r.slot !== undefined) {
        seen(r.slot);
        const due = schedule?.slotEndDue(r.slot);
        if (due !== undefined) sample.e2eMs.push(at - due);
      } else if (r.context) {
        seen(r.context.slot);
        if (m.method === 'signatureNotification') signatureSubs--;
        const sig = r.value?.signature;
        if (m.method === 'logsNotification' && sig && signatureSubs < maxSignatureSubs) {
          signatureSubs++;
          req('signatureSubscribe', [sig, { commitment: 'finalized' }]);
        }
      }
    });
    ws.on('close', (code) => {
      sample.open -= perConn;
      if (!stopping) error(`pubsub connection ${c} closed by the server (${code})`);
    });
    ws.on('error', (e) => error(`pubsub connection ${c}: ${e.message}`));
  }
  closers.push(() => conns.forEach((ws) => ws.close()));
}

/** JSON-RPC at a steady rate (SOAK_RPC_RPS, default 20/s), the methods in turn. */
function jsonrpcClient(): void {
  const rps = Number(process.env.SOAK_RPC_RPS ?? 20);
  let n = 0;
  let slot = 0;
  let signature: string | undefined;
  const call = async (method: string, params: unknown[]): Promise<unknown> => {
    const t = performance.now();
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++n, method, params }),
      });
      const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
      sample.requestMs.push(performance.now() - t);
      // -32007 / -32016: the views trail the chain by more than the service allows (an answer the service
      // means, counted apart: the trail figures say why); anything else is an error.
      if (body.error && (body.error.code === -32007 || body.error.code === -32016)) sample.behind++;
      else if (body.error) {
        if (body.error.code === -32429) sample.refused++;
        error(`jsonrpc ${method}: ${body.error.code} ${body.error.message}`);
      } else sample.updates++;
      return body.result;
    } catch (e) {
      error(`jsonrpc ${method}: ${(e as Error).message}`);
      return undefined;
    }
  };
  const methods: (() => Promise<unknown>)[] = [
    async () => {
      const s = await call('getSlot', [{ commitment: 'processed' }]);
      if (typeof s === 'number') {
        slot = s;
        if (s > sample.tip) sample.tip = s;
      }
    },
    () => call('getLatestBlockhash', [{ commitment: 'confirmed' }]),
    () => call('getAccountInfo', [busy[n % busy.length], { encoding: 'base64' }]),
    () => call('getBalance', [busy[n % busy.length]]),
    async () => {
      const r = await call('getSignaturesForAddress', [busy[n % busy.length], { limit: 10 }]);
      if (Array.isArray(r) && r.length > 0) signature = (r[0] as { signature: string }).signature;
    },
    () =>
      signature ? call('getTransaction', [signature, { encoding: 'json', maxSupportedTransactionVersion: 1 }]) : call('getBlockHeight', []),
    () =>
      slot > 40
        ? call('getBlock', [slot - 40, { transactionDetails: 'signatures', rewards: false, maxSupportedTransactionVersion: 1 }])
        : call('getEpochInfo', []),
    () => call('getTokenAccountsByOwner', [busy[n % busy.length], { programId: TOKEN_PROGRAM }, { encoding: 'base64' }]),
  ];
  let k = 0;
  const timer = setInterval(() => void methods[k++ % methods.length]!(), 1000 / rps);
  sample.open = 1;
  closers.push(() => clearInterval(timer));
}

let stopping = false;
function main(): void {
  if (role === 'stream') streamClients();
  else if (role === 'geyser') geyserClients();
  else if (role === 'pubsub') pubsubClients();
  else if (role === 'jsonrpc') jsonrpcClient();
  else throw new Error(`bench/soak/client-worker.ts: unknown role ${JSON.stringify(role)} (stream, geyser, pubsub or jsonrpc)`);
  process.on('message', (m: { cmd: string; start?: StreamStart }) => {
    if (m.cmd === 'start') schedule = new Schedule(index.slots, m.start!, SLOT_MS, WHOLE_SLOTS);
    else if (m.cmd === 'sample') {
      send({ sample: { ...sample } });
      sample.e2eMs = [];
      sample.stagesMs = noStages();
      sample.requestMs = [];
      sample.refused = 0;
      // errorTexts stay: the first few of the whole run, which the driver reports from the last sample.
      sample.updates = 0;
    } else if (m.cmd === 'stop') {
      stopping = true;
      for (const c of closers) c();
      setTimeout(() => process.exit(0), 200);
    }
  });
  send({ ready: true });
}

main();
