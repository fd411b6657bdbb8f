// A local Yellowstone gRPC server for tests: geyser.Geyser's Subscribe and SubscribeReplayInfo (the service
// definition the source uses, built from the published package's codecs) on 127.0.0.1:0, replaying a
// recorded SubscribeUpdate stream. A request with from_slot gets the recorded updates whose slot is at
// least from_slot, in recorded order (Yellowstone replays whole slots from its store); without, the whole
// recording. After the recording the stream stays open, as a live upstream's does. Knobs: how far back
// SubscribeReplayInfo says the server can replay, a cut or a stall of the first stream after N updates, a limit that
// stops the recording early, and a hold that keeps a stream silent until the test releases it. Instead of a
// recording, a `feed` yields the updates' wire bytes as it likes (bench/soak/upstream.ts: a recording on disk
// replayed at the chain's pace): they go out as they are, without a decode and re-encode.
import * as grpc from '@grpc/grpc-js';
import {
  GEYSER_SERVICE,
  SubscribeUpdateCodec,
  type SubscribeRequest,
  type SubscribeUpdate,
} from '../../../ingest/sources/yellowstone/geyser-service.js';

export interface RecordedUpdate {
  /** The update's own slot (status, block meta, entry, ...); undefined for pings. */
  slot: bigint | undefined;
  update: SubscribeUpdate;
  /** The update's recorded wire bytes, when it has them: sent as they are, which is what was recorded (re-encoding
   * the 40,000 updates of the mainnet recording for every stream cost its test file ~3 CPU s of 50). */
  bytes?: Uint8Array;
}

export function decodeRecording(records: readonly Buffer[]): RecordedUpdate[] {
  return records.map((r) => {
    const update = SubscribeUpdateCodec.decode(r);
    const s = update.slot?.slot ?? update.blockMeta?.slot ?? update.entry?.slot ?? update.transaction?.slot ?? update.account?.slot;
    return { slot: s === undefined ? undefined : BigInt(s), update, bytes: r };
  });
}

export interface ReplayServerOptions {
  recording?: readonly RecordedUpdate[];
  /** Instead of `recording`: the encoded SubscribeUpdates of a stream asking for `fromSlot` (undefined: from
   * the start), written as they are; the feed paces itself (the stream waits for grpc-js's drain). */
  feed?: (fromSlot: bigint | undefined) => AsyncIterable<Uint8Array>;
  /** SubscribeReplayInfo's first_available; undefined: the field is left out (no replay). */
  firstAvailable?: bigint;
  /** The first Subscribe stream fails with UNAVAILABLE after this many updates. */
  cutFirstStreamAfter?: number;
  /** Send only the first `limit` recorded updates. */
  limit?: number;
  /** Compress every message with gzip (as providers that offer it do). */
  gzip?: boolean;
  /** The first Subscribe stream goes silent (open, sending nothing, not even pings) after this many updates. */
  stallFirstStreamAfter?: number;
  /** A pause of `ms` after every `every` updates: an upstream sending in bursts, whose reader catches up between
   * them (a yellowstone source publishing pieces hands a slot over as it comes then, not in one batch). */
  pause?: { every: number; ms: number };
  /** Subscribe stream n (from 1) sends nothing until the promise returned for it settles (undefined: at once):
   * an upstream that starts late, or one that stays away after a cut until the test lets it back. */
  hold?: (stream: number) => Promise<void> | undefined;
}

export interface ReplayServer {
  url: string;
  /** Every SubscribeRequest received, in order (pings included). */
  requests: SubscribeRequest[];
  /** x-token metadata of each Subscribe call. */
  tokens: (string | undefined)[];
  close(): Promise<void>;
}

// Subscribe's responses: a SubscribeUpdate is encoded, a feed's bytes go out as they are.
const RAW_OR_DECODED_SERVICE = {
  ...GEYSER_SERVICE,
  subscribe: {
    ...GEYSER_SERVICE.subscribe,
    responseSerialize: (u: SubscribeUpdate | Uint8Array): Buffer =>
      u instanceof Uint8Array ? Buffer.from(u.buffer, u.byteOffset, u.byteLength) : GEYSER_SERVICE.subscribe.responseSerialize(u),
  },
};

export async function startReplayServer(o: ReplayServerOptions): Promise<ReplayServer> {
  const server = new grpc.Server(o.gzip ? { 'grpc.default_compression_algorithm': grpc.compressionAlgorithms.gzip } : {});
  if (!o.recording === !o.feed) throw new Error('startReplayServer: give either recording or feed');
  const requests: SubscribeRequest[] = [];
  const tokens: (string | undefined)[] = [];
  const open = new Set<grpc.ServerDuplexStream<SubscribeRequest, SubscribeUpdate>>();
  let streams = 0;
  server.addService(RAW_OR_DECODED_SERVICE, {
    subscribeReplayInfo(_call: grpc.ServerUnaryCall<object, object>, cb: grpc.sendUnaryData<object>) {
      cb(null, o.firstAvailable === undefined ? {} : { firstAvailable: o.firstAvailable.toString() });
    },
    subscribe(call: grpc.ServerDuplexStream<SubscribeRequest, SubscribeUpdate>) {
      const n = ++streams;
      open.add(call);
      tokens.push(call.metadata.get('x-token')[0]?.toString());
      let started = false;
      call.on('data', (req: SubscribeRequest) => {
        requests.push(req);
        if (started || req.ping) return;
        started = true;
        void send(call, req, n === 1 ? o.cutFirstStreamAfter : undefined, n);
      });
      call.on('error', () => open.delete(call));
      call.on('cancelled', () => open.delete(call));
    },
  });

  async function send(
    call: grpc.ServerDuplexStream<SubscribeRequest, SubscribeUpdate>,
    req: SubscribeRequest,
    cutAfter: number | undefined,
    stream: number,
  ): Promise<void> {
    await o.hold?.(stream);
    const from = req.fromSlot === undefined ? undefined : BigInt(req.fromSlot);
    const updates = o.feed
      ? o.feed(from)
      : o
          .recording!.slice(0, o.limit ?? o.recording!.length)
          .filter((r) => from === undefined || (r.slot !== undefined && r.slot >= from))
          .map((r) => r.bytes ?? r.update);
    let sent = 0;
    for await (const u of updates) {
      if (!open.has(call)) return;
      if (stream === 1 && o.stallFirstStreamAfter !== undefined && sent >= o.stallFirstStreamAfter) {
        await new Promise((resolve) => call.once('cancelled', resolve));
        return;
      }
      if (cutAfter !== undefined && sent >= cutAfter) {
        // grpc-js ends a server stream with a status when the call emits an error carrying a code.
        call.emit('error', { code: grpc.status.UNAVAILABLE, details: 'test server: stream cut' });
        open.delete(call);
        return;
      }
      if (!call.write(u as SubscribeUpdate)) await new Promise<void>((resolve) => call.once('drain', resolve));
      sent++;
      if (o.pause && sent % o.pause.every === 0) await new Promise((resolve) => setTimeout(resolve, o.pause!.ms));
    }
  }

  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    tokens,
    async close() {
      for (const c of open) c.destroy();
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
      server.forceShutdown();
    },
  };
}
