// Program derived addresses, synchronous and cached. @solana/kit's getProgramDerivedAddress is async
// (WebCrypto) and measured ~750 µs per call here; this does the same bump search with node:crypto's
// sha256 and a curve check on raw bytes (curve.ts). pda.unit.test.ts compares results with kit.
import { createHash } from 'node:crypto';
import { isOnCurve } from './curve.js';
import { ATA_PROGRAM, METADATA_PROGRAM, PUMP_PROGRAM, TOKEN_PROGRAM } from './programs.js';

const PDA_MARKER = Buffer.from('ProgramDerivedAddress');
const cache = new Map<string, { address: Buffer; bump: number }>();

export function findProgramAddress(seeds: readonly Uint8Array[], program: Uint8Array): { address: Buffer; bump: number } {
  const cacheKey = Buffer.concat([program, ...seeds.flatMap((s) => [Buffer.of(s.length), s])]).toString('latin1');
  const hit = cache.get(cacheKey);
  if (hit) return hit;
  for (let bump = 255; bump >= 0; bump--) {
    const h = createHash('sha256');
    for (const s of seeds) h.update(s);
    const address = h.update(Buffer.of(bump)).update(program).update(PDA_MARKER).digest();
    if (!isOnCurve(address)) {
      const found = { address, bump };
      if (cache.size > 1_000_000) cache.clear(); // bound memory on very long runs
      cache.set(cacheKey, found);
      return found;
    }
  }
  throw new Error('no viable bump seed for program derived address');
}

export const associatedTokenAddress = (owner: Uint8Array, mint: Uint8Array): Buffer =>
  findProgramAddress([owner, TOKEN_PROGRAM, mint], ATA_PROGRAM).address;

export const bondingCurveAddress = (mint: Uint8Array): Buffer =>
  findProgramAddress([Buffer.from('bonding-curve'), mint], PUMP_PROGRAM).address;

export const metadataAddress = (mint: Uint8Array): Buffer =>
  findProgramAddress([Buffer.from('metadata'), METADATA_PROGRAM, mint], METADATA_PROGRAM).address;

export const lastWithdrawAddress = (): Buffer => findProgramAddress([Buffer.from('last-withdraw')], PUMP_PROGRAM).address;
