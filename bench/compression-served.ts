// What the gRPC host now sends with compression (issue 23 item 4): the simulator's updates, encoded as
// geyser.Geyser encodes them, framed by the batched writer's own code (api/grpc/outbound.ts `compressedFrames`:
// messages under 64 bytes or that do not shrink stay plain) with the server's codecs (api/grpc/compression.ts:
// zstd level 1 on WebAssembly; gzip level 1), written to a real HTTP/2 stream
// over loopback TCP: the bytes counted are the server socket's (`bytesWritten`: gRPC frames, HTTP/2 frame
// headers, TCP payload). CPU per message is the framing's (compression included), from process.cpuUsage.
// Usage: npx tsx bench/compression-served.ts [slots] [tps] (batches of 100 messages per write, as a busy stream's).
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { gzipCodec, zstdCodec, type Codec } from '../api/grpc/compression.js';
import { compressedFrames } from '../api/grpc/outbound.js';
import { zstdReady } from '../api/solana-json/zstd.js';
import { SimChain } from '../ingest/sources/sim/chain.js';
import { DEFAULT_SIM_OPTIONS } from '../ingest/sources/sim/options.js';
import { accountToYellowstone, slotToYellowstone, transactionToYellowstone } from '../schemas/yellowstone/index.js';
import { geyserCodecs } from '../schemas/yellowstone/storage.js';

const slots = Number(process.argv[2] ?? 20);
const tps = Number(process.argv[3] ?? 2000);
const BATCH = 100;

function simulatorUpdates(): Buffer[] {
  const chain = new SimChain({ ...DEFAULT_SIM_OPTIONS, tps, slotMs: 0, fast: true });
  chain.next('fast');
  const out: Buffer[] = [];
  const enc = (u: object) => Buffer.from(geyserCodecs.SubscribeUpdate.encode({ filters: ['f'], createdAt: new Date(), ...u }).finish());
  for (let i = 0; i < slots; i++) {
    for (const e of chain.next('fast').events) {
      if (e.kind === 'transactions') out.push(enc({ transaction: transactionToYellowstone(e.event) }));
      else if (e.kind === 'accounts') out.push(enc({ account: accountToYellowstone(e.event) }));
      else if (e.kind === 'slots') {
        const slot = slotToYellowstone(e.event);
        if (slot) out.push(enc({ slot }));
      }
    }
  }
  return out;
}

/** Uncompressed gRPC frames (what the writer sends to a client that accepts no encoding). */
function plainFrames(msgs: Buffer[]): Buffer {
  const parts: Buffer[] = [];
  for (const m of msgs) {
    const h = Buffer.alloc(5);
    h.writeUInt32BE(m.length, 1);
    parts.push(h, m);
  }
  return Buffer.concat(parts);
}

/** Frames every batch of `msgs`; returns the buffers to write and the CPU µs per message spent framing. */
function frameAll(msgs: Buffer[], codec: Codec | undefined): { writes: Buffer[]; cpuUsPerMsg: number } {
  const writes: Buffer[] = [];
  const t = process.cpuUsage();
  for (let i = 0; i < msgs.length; i += BATCH) {
    const batch = msgs.slice(i, i + BATCH);
    writes.push(
      codec
        ? compressedFrames(
            batch.flatMap((b) => [Buffer.alloc(0), b]),
            codec,
          )
        : plainFrames(batch),
    );
  }
  const u = process.cpuUsage(t);
  return { writes, cpuUsPerMsg: (u.user + u.system) / msgs.length };
}

/** Bytes the server's socket writes for one HTTP/2 stream carrying `writes` (response headers included, read fully by a client). */
async function wireBytes(writes: Buffer[]): Promise<number> {
  const server = http2.createServer();
  let socketBytes = 0;
  server.on('stream', (stream) => {
    const socket = stream.session!.socket;
    const start = socket.bytesWritten;
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
    for (const w of writes) stream.write(w);
    stream.end(() => setTimeout(() => (socketBytes = socket.bytesWritten - start), 50));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const client = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const req = client.request({ ':path': '/bench' });
  let received = 0;
  req.on('data', (c: Buffer) => (received += c.length));
  await new Promise<void>((r) => req.on('end', r));
  await new Promise((r) => setTimeout(r, 100));
  client.close();
  await new Promise<void>((r) => server.close(() => r()));
  if (received !== writes.reduce((n, w) => n + w.length, 0)) throw new Error('client did not receive every byte');
  return socketBytes;
}

await zstdReady();
const msgs = simulatorUpdates();
const raw = msgs.reduce((n, b) => n + b.length, 0);
const z = zstdCodec();
console.log(
  `compression-served: ${process.version}; zstd on WebAssembly; ${slots} slots at ${tps} tx/s: ${msgs.length} messages, ${raw} bytes of SubscribeUpdate`,
);
console.log('encoding | wire bytes (server socket) | ratio to none | CPU µs per message (framing + compression)');
let none = 0;
for (const [name, codec] of [
  ['none', undefined],
  ['zstd', z],
  ['gzip', gzipCodec],
] as const) {
  const { writes, cpuUsPerMsg } = frameAll(msgs, codec);
  const bytes = await wireBytes(writes);
  if (name === 'none') none = bytes;
  console.log([name, bytes, (bytes / none).toFixed(3), cpuUsPerMsg.toFixed(2)].join(' | '));
}
