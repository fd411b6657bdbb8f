// Bandwidth of geyser.Geyser's updates with gRPC message compression: none, gzip and zstd at typical levels
// (issue 23, item 4). gRPC compresses each message on its own (the 5-byte prefix's flag, `grpc-encoding`),
// so each SubscribeUpdate is compressed alone, as tonic (Yellowstone, LaserStream) and grpc-js do.
// Traffic: (1) the simulator's (the updates a stream subscribed to all transactions, accounts and slots
// gets, encoded as geyser.Geyser encodes them); (2) the recorded mainnet SubscribeUpdate stream of
// ../shared/data/mainnet (read in place). Prints bytes per kind, the ratio to uncompressed and the
// compression CPU cost. zstd needs Node >= 22.15 (`zlib.zstdCompressSync`), which the pinned Node 24 is;
// on an older Node only the gzip columns print. Usage: npx tsx bench/compression-grpc.ts [slots] [tps]
import zlib from 'node:zlib';
import { SimChain } from '../ingest/sources/sim/chain.js';
import { DEFAULT_SIM_OPTIONS } from '../ingest/sources/sim/options.js';
import { accountToYellowstone, slotToYellowstone, transactionToYellowstone } from '../schemas/yellowstone/index.js';
import { geyserCodecs } from '../schemas/yellowstone/storage.js';
import { readMainnetStream } from '../test/support/mainnet/data.js';

const slots = Number(process.argv[2] ?? 40);
const tps = Number(process.argv[3] ?? 2000);

type Codec = { name: string; run: (b: Buffer) => Buffer };
const z = zlib as unknown as {
  zstdCompressSync?: (b: Buffer, o?: { params?: Record<number, number> }) => Buffer;
  constants: Record<string, number>;
};
const codecs: Codec[] = [
  { name: 'gzip-1', run: (b) => zlib.gzipSync(b, { level: 1 }) },
  { name: 'gzip-6', run: (b) => zlib.gzipSync(b, { level: 6 }) }, // zlib's default, tonic's and grpc-js's gzip
];
if (z.zstdCompressSync) {
  const level = (n: number) => ({ params: { [z.constants.ZSTD_c_compressionLevel!]: n } });
  codecs.push({ name: 'zstd-1', run: (b) => z.zstdCompressSync!(b, level(1)) });
  codecs.push({ name: 'zstd-3', run: (b) => z.zstdCompressSync!(b, level(3)) }); // zstd's default, tonic's
}

function simulatorUpdates(): Map<string, Buffer[]> {
  const chain = new SimChain({ ...DEFAULT_SIM_OPTIONS, tps, slotMs: 0, fast: true });
  chain.next('fast');
  const byKind = new Map<string, Buffer[]>([
    ['transaction', []],
    ['account', []],
    ['slot', []],
  ]);
  const enc = (u: object) => Buffer.from(geyserCodecs.SubscribeUpdate.encode({ filters: ['f'], createdAt: new Date(), ...u }).finish());
  for (let i = 0; i < slots; i++) {
    for (const e of chain.next('fast').events) {
      if (e.kind === 'transactions') byKind.get('transaction')!.push(enc({ transaction: transactionToYellowstone(e.event) }));
      else if (e.kind === 'accounts') byKind.get('account')!.push(enc({ account: accountToYellowstone(e.event) }));
      else if (e.kind === 'slots') {
        const slot = slotToYellowstone(e.event);
        if (slot) byKind.get('slot')!.push(enc({ slot }));
      }
    }
  }
  return byKind;
}

function mainnetUpdates(): Map<string, Buffer[]> {
  const byKind = new Map<string, Buffer[]>();
  for (const b of readMainnetStream()) {
    const u = geyserCodecs.SubscribeUpdate.decode(b) as unknown as Record<string, unknown>;
    const kind =
      ['transaction', 'account', 'slot', 'block', 'blockMeta', 'entry', 'transactionStatus'].find((k) => u[k] !== undefined) ?? 'other';
    if (!byKind.has(kind)) byKind.set(kind, []);
    byKind.get(kind)!.push(b);
  }
  return byKind;
}

function report(source: string, byKind: Map<string, Buffer[]>): void {
  const all = [...byKind.values()].flat();
  byKind.set('all', all);
  const head = ['kind', 'messages', 'bytes/msg', ...codecs.map((c) => `${c.name} (ratio, MB/CPU-s)`)];
  console.log(`\n${source}`);
  console.log(head.join(' | '));
  for (const [kind, msgs] of byKind) {
    if (msgs.length === 0) continue;
    const raw = msgs.reduce((n, b) => n + b.length, 0);
    const cols = codecs.map((c) => {
      const t = process.cpuUsage();
      let out = 0;
      for (const m of msgs) out += c.run(m).length;
      const u = process.cpuUsage(t);
      const cpu = (u.user + u.system) / 1e6;
      return `${(out / raw).toFixed(3)}, ${(raw / 1e6 / cpu).toFixed(0)}`;
    });
    console.log([kind, msgs.length, Math.round(raw / msgs.length), ...cols].join(' | '));
  }
}

console.log(`compression-grpc: ${process.version}; zstd ${z.zstdCompressSync ? 'available' : 'NOT available (Node < 22.15)'}`);
report(`simulator: ${slots} slots at ${tps} tx/s, every transaction, account write and slot status`, simulatorUpdates());
report('mainnet: recorded SubscribeUpdate stream (stream-398202772)', mainnetUpdates());
