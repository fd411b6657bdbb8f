import {
  AddressLookupTableProgram,
  BPF_LOADER_PROGRAM_ID,
  ComputeBudgetProgram,
  SYSVAR_CLOCK_PUBKEY,
  SYSVAR_RENT_PUBKEY,
  SYSVAR_SLOT_HASHES_PUBKEY,
  SystemProgram,
  VoteProgram,
} from '@solana/web3.js';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import * as ids from '../../../schemas/programs.js';
import * as sim from './programs.js';

// Every program and sysvar of Solana's the simulated chain names, with its id in schemas/programs.ts.
const WELL_KNOWN = [
  'SYSTEM_PROGRAM',
  'VOTE_PROGRAM',
  'TOKEN_PROGRAM',
  'ATA_PROGRAM',
  'MEMO_PROGRAM',
  'COMPUTE_BUDGET_PROGRAM',
  'LOOKUP_TABLE_PROGRAM',
  'BPF_LOADER_UPGRADEABLE',
  'BPF_LOADER_2',
  'NATIVE_LOADER',
  'METADATA_PROGRAM',
  'SYSVAR_RENT',
  'SYSVAR_CLOCK',
  'SYSVAR_SLOT_HASHES',
  'TOKEN_2022_PROGRAM',
  'NATIVE_MINT',
] as const;

describe('the simulator’s well-known program ids', () => {
  it.each(WELL_KNOWN)('%s equals the id in schemas/programs.ts and decodes to a 32-byte key', (name) => {
    const base58 = (ids as Record<string, unknown>)[name];
    expect(typeof base58, `schemas/programs.ts exports ${name}`).toBe('string');
    const key = bs58.decode(base58 as string);
    expect(key.length).toBe(32);
    expect(bs58.encode(sim[name])).toBe(base58);
  });

  it('every 32-byte key the simulator exports as a Solana program or sysvar is in the list above', () => {
    // pump.fun's (PUMP_*) and the simulator's own router (SIM_*) are not Solana's.
    const named = Object.entries(sim).filter(
      ([k, v]) => Buffer.isBuffer(v) && v.length === 32 && !k.startsWith('PUMP_') && !k.startsWith('SIM_'),
    );
    expect(named.map(([k]) => k).sort()).toEqual([...WELL_KNOWN].sort());
  });

  it('the ids @solana/web3.js publishes agree with schemas/programs.ts', () => {
    expect(ids.SYSTEM_PROGRAM).toBe(SystemProgram.programId.toBase58());
    expect(ids.VOTE_PROGRAM).toBe(VoteProgram.programId.toBase58());
    expect(ids.COMPUTE_BUDGET_PROGRAM).toBe(ComputeBudgetProgram.programId.toBase58());
    expect(ids.LOOKUP_TABLE_PROGRAM).toBe(AddressLookupTableProgram.programId.toBase58());
    expect(ids.BPF_LOADER_2).toBe(BPF_LOADER_PROGRAM_ID.toBase58());
    expect(ids.SYSVAR_RENT).toBe(SYSVAR_RENT_PUBKEY.toBase58());
    expect(ids.SYSVAR_CLOCK).toBe(SYSVAR_CLOCK_PUBKEY.toBase58());
    expect(ids.SYSVAR_SLOT_HASHES).toBe(SYSVAR_SLOT_HASHES_PUBKEY.toBase58());
  });
});
