// The real mainnet recordings of ../shared/data/mainnet (see its README), read in place at test time,
// never copied into the repository. SLOTSTREAM_MAINNET_DATA overrides the folder; a missing folder
// fails loudly (the `realdata` project only exists when the folder does, or when it is demanded).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export function mainnetDataDir(): string {
  const dir = process.env.SLOTSTREAM_MAINNET_DATA ?? path.resolve(REPO, '../shared/data/mainnet');
  if (!existsSync(path.join(dir, 'README.md'))) {
    throw new Error(`mainnet data folder not found at ${dir} (set SLOTSTREAM_MAINNET_DATA)`);
  }
  return dir;
}

/** The three ConfirmedBlock recordings and the facts their README states. */
export const MAINNET_BLOCKS = [
  { slot: 18144001n, parent: 18144000n, transactions: 89, votes: 89, logLines: 0, rewards: 0, blockTime: undefined },
  { slot: 43200000n, parent: 43199999n, transactions: 208, votes: 192, logLines: 296, rewards: 0, blockTime: 1603254141n },
  { slot: 64800004n, parent: 64799999n, transactions: 11, votes: undefined, logLines: undefined, rewards: 10185, blockTime: 1612972004n },
] as const;

export function readMainnetBlock(slot: bigint): Buffer {
  return readFileSync(path.join(mainnetDataDir(), `block-${slot}.confirmed-block.pb`));
}

/** The recorded SubscribeUpdate stream: each record a 4-byte big-endian length, then the message bytes. */
export function readMainnetStream(): Buffer[] {
  const file = readFileSync(path.join(mainnetDataDir(), 'stream-398202772.subscribe-updates.bin'));
  const records: Buffer[] = [];
  for (let at = 0; at < file.length;) {
    const n = file.readUInt32BE(at);
    records.push(file.subarray(at + 4, at + 4 + n));
    at += 4 + n;
  }
  return records;
}

/** One record of pump/transactions.json (the fields tests read; see pump/README.md for all of them). */
export interface PumpTransaction {
  id: number;
  signature: string;
  slot: number | null;
  blockTime: number | null;
  version: 'legacy' | 0 | 1;
  /** The signed transaction's wire bytes, base64. */
  wire_base64: string;
  /** The meta as getTransaction answers it with encoding json. */
  meta: Record<string, unknown> & { fee: number; err: unknown; loadedAddresses: { writable: string[]; readonly: string[] } };
}

/** pump/transactions.json as text: the one read of the file (./pump.ts parses it with long integers kept exact). */
export function pumpTransactionsText(): string {
  return readFileSync(path.join(mainnetDataDir(), 'pump', 'transactions.json'), 'utf8');
}

/** The real signed pump.fun / PumpSwap transactions of pump/transactions.json (numbers as JSON numbers, as Agave's meta). */
export function readPumpTransactions(): PumpTransaction[] {
  return JSON.parse(pumpTransactionsText()) as PumpTransaction[];
}

/** Record 23: the collection's v1 (SIMD-0385) transaction. */
export function readPumpV1Transaction(): PumpTransaction {
  const r = readPumpTransactions().find((t) => t.id === 23);
  if (r === undefined || r.version !== 1) throw new Error('pump/transactions.json: record 23 (the v1 transaction) is missing');
  return r;
}
