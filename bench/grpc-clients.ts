// Counting clients for bench/grpc.ts: match-all Subscribe streams whose responses are not decoded (a
// pass-through deserializer), so the client side costs as little as possible; and filtered, decoding
// streams that stamp each update in their receive callback (latency phases).
import * as grpc from '@grpc/grpc-js';
import {
  StreamService,
  SubscribeParsedRequest,
  SubscribeRequest,
  SubscribeRequestFilterAccounts,
  SubscribeRequestFilterTransactions,
  SubscribeUpdate,
} from '../proto/gen/stream.js';

const RawService = { subscribe: { ...StreamService.subscribe, responseDeserialize: (b: Buffer) => b } };
const CLIENT_WINDOW = process.env.BENCH_CLIENT_WINDOW === undefined ? 8 * 1024 * 1024 : Number(process.env.BENCH_CLIENT_WINDOW);
const RawClient = grpc.makeGenericClientConstructor(RawService, 'stream.Stream');

/** BENCH_API_KEY (bench/grpc.ts under BENCH_KEYS=1): the key the counting streams present, as x-token. */
function apiKeyMetadata(): grpc.Metadata {
  const m = new grpc.Metadata();
  if (process.env.BENCH_API_KEY) m.set('x-token', process.env.BENCH_API_KEY);
  return m;
}

export interface CountStats {
  n: number;
  /** Epoch ms (fractional) of the first and last counted update. */
  first: number;
  last: number;
}

/** `ready` resolves once every stream is registered: the server answers a ping request only after it applied
 * the subscription sent before it (a client process that starts slowly would otherwise miss the backlog). */
export function openCounting(port: number, streams: number): { ready: Promise<void>; stats(): CountStats; close(): void } {
  const stats: CountStats = { n: 0, first: 0, last: 0 };
  const open: { call: grpc.ClientDuplexStream<SubscribeRequest, Buffer>; client: grpc.Client }[] = [];
  const pongs: Promise<void>[] = [];
  for (let i = 0; i < streams; i++) {
    let ponged!: () => void;
    pongs.push(new Promise<void>((r) => (ponged = r)));
    const client = new RawClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
      'grpc.use_local_subchannel_pool': 1,
      'grpc.max_receive_message_length': -1,
      // The receive window high-volume clients open: LaserStream's client documents 8 MiB per stream
      // (grpc-js's default, 64 KiB, caps one stream at a round trip per 64 KiB; bench/README "One stream").
      // BENCH_CLIENT_WINDOW=0 keeps grpc-js's default.
      ...(CLIENT_WINDOW > 0 ? { 'grpc-node.flow_control_window': CLIENT_WINDOW } : {}),
    });
    const call = (client as unknown as { subscribe(m?: grpc.Metadata): grpc.ClientDuplexStream<SubscribeRequest, Buffer> }).subscribe(
      apiKeyMetadata(),
    );
    call.on('data', (m: Buffer) => {
      if (m[0] !== 0x0a) {
        // Not an update carrying `filters`: a server ping, or the pong to our ping (decoded, it is rare).
        if (SubscribeUpdate.decode(m).updateOneof?.$case === 'pong') ponged();
        return;
      }
      const now = performance.timeOrigin + performance.now();
      if (stats.n === 0) stats.first = now;
      stats.last = now;
      stats.n++;
    });
    call.on('error', () => undefined);
    call.write(SubscribeRequest.fromPartial({ transactions: new Map([['all', SubscribeRequestFilterTransactions.fromPartial({})]]) }));
    call.write(SubscribeRequest.fromPartial({ ping: { id: 1 } }));
    open.push({ call, client });
  }
  return {
    ready: Promise.all(pongs).then(() => undefined),
    stats: () => ({ ...stats }),
    close: () => {
      for (const o of open) {
        o.call.cancel();
        o.client.close();
      }
    },
  };
}

// ---- filtered, decoding clients (bench phases 1-2: latency) -------------------------------------------
const DecodingClient = grpc.makeGenericClientConstructor(StreamService, 'stream.Stream');

/** One received transaction update: first signature (base64), client receive time (epoch ms) and the
 * api's created_at (epoch ms, fractional). */
export type Received = [sig: string, at: number, created: number];

/** One Subscribe stream per entry of `filters` (base58 keys): transactions including any of the keys,
 * and the account writes of the same keys. Updates are decoded in the receive callback, which stamps them. */
export function openFiltered(
  port: number,
  filters: string[][],
  base: number,
): {
  setCounting(on: boolean): void;
  take(): { delivered: number; received: Received[] };
  close(): void;
} {
  let counting = false;
  let delivered = 0;
  let received: Received[] = [];
  const open: { call: grpc.ClientDuplexStream<SubscribeRequest, SubscribeUpdate>; client: grpc.Client }[] = [];
  filters.forEach((mine, j) => {
    const i = base + j;
    const client = new DecodingClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
      'grpc.use_local_subchannel_pool': 1,
      'grpc.max_receive_message_length': -1,
    });
    const call = (client as unknown as { subscribe(): grpc.ClientDuplexStream<SubscribeRequest, SubscribeUpdate> }).subscribe();
    call.on('data', (u: SubscribeUpdate) => {
      const at = Date.now(); // wall clock, as the Kafka record timestamps and the bench's send times
      if (!counting) return;
      delivered++;
      if (u.updateOneof?.$case === 'transaction') {
        const c = u.createdAt!;
        received.push([u.updateOneof.value.transaction!.signature.toString('base64'), at, Number(c.seconds) * 1000 + c.nanos / 1e6]);
      }
    });
    call.on('error', (e: grpc.ServiceError) => {
      if (e.code !== grpc.status.CANCELLED) process.stderr.write(`[bench:grpc clients] stream error: ${e.message}\n`);
    });
    call.write(
      SubscribeRequest.fromPartial({
        transactions: new Map([[`tx${i}`, SubscribeRequestFilterTransactions.fromPartial({ accountInclude: mine })]]),
        accounts: new Map([[`acc${i}`, SubscribeRequestFilterAccounts.fromPartial({ account: mine })]]),
      }),
    );
    open.push({ call, client });
  });
  return {
    setCounting: (on) => void (counting = on),
    take: () => {
      const out = { delivered, received };
      delivered = 0;
      received = [];
      return out;
    },
    close: () => {
      for (const o of open) {
        o.call.cancel();
        o.client.close();
      }
    },
  };
}

// ---- SubscribeParsed counting clients (bench/parsed.ts) ----------------------------------------------
const RawParsedService = { subscribeParsed: { ...StreamService.subscribeParsed, responseDeserialize: (b: Buffer) => b } };
const RawParsedClient = grpc.makeGenericClientConstructor(RawParsedService, 'stream.Stream');

/** SubscribeParsed streams with the default request (an old client's: it sends nothing; with `fromSlot`, a request
 * replaying from there), counting updates without decoding them. The server answers no ping on this method: the
 * caller learns from the api that the streams are registered (bench/grpc-worker.ts `streams`). */
export function openParsedCounting(port: number, streams: number, fromSlot?: bigint): { stats(): CountStats; close(): void } {
  const stats: CountStats = { n: 0, first: 0, last: 0 };
  const open: { call: grpc.ClientDuplexStream<unknown, Buffer>; client: grpc.Client }[] = [];
  for (let i = 0; i < streams; i++) {
    const client = new RawParsedClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
      'grpc.use_local_subchannel_pool': 1,
      'grpc.max_receive_message_length': -1,
      ...(CLIENT_WINDOW > 0 ? { 'grpc-node.flow_control_window': CLIENT_WINDOW } : {}),
    });
    const call = (client as unknown as { subscribeParsed(): grpc.ClientDuplexStream<unknown, Buffer> }).subscribeParsed();
    call.on('data', () => {
      const now = performance.timeOrigin + performance.now();
      if (stats.n === 0) stats.first = now;
      stats.last = now;
      stats.n++;
    });
    call.on('error', () => undefined);
    if (fromSlot !== undefined) call.write(SubscribeParsedRequest.fromPartial({ fromSlot }));
    open.push({ call, client });
  }
  return {
    stats: () => ({ ...stats }),
    close: () => {
      for (const o of open) {
        o.call.cancel();
        o.client.close();
      }
    },
  };
}
