// Program derived addresses, synchronous and cached. @solana/kit's getProgramDerivedAddress is async
// (WebCrypto) and measured ~750 µs per call here; this does the same bump search with node:crypto's
// sha256 and a curve check on raw bytes (curve.ts). pda.unit.test.ts compares results with kit.
import { createHash } from 'node:crypto';
import { isOnCurve } from './curve.js';
import {
  ATA_PROGRAM,
  PUMP_MAYHEM_PROGRAM,
  METADATA_PROGRAM,
  NATIVE_MINT,
  PUMP_AMM_PROGRAM,
  PUMP_FEE_PROGRAM,
  PUMP_PROGRAM,
  TOKEN_PROGRAM,
} from './programs.js';

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

// Today's pump.fun and PumpSwap account lists (seeds as the programs' IDLs give them).
const seed = (s: string): Buffer => Buffer.from(s);
const pumpPda = (...seeds: Uint8Array[]): Buffer => findProgramAddress(seeds, PUMP_PROGRAM).address;
const ammPda = (...seeds: Uint8Array[]): Buffer => findProgramAddress(seeds, PUMP_AMM_PROGRAM).address;

export const creatorVaultAddress = (creator: Uint8Array): Buffer => pumpPda(seed('creator-vault'), creator);
export const pumpGlobalVolumeAccumulatorAddress = (): Buffer => pumpPda(seed('global_volume_accumulator'));
export const pumpUserVolumeAccumulatorAddress = (user: Uint8Array): Buffer => pumpPda(seed('user_volume_accumulator'), user);
/** fee_config of a program lives under the fee program, seeded with the program's id. */
export const feeConfigAddress = (program: Uint8Array): Buffer =>
  findProgramAddress([seed('fee_config'), program], PUMP_FEE_PROGRAM).address;
export const sharingConfigAddress = (mint: Uint8Array): Buffer =>
  findProgramAddress([seed('sharing-config'), mint], PUMP_FEE_PROGRAM).address;
export const mayhemGlobalParamsAddress = (): Buffer => findProgramAddress([seed('global-params')], PUMP_MAYHEM_PROGRAM).address;
export const mayhemSolVaultAddress = (): Buffer => findProgramAddress([seed('sol-vault')], PUMP_MAYHEM_PROGRAM).address;
export const mayhemStateAddress = (mint: Uint8Array): Buffer =>
  findProgramAddress([seed('mayhem-state'), mint], PUMP_MAYHEM_PROGRAM).address;
export const poolAuthorityAddress = (mint: Uint8Array): Buffer => pumpPda(seed('pool-authority'), mint);

/** A canonical pump pool: index 0, created by the coin's pool authority, quoted in wrapped SOL. */
export const canonicalPoolAddress = (poolAuthority: Uint8Array, mint: Uint8Array): { address: Buffer; bump: number } =>
  findProgramAddress([seed('pool'), Buffer.of(0, 0), poolAuthority, mint, NATIVE_MINT], PUMP_AMM_PROGRAM);
export const lpMintAddress = (pool: Uint8Array): Buffer => ammPda(seed('pool_lp_mint'), pool);
export const ammGlobalConfigAddress = (): Buffer => ammPda(seed('global_config'));
export const coinCreatorVaultAuthorityAddress = (coinCreator: Uint8Array): Buffer => ammPda(seed('creator_vault'), coinCreator);
export const ammGlobalVolumeAccumulatorAddress = (): Buffer => ammPda(seed('global_volume_accumulator'));
export const ammUserVolumeAccumulatorAddress = (user: Uint8Array): Buffer => ammPda(seed('user_volume_accumulator'), user);
