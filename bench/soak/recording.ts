// The soak's load, made once ahead of the run: the simulator's chain (fast signatures, unpaced) as the
// SubscribeUpdates a Yellowstone upstream sends (test/support/yellowstone/updates-of.ts), vote account writes
// padded to Agave's size (shape.ts), written to a file slot by slot, and read back slot by slot by the
// upstream process (upstream.ts), so neither the simulator nor the encoding runs during the measured run.
//
// File: per slot (skipped slots too, which carry only other slots' statuses), a 16-byte head (u64 BE slot, u32 BE
// update count, u32 BE body bytes) and a body of updates, each a u32 BE length and a SubscribeUpdate's bytes.
// Beside it `<file>.json` (RecordingIndex): the shape, per slot the update count and where its transactions
// start, the most written accounts (the clients' account subscriptions) and the recording's measured mix.
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, open, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import bs58 from 'bs58';
import { createSimSource } from '../../ingest/sources/sim/index.js';
import { SubscribeUpdateCodec, type SubscribeUpdate } from '../../ingest/sources/yellowstone/geyser-service.js';
import { VOTE_PROGRAM } from '../../schemas/programs.js';
import { subscribeUpdatesOf } from '../../test/support/yellowstone/updates-of.js';
import type { LoadShape } from './shape.js';

export interface SlotIndex {
  slot: number;
  /** Updates of the slot's batch. */
  updates: number;
  /** Position of its first transaction update among them, and its transactions (0 when none). */
  firstTx: number;
  txs: number;
}

/** What the recording holds, measured while writing it (bench/README.md "Soak" quotes these). */
export interface RecordingMix {
  slots: number;
  blocks: number;
  transactions: number;
  votes: number;
  accountWrites: number;
  entries: number;
  /** Wire bytes by update kind. */
  bytes: Record<string, number>;
  /** Account writes by data size bucket (bytes): "0", "1-128", "129-165", "166-512", "513-4096", ">4096". */
  accountSizes: Record<string, number>;
}

export interface RecordingIndex {
  shape: LoadShape;
  slots: SlotIndex[];
  /** The most written non-vote accounts (base58), most written first. */
  busyAccounts: string[];
  mix: RecordingMix;
}

const HEAD = 16;
const VOTE = bs58.decode(VOTE_PROGRAM);

export function recordingPath(dir: string, shape: LoadShape): string {
  return path.join(dir, `soak-m${shape.multiple}-s${shape.sim.maxSlots}-seed${shape.sim.seed}-v${shape.voteAccountBytes}.bin`);
}

function sizeBucket(n: number): string {
  if (n === 0) return '0';
  if (n <= 128) return '1-128';
  if (n <= 165) return '129-165';
  if (n <= 512) return '166-512';
  if (n <= 4096) return '513-4096';
  return '>4096';
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && Buffer.compare(a, b) === 0;

/** Pads a vote account write's data to `bytes` (zeros after the simulator's compact state). */
function padVote(u: SubscribeUpdate, bytes: number): void {
  const acc = u.account?.account;
  if (!acc || !sameBytes(acc.owner, VOTE) || acc.data.length >= bytes) return;
  const data = new Uint8Array(bytes);
  data.set(acc.data);
  acc.data = data;
}

/** Makes the recording unless `file` and its index exist; resolves with the index. */
export async function ensureRecording(
  file: string,
  shape: LoadShape,
  log: (line: string) => void = () => undefined,
): Promise<RecordingIndex> {
  if (existsSync(file) && existsSync(`${file}.json`)) return JSON.parse(await readFile(`${file}.json`, 'utf8')) as RecordingIndex;
  await mkdir(path.dirname(file), { recursive: true });
  const started = Date.now();
  const tmp = `${file}.tmp`;
  const out = createWriteStream(tmp);
  const slots: SlotIndex[] = [];
  const writes = new Map<string, number>();
  const mix: RecordingMix = { slots: 0, blocks: 0, transactions: 0, votes: 0, accountWrites: 0, entries: 0, bytes: {}, accountSizes: {} };
  const sim = createSimSource(shape.sim);
  for await (const batch of sim.batches({})) {
    const updates = subscribeUpdatesOf(batch);
    const parts: Buffer[] = [];
    let firstTx = -1;
    let txs = 0;
    updates.forEach((u, i) => {
      padVote(u, shape.voteAccountBytes);
      const bytes = SubscribeUpdateCodec.encode(u).finish();
      const kind = u.transaction ? 'transaction' : u.account ? 'account' : u.entry ? 'entry' : u.blockMeta ? 'block_meta' : 'slot';
      mix.bytes[kind] = (mix.bytes[kind] ?? 0) + bytes.length;
      if (u.transaction) {
        if (firstTx < 0) firstTx = i;
        txs++;
        mix.transactions++;
        if (u.transaction.transaction?.isVote) mix.votes++;
      } else if (u.account?.account) {
        const acc = u.account.account;
        mix.accountWrites++;
        mix.accountSizes[sizeBucket(acc.data.length)] = (mix.accountSizes[sizeBucket(acc.data.length)] ?? 0) + 1;
        if (!sameBytes(acc.owner, VOTE)) {
          const key = bs58.encode(acc.pubkey);
          writes.set(key, (writes.get(key) ?? 0) + 1);
        }
      } else if (u.entry) mix.entries++;
      else if (u.blockMeta) mix.blocks++;
      const len = Buffer.alloc(4);
      len.writeUInt32BE(bytes.length);
      parts.push(len, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    });
    const body = Buffer.concat(parts);
    const head = Buffer.alloc(HEAD);
    head.writeBigUInt64BE(batch.slot, 0);
    head.writeUInt32BE(updates.length, 8);
    head.writeUInt32BE(body.length, 12);
    if (!out.write(head) || !out.write(body)) await new Promise<void>((r) => out.once('drain', r));
    slots.push({ slot: Number(batch.slot), updates: updates.length, firstTx: Math.max(firstTx, 0), txs });
    mix.slots++;
    if (mix.slots % 100 === 0)
      log(`soak recording: ${mix.slots}/${shape.sim.maxSlots} slots (${Math.round((Date.now() - started) / 1000)} s)`);
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  const busyAccounts = [...writes.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 20)
    .map(([k]) => k);
  const index: RecordingIndex = { shape, slots, busyAccounts, mix };
  await writeFile(`${file}.json`, JSON.stringify(index));
  await rename(tmp, file);
  log(`soak recording: ${file} made in ${Math.round((Date.now() - started) / 1000)} s`);
  return index;
}

export interface RecordedSlot {
  slot: number;
  /** The slot's updates, each the bytes of one SubscribeUpdate. */
  updates: Buffer[];
}

/** Reads the recording slot by slot from the first slot at or after `fromSlot` (undefined: the start). */
export async function* readRecording(file: string, fromSlot?: number): AsyncGenerator<RecordedSlot> {
  const fh = await open(file, 'r');
  try {
    const head = Buffer.alloc(HEAD);
    for (let at = 0; ;) {
      const { bytesRead } = await fh.read(head, 0, HEAD, at);
      if (bytesRead === 0) return;
      if (bytesRead < HEAD) throw new Error(`soak recording ${file}: truncated slot head at byte ${at}`);
      const slot = Number(head.readBigUInt64BE(0));
      const count = head.readUInt32BE(8);
      const size = head.readUInt32BE(12);
      at += HEAD;
      if (fromSlot !== undefined && slot < fromSlot) {
        at += size;
        continue;
      }
      const body = Buffer.alloc(size);
      const r = await fh.read(body, 0, size, at);
      if (r.bytesRead < size) throw new Error(`soak recording ${file}: truncated body of slot ${slot} at byte ${at}`);
      at += size;
      const updates: Buffer[] = [];
      for (let p = 0; p < size;) {
        const n = body.readUInt32BE(p);
        updates.push(body.subarray(p + 4, p + 4 + n));
        p += 4 + n;
      }
      if (updates.length !== count)
        throw new Error(`soak recording ${file}: slot ${slot} holds ${updates.length} updates, its head says ${count}`);
      yield { slot, updates };
    }
  } finally {
    await fh.close();
  }
}
