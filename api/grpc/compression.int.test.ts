// The gRPC host's compression at the wire (issue 23 item 4), with the probe service (no Kafka) and a raw HTTP/2
// client, so every byte is the test's: zstd requests decoded through the grpc-js patch's hook, zstd responses
// (the `grpc-encoding` header, the compressed flag, small messages plain), and bad input refused with a clear
// status: a frame over the receive cap (RESOURCE_EXHAUSTED), one that is not zstd (INTERNAL).
import http2 from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compress as wasmCompress } from '@bokuweb/zstd-wasm';
import { silentLogger } from '../../platform/log.js';
import { ProbeService, PROBE_SERVICE_NAME } from '../../test/support/grpc/probe-service.js';
import { zstdReady } from '../solana-json/zstd.js';
import { zstdCodec } from './compression.js';
import { startGrpc, type GrpcServer } from './server.js';

interface Answer {
  headers: http2.IncomingHttpHeaders;
  frames: { flag: number; payload: Buffer }[];
  status: string | undefined;
  message: string | undefined;
}

/** One gRPC call over raw HTTP/2: the request's messages as given (flag, payload), the answer parsed. */
function call(
  port: number,
  method: string,
  messages: { flag: number; payload: Buffer }[],
  headers: Record<string, string>,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`http://127.0.0.1:${port}`);
    session.on('error', reject);
    const req = session.request({
      ':method': 'POST',
      ':path': `/${PROBE_SERVICE_NAME}/${method}`,
      'content-type': 'application/grpc',
      te: 'trailers',
      ...headers,
    });
    const chunks: Buffer[] = [];
    const answer: Answer = { headers: {}, frames: [], status: undefined, message: undefined };
    req.on('response', (h) => {
      answer.headers = h;
      // A trailers-only answer carries the status in its headers.
      if (h['grpc-status'] !== undefined) {
        answer.status = String(h['grpc-status']);
        answer.message = h['grpc-message'] === undefined ? undefined : decodeURIComponent(String(h['grpc-message']));
      }
    });
    req.on('trailers', (t) => {
      answer.status = String(t['grpc-status']);
      answer.message = t['grpc-message'] === undefined ? undefined : decodeURIComponent(String(t['grpc-message']));
    });
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const all = Buffer.concat(chunks);
      for (let pos = 0; pos < all.length;) {
        const len = all.readUInt32BE(pos + 1);
        answer.frames.push({ flag: all[pos]!, payload: all.subarray(pos + 5, pos + 5 + len) });
        pos += 5 + len;
      }
      session.close();
      resolve(answer);
    });
    req.on('error', reject);
    for (const m of messages) {
      const h = Buffer.alloc(5);
      h[0] = m.flag;
      h.writeUInt32BE(m.payload.length, 1);
      req.write(Buffer.concat([h, m.payload]));
    }
    req.end();
  });
}

const zstd = (b: Buffer): Buffer => Buffer.from(wasmCompress(b, 3));
const text = (n: number): Buffer => Buffer.from('compressible update body '.repeat(Math.ceil(n / 25)).slice(0, n));

describe('the gRPC host: zstd at the wire', () => {
  let server: GrpcServer;
  const codec = zstdCodec(false);

  beforeAll(async () => {
    await zstdReady();
    server = await startGrpc({ services: [new ProbeService()], host: '127.0.0.1', port: 0, log: silentLogger });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('a zstd request is decoded; a stream whose client accepts zstd gets zstd messages, small ones plain', async () => {
    const big = text(5000);
    const small = Buffer.from('tiny');
    const a = await call(
      server.port,
      'Watch',
      [
        { flag: 1, payload: zstd(big) },
        { flag: 0, payload: small },
      ],
      {
        'grpc-encoding': 'zstd',
        'grpc-accept-encoding': 'zstd',
      },
    );
    expect(a.status).toBe('0');
    expect(a.headers['grpc-encoding']).toBe('zstd');
    expect(String(a.headers['grpc-accept-encoding']).split(',')).toContain('zstd');
    // The probe answers each request twice (as is, then after a '>' prefix).
    expect(a.frames.map((f) => f.flag)).toEqual([1, 1, 0, 0]);
    const plain = a.frames.map((f) => (f.flag === 1 ? codec.decompress(f.payload, -1) : f.payload));
    expect(plain.map((p) => p.toString())).toEqual([big.toString(), `>${big.toString()}`, 'tiny', '>tiny']);
  });

  it('a client that accepts no zstd (grpc-js: identity,deflate,gzip) gets plain messages under the default policy', async () => {
    const big = text(5000);
    const a = await call(server.port, 'Watch', [{ flag: 0, payload: big }], { 'grpc-accept-encoding': 'identity,deflate,gzip' });
    expect(a.status).toBe('0');
    expect(a.headers['grpc-encoding']).toBe('identity');
    expect(a.frames.map((f) => f.flag)).toEqual([0, 0]);
    expect(a.frames[0]!.payload.equals(big)).toBe(true);
  });

  it('a zstd request that decompresses past the receive cap (4 MiB) is RESOURCE_EXHAUSTED', async () => {
    const huge = Buffer.alloc(5 * 1024 * 1024, 1); // compresses to a few hundred bytes
    const a = await call(server.port, 'Echo', [{ flag: 1, payload: zstd(huge) }], { 'grpc-encoding': 'zstd' });
    expect(a.status).toBe('8');
    expect(a.message).toBe('Received message that decompresses to a size larger than 4194304');
  });

  it('a request flagged zstd that is not zstd is INTERNAL "Failed to decompress message"', async () => {
    const a = await call(server.port, 'Echo', [{ flag: 1, payload: Buffer.from('not a zstd frame at all') }], { 'grpc-encoding': 'zstd' });
    expect(a.status).toBe('13');
    expect(a.message).toBe('Failed to decompress message');
  });

  it('a unary zstd request is answered (unary answers stay plain)', async () => {
    const a = await call(server.port, 'Echo', [{ flag: 1, payload: zstd(text(300)) }], {
      'grpc-encoding': 'zstd',
      'grpc-accept-encoding': 'zstd',
    });
    expect(a.status).toBe('0');
    expect(a.frames).toHaveLength(1);
    expect(a.frames[0]!.flag).toBe(0);
    expect(a.frames[0]!.payload.equals(text(300))).toBe(true);
  });
});
