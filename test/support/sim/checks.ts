// Test helpers shared by the simulator's unit tests and the ingest integration tests (not used at run time).
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { AccountEvent, TransactionEvent } from '../../../schemas/codec.js';
import type { SlotBatch } from '../../../ingest/source.js';
import { createSimSource } from '../../../ingest/sources/sim/createSimSource.js';
import { MINT_LEN, TOKEN_ACCOUNT_LEN } from '../../../ingest/sources/sim/layouts.js';
import { DEFAULT_SIM_OPTIONS, type SimOptions } from '../../../ingest/sources/sim/options.js';
import { NATIVE_MINT, TOKEN_PROGRAM } from '../../../ingest/sources/sim/programs.js';

export const testOptions = (o: Partial<SimOptions> = {}): SimOptions => ({
  ...DEFAULT_SIM_OPTIONS,
  slotMs: 0,
  maxSlots: 40,
  ...o,
});

export async function collect(o: Partial<SimOptions>, afterSlot?: bigint): Promise<SlotBatch[]> {
  const out: SlotBatch[] = [];
  for await (const b of createSimSource(testOptions(o)).batches({ afterSlot })) out.push(b);
  return out;
}

/**
 * `collect`, built once per options and resume slot and shared by the tests of one file (a chain is most of a
 * simulator test's CPU; the tests only read it). `clear` drops the chains: call it in the file's afterAll, since
 * files share a worker's memory (isolate: false).
 */
export function sharedChains(): { get(o: Partial<SimOptions>, afterSlot?: bigint): Promise<SlotBatch[]>; clear(): void } {
  const built = new Map<string, Promise<SlotBatch[]>>();
  return {
    get(o, afterSlot) {
      const key = JSON.stringify([o, afterSlot?.toString()]);
      let chain = built.get(key);
      if (!chain) built.set(key, (chain = collect(o, afterSlot)));
      return chain;
    },
    clear: () => built.clear(),
  };
}

// The imported public keys, once each: a chain's signers sign many transactions each.
const verifyKeys = new Map<string, KeyObject>();

export function verifyEd25519(message: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  const x = Buffer.from(publicKey).toString('base64url');
  let key = verifyKeys.get(x);
  if (key === undefined) verifyKeys.set(x, (key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' })));
  return verify(null, message, key, signature);
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** Latest state per pubkey (hex) after replaying writes in order (the highest write_version wins). */
export function latestAccounts(writes: readonly AccountEvent[]): Map<string, AccountEvent> {
  const m = new Map<string, AccountEvent>();
  for (const w of writes) m.set(hex(w.pubkey), w);
  return m;
}

/** Lamports of the genesis accounts, of the final state, and the half of the signature fees that is burned. */
export function lamportTotals(
  txs: readonly TransactionEvent[],
  writes: readonly AccountEvent[],
): { genesis: bigint; end: bigint; burned: bigint } {
  const sum = (m: Map<string, AccountEvent>) => [...m.values()].reduce((a, w) => a + w.lamports, 0n);
  return {
    genesis: sum(latestAccounts(writes.filter((w) => w.isStartup))),
    end: sum(latestAccounts(writes)),
    burned: txs.reduce((a, t) => a + BigInt(t.numRequiredSignatures) * 2500n, 0n),
  };
}

/** Per mint (hex): the supply its mint account states and the sum of its token accounts' balances. Wrapped SOL is
 * left out: its token amounts are lamports, which SPL Token never counts in the native mint's supply. */
export function mintBalances(writes: readonly AccountEvent[]): Map<string, { supply: bigint; held: bigint }> {
  const out = new Map<string, { supply: bigint; held: bigint }>();
  const entry = (mint: string) => out.get(mint) ?? out.set(mint, { supply: 0n, held: 0n }).get(mint)!;
  for (const w of latestAccounts(writes).values()) {
    if (!w.owner.equals(TOKEN_PROGRAM) || w.pubkey.equals(NATIVE_MINT) || w.data.subarray(0, 32).equals(NATIVE_MINT)) continue;
    if (w.data.length === MINT_LEN) entry(hex(w.pubkey)).supply = w.data.readBigUInt64LE(36);
    if (w.data.length === TOKEN_ACCOUNT_LEN) entry(hex(w.data.subarray(0, 32))).held += w.data.readBigUInt64LE(64);
  }
  return out;
}

/** Pearson chi-square of observed leader-run counts against stake-proportional expectations. */
export function chiSquare(schedule: ArrayLike<number>, weights: readonly number[]): number {
  const counts = new Array<number>(weights.length).fill(0);
  for (let i = 0; i < schedule.length; i++) counts[schedule[i]!]!++;
  const total = weights.reduce((a, b) => a + b, 0);
  let chi = 0;
  weights.forEach((w, i) => {
    const expected = (schedule.length * w) / total;
    chi += (counts[i]! - expected) ** 2 / expected;
  });
  return chi;
}

/** chi-square critical value for 49 degrees of freedom (50 validators) at p = 0.001. */
export const CRITICAL_49_DF = 85.35;
