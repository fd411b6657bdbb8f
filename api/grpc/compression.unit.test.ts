import { beforeAll, describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import { experimental, status } from '@grpc/grpc-js';
import { compress as wasmCompress } from '@bokuweb/zstd-wasm';
import { zstdReady } from '../solana-json/zstd.js';
import { gzipCodec, MIN_COMPRESS_BYTES, offered, pickEncoding, zstdCodec, zstdContentSize } from './compression.js';
import { compressedFrames, type CompressionStats } from './outbound.js';

/** A message that compresses (repeated text), of `n` bytes. */
const compressible = (n: number): Buffer => Buffer.from('slotstream '.repeat(Math.ceil(n / 11)).slice(0, n));

/** The messages of a gRPC frame buffer: compressed flag and payload. */
function parseFrames(buf: Buffer): { flag: number; payload: Buffer }[] {
  const out: { flag: number; payload: Buffer }[] = [];
  for (let pos = 0; pos < buf.length;) {
    const len = buf.readUInt32BE(pos + 1);
    out.push({ flag: buf[pos]!, payload: buf.subarray(pos + 5, pos + 5 + len) });
    pos += 5 + len;
  }
  return out;
}

describe('compression', () => {
  beforeAll(async () => {
    await zstdReady();
  });

  it('our grpc-js patch is applied: a request decompressor hook', () => {
    expect(typeof (experimental as Record<string, unknown>).registerServerDecompressor).toBe('function');
  });

  it('picks the first encoding the server offers that the client accepts', () => {
    expect(offered('zstd')).toEqual(['zstd']);
    expect(offered('all')).toEqual(['zstd', 'gzip']);
    expect(offered('none')).toEqual([]);
    // tonic (the Yellowstone client) with zstd; grpc-js's default; a client that accepts both.
    expect(pickEncoding(['zstd'], offered('zstd'))).toBe('zstd');
    expect(pickEncoding(['identity', 'deflate', 'gzip'], offered('zstd'))).toBeUndefined();
    expect(pickEncoding(['identity', 'deflate', 'gzip'], offered('all'))).toBe('gzip');
    expect(pickEncoding(['gzip', ' ZSTD'], offered('all'))).toBe('zstd');
    expect(pickEncoding(['zstd', 'gzip'], offered('none'))).toBeUndefined();
    expect(pickEncoding([], offered('all'))).toBeUndefined();
  });

  it('reads the content size a zstd frame declares, and refuses what is not zstd', () => {
    const m = compressible(5000);
    expect(zstdContentSize(wasmCompress(m, 1))).toBe(5000);
    // Each header layout: single segment with a 1-byte size; a window byte, then a 2-byte size (+256) or a 4-byte one
    // (little-endian); and no size at all.
    const magic = [0x28, 0xb5, 0x2f, 0xfd];
    expect(zstdContentSize(Uint8Array.from([...magic, 0x20, 200]))).toBe(200);
    expect(zstdContentSize(Uint8Array.from([...magic, 0x40, 0x00, 0x00, 0x10]))).toBe(4096 + 256);
    expect(zstdContentSize(Uint8Array.from([...magic, 0x80, 0x00, 0x00, 0x00, 0x00, 0x01]))).toBe(16777216);
    expect(zstdContentSize(Uint8Array.from([...magic, 0x00, 0x58]))).toBeUndefined();
    expect(() => zstdContentSize(Buffer.from('not zstd at all'))).toThrow(/not a zstd frame/);
    expect(() => zstdContentSize(Uint8Array.from([...magic, 0x80, 0x00]))).toThrow(/cut short/);
  });

  it('zstd (WebAssembly): round trip; over the receive limit is RESOURCE_EXHAUSTED; garbage throws', () => {
    const z = zstdCodec(false);
    const m = compressible(100_000);
    const packed = z.compress(m);
    expect(packed.length).toBeLessThan(m.length / 10);
    expect(z.decompress(packed, 4 * 1024 * 1024).equals(m)).toBe(true);
    expect(z.decompress(packed, -1).equals(m)).toBe(true);
    expect(() => z.decompress(packed, 99_999)).toThrow(expect.objectContaining({ code: status.RESOURCE_EXHAUSTED }));
    expect(() => z.decompress(Buffer.from('garbage'), 1000)).toThrow();
  });

  // Runs on every Node: the default codec decodes with whichever zstd this Node has (node:zlib from 22.15,
  // WebAssembly before); where node:zlib has zstd, its frames and WebAssembly's decode on either side.
  it('zstd, default decoder (node:zlib where Node has it, else WebAssembly): decodes WebAssembly frames, the cap holds', () => {
    const nz = zlib as unknown as { zstdCompressSync?: (b: Buffer) => Buffer };
    const n = zstdCodec(true);
    const w = zstdCodec(false);
    const m = compressible(20_000);
    expect(n.decompress(w.compress(m), -1).equals(m)).toBe(true);
    expect(() => n.decompress(w.compress(m), 10_000)).toThrow(expect.objectContaining({ code: status.RESOURCE_EXHAUSTED }));
    if (typeof nz.zstdCompressSync === 'function') {
      expect(w.decompress(nz.zstdCompressSync(m), -1).equals(m)).toBe(true);
      expect(n.decompress(nz.zstdCompressSync(m), -1).equals(m)).toBe(true);
    }
  });

  it('frames: large messages compressed (flag 1, prefix and body as one message), small or incompressible ones plain', () => {
    const z = zstdCodec(false);
    const prefix = Buffer.from([0x0a, 0x03, 0x61, 0x62, 0x63]);
    const big = compressible(3000);
    const small = Buffer.alloc(MIN_COMPRESS_BYTES - 1, 7);
    const random = Buffer.from(Array.from({ length: 500 }, (_, i) => (i * 2654435761) >>> 24));
    const stats: CompressionStats = { messages: 0, plainBytes: 0, wireBytes: 0 };
    const buf = compressedFrames([prefix, big, Buffer.alloc(0), small, Buffer.alloc(0), random], z, stats);
    const frames = parseFrames(buf);
    expect(frames.map((f) => f.flag)).toEqual([1, 0, expect.any(Number)]);
    expect(z.decompress(frames[0]!.payload, -1).equals(Buffer.concat([prefix, big]))).toBe(true);
    expect(frames[1]!.payload.equals(small)).toBe(true);
    const third = frames[2]!.flag === 1 ? z.decompress(frames[2]!.payload, -1) : frames[2]!.payload;
    expect(third.equals(random)).toBe(true);
    const compressed = frames.filter((f) => f.flag === 1);
    expect(stats.messages).toBe(compressed.length);
    expect(stats.wireBytes).toBe(compressed.reduce((s, f) => s + f.payload.length, 0));
  });

  it('frames with gzip decode with gunzip', () => {
    const m = compressible(1000);
    const [f] = parseFrames(compressedFrames([Buffer.alloc(0), m], gzipCodec));
    expect(f!.flag).toBe(1);
    expect(zlib.gunzipSync(f!.payload).equals(m)).toBe(true);
  });
});
