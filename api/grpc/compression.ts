// Message compression on the gRPC host (issue 23 item 4): zstd for requests and responses, gzip for responses.
// grpc-js decompresses identity, deflate and gzip requests only and compresses no response; our patch to it
// (patches/@grpc+grpc-js+*.patch, applied at install by patch-package) adds `experimental.registerServerDecompressor`
// (a request codec hook, advertised in grpc-accept-encoding) and keeps the client's grpc-accept-encoding on the
// base call (`acceptedEncodings`), which grpc-js otherwise strips. The batched writer (./outbound.ts) frames
// responses itself, so it compresses them with the codec chosen here.
//
// zstd: responses are compressed by the WebAssembly build of the reference library (@bokuweb/zstd-wasm, already
// used for JSON-RPC's base64+zstd) on every Node: Node 20's zlib has no zstd, and Node 24's `zstdCompressSync`
// costs 36-40 µs per update-sized message against 12-17 µs for the WebAssembly one (a native context set up per
// call; measured 2026-11-26, bench/README.md). Requests (rare) are decompressed by node:zlib where Node has it
// (>= 22.15; its output cap is built in), else by WebAssembly. Level 1: on the simulator's traffic it compresses
// within 0.5% of level 3 (bench/README.md) for less CPU; gzip likewise level 1.
import zlib from 'node:zlib';
import { experimental, status } from '@grpc/grpc-js';
import { compress as wasmCompress, decompress as wasmDecompress } from '@bokuweb/zstd-wasm';
import { zstdReady } from '../solana-json/zstd.js';

/** An encoding the server compresses responses with. */
export type Encoding = 'zstd' | 'gzip';

/** What the server offers (`--grpc-compress`): zstd only (default), zstd else gzip, or nothing. */
export type CompressionPolicy = 'zstd' | 'all' | 'none';

export interface Codec {
  readonly name: Encoding;
  compress(message: Buffer): Buffer;
}

/** Messages shorter than this go out uncompressed (slot statuses, pings: compression only grows them). */
export const MIN_COMPRESS_BYTES = 64;

/** The response encodings a policy offers, in the server's order of preference. */
export function offered(policy: CompressionPolicy): readonly Encoding[] {
  return policy === 'all' ? ['zstd', 'gzip'] : policy === 'zstd' ? ['zstd'] : [];
}

/** The first encoding the server offers that the client accepts (grpc-accept-encoding, any order). */
export function pickEncoding(accepted: readonly string[], offer: readonly Encoding[]): Encoding | undefined {
  const wanted = new Set(accepted.map((a) => a.trim().toLowerCase()));
  return offer.find((e) => wanted.has(e));
}

const ZSTD_MAGIC = 0xfd2fb528;

/**
 * The decompressed size a zstd frame declares in its header (RFC 8878 3.1.1.1), undefined when it declares none;
 * throws when the bytes do not start a zstd frame. Read before decompressing, so a frame that claims more than
 * the receive limit is refused before any memory is taken for it.
 */
export function zstdContentSize(frame: Uint8Array): number | undefined {
  if (frame.length < 5 || (frame[0]! | (frame[1]! << 8) | (frame[2]! << 16) | (frame[3]! << 24)) >>> 0 !== ZSTD_MAGIC) {
    throw new Error('not a zstd frame (bad magic number)');
  }
  const descriptor = frame[4]!;
  const fcsFlag = descriptor >> 6;
  const singleSegment = (descriptor >> 5) & 1;
  const dictIdBytes = [0, 1, 2, 4][descriptor & 3]!;
  const fcsBytes = fcsFlag === 0 ? singleSegment : [0, 2, 4, 8][fcsFlag]!;
  if (fcsBytes === 0) return undefined;
  const at = 5 + (singleSegment ? 0 : 1) + dictIdBytes;
  if (frame.length < at + fcsBytes) throw new Error('not a zstd frame (header cut short)');
  let size = 0;
  for (let i = fcsBytes - 1; i >= 0; i--) size = size * 256 + frame[at + i]!;
  return fcsBytes === 2 ? size + 256 : size;
}

type NodeZstd = { zstdDecompressSync(b: Buffer, o: { maxOutputLength: number }): Buffer };
const nodeZstd = (): NodeZstd | undefined => {
  const z = zlib as unknown as Partial<NodeZstd>;
  return typeof z.zstdDecompressSync === 'function' ? (z as NodeZstd) : undefined;
};

/** With no receive limit (-1), a frame of unknown size is decompressed into at most this much. */
const UNBOUNDED_CAP = 64 * 1024 * 1024;

function tooLarge(max: number): { code: status; details: string } {
  return { code: status.RESOURCE_EXHAUSTED, details: `Received message that decompresses to a size larger than ${max}` };
}

function wasmZstdCompress(m: Buffer): Buffer {
  const out = wasmCompress(m, 1);
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

/**
 * zstd for both directions: compression on WebAssembly (zstdReady must have resolved), decompression on node:zlib
 * where Node has it and `useNode` (false forces WebAssembly, for tests), else WebAssembly.
 */
export function zstdCodec(useNode = true): Codec & { decompress(message: Buffer, maxLength: number): Buffer } {
  const z = useNode ? nodeZstd() : undefined;
  const checked = (m: Buffer, max: number): number => {
    const limit = max === -1 ? UNBOUNDED_CAP : max;
    const declared = zstdContentSize(m);
    if (declared !== undefined && declared > limit) throw tooLarge(limit);
    return limit;
  };
  if (z) {
    return {
      name: 'zstd',
      compress: wasmZstdCompress,
      decompress: (m, max) => {
        const limit = checked(m, max);
        try {
          return z.zstdDecompressSync(m, { maxOutputLength: limit });
        } catch (e) {
          if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(limit);
          throw e;
        }
      },
    };
  }
  return {
    name: 'zstd',
    compress: wasmZstdCompress,
    decompress: (m, max) => {
      const limit = checked(m, max);
      // A frame of unknown size is decompressed into `limit` bytes at most: more fails (dst too small).
      const out = wasmDecompress(m, { defaultHeapSize: limit });
      return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
    },
  };
}

export const gzipCodec: Codec = { name: 'gzip', compress: (m) => zlib.gzipSync(m, { level: 1 }) };

let policy: readonly Encoding[] = [];
let zstd: Codec | undefined;

/**
 * Turns compression on for this process's gRPC host: zstd requests are accepted (through the grpc-js patch's
 * hook) and responses are compressed as `p` offers. Returns a reason when zstd cannot be served (grpc-js
 * without the patch), else undefined. grpc-js's codec registry is per process, so this is too.
 */
export async function enableCompression(p: CompressionPolicy): Promise<string | undefined> {
  policy = offered(p);
  if (!policy.includes('zstd')) return undefined;
  const register = (experimental as { registerServerDecompressor?: (e: string, d: (m: Buffer, max: number) => Buffer) => void })
    .registerServerDecompressor;
  if (typeof register !== 'function') {
    policy = policy.filter((e) => e !== 'zstd');
    return 'grpc-js has no registerServerDecompressor (patches/ not applied: run npm ci or npx patch-package); zstd is off';
  }
  await zstdReady();
  const codec = zstdCodec();
  zstd = codec;
  register('zstd', (m, max) => codec.decompress(m, max));
  return undefined;
}

/** The codec for a response stream whose client accepts `accepted`; undefined: send it uncompressed. */
export function responseCodec(accepted: readonly string[] | undefined): Codec | undefined {
  const e = accepted ? pickEncoding(accepted, policy) : undefined;
  if (e === 'zstd') return zstd;
  return e === 'gzip' ? gzipCodec : undefined;
}
