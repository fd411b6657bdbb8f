// The token, ATA, system, metadata and rent ids of schemas/programs.ts (which the simulator decodes, issue 18
// item 6) checked against a source nobody on this project wrote: the fixed addresses of pump.fun's official IDL.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as ids from '../../schemas/programs.js';
import { mainnetDataDir } from '../support/mainnet/data.js';

interface Idl {
  instructions: { accounts: { name: string; address?: string }[] }[];
}

function fixedAddresses(): Map<string, Set<string>> {
  const idl = JSON.parse(readFileSync(path.join(mainnetDataDir(), 'pump/idl-pump.json'), 'utf8')) as Idl;
  const byName = new Map<string, Set<string>>();
  for (const ix of idl.instructions) {
    for (const a of ix.accounts) if (a.address) byName.set(a.name, (byName.get(a.name) ?? new Set()).add(a.address));
  }
  return byName;
}

describe('program ids against pump.fun’s official IDL', () => {
  it('token, token-2022, associated token, system, metadata and rent ids are the IDL’s', () => {
    const idl = fixedAddresses();
    expect(idl.get('token_program')).toContain(ids.TOKEN_PROGRAM);
    expect(idl.get('token_2022_program')).toContain(ids.TOKEN_2022_PROGRAM);
    expect(idl.get('associated_token_program')).toEqual(new Set([ids.ATA_PROGRAM]));
    expect(idl.get('system_program')).toEqual(new Set([ids.SYSTEM_PROGRAM]));
    expect(idl.get('mpl_token_metadata')).toEqual(new Set([ids.METADATA_PROGRAM]));
    expect(idl.get('rent')).toEqual(new Set([ids.SYSVAR_RENT]));
    expect(idl.get('wsol_mint')).toEqual(new Set([ids.NATIVE_MINT]));
  });
});
