import { getAddressEncoder, getBase58Decoder, getProgramDerivedAddress, type Address } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { associatedTokenAddress, bondingCurveAddress, findProgramAddress } from './pda.js';
import { ATA_PROGRAM, PUMP_PROGRAM, TOKEN_PROGRAM } from './programs.js';
import { rngFor } from './rng.js';

const b58 = getBase58Decoder();
const addr = (b: Uint8Array): Address => b58.decode(b) as Address;

describe('program derived addresses', () => {
  it('match @solana/kit getProgramDerivedAddress (address and bump) for ATAs and bonding curves', async () => {
    const rng = rngFor(1, 'pda-test');
    const enc = getAddressEncoder();
    for (let i = 0; i < 40; i++) {
      const owner = rng.bytes(32);
      const mint = rng.bytes(32);
      const [ata, ataBump] = await getProgramDerivedAddress({
        programAddress: addr(ATA_PROGRAM),
        seeds: [enc.encode(addr(owner)), enc.encode(addr(TOKEN_PROGRAM)), enc.encode(addr(mint))],
      });
      expect(addr(associatedTokenAddress(owner, mint))).toBe(ata);
      expect(findProgramAddress([owner, TOKEN_PROGRAM, mint], ATA_PROGRAM).bump).toBe(ataBump);
      const [curve] = await getProgramDerivedAddress({
        programAddress: addr(PUMP_PROGRAM),
        seeds: ['bonding-curve', enc.encode(addr(mint))],
      });
      expect(addr(bondingCurveAddress(mint))).toBe(curve);
    }
  });

  it('finds bumps below 255 (some first candidates are on the curve)', () => {
    const rng = rngFor(2, 'pda-bumps');
    const bumps = Array.from({ length: 40 }, () => findProgramAddress([rng.bytes(32)], PUMP_PROGRAM).bump);
    expect(bumps.some((b) => b < 255)).toBe(true);
  });
});
