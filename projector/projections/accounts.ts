// Account writes: every write is kept by (pubkey, slot), the highest write_version of a slot winning,
// so the state at any commitment is the newest row at or below that commitment's head. Owner changes are
// resolved by readers (projector/projections/index.ts writes the owner-keyed and owner-only copies).
import type { AccountEvent } from '../../schemas/codec.js';
import { base58Of, rejected, u64, type Projection } from './result.js';

export function projectAccount(e: AccountEvent): Projection {
  const pubkey = base58Of(e.pubkey, 32);
  if (pubkey === undefined) return rejected(`account write at slot ${e.slot}: pubkey must be 32 bytes, got ${e.pubkey.length}`);
  const owner = base58Of(e.owner, 32);
  if (owner === undefined) return rejected(`account ${pubkey} at slot ${e.slot}: owner must be 32 bytes, got ${e.owner.length}`);
  return {
    ok: true,
    rows: {
      account_writes: [
        {
          pubkey,
          slot: u64(e.slot),
          write_version: u64(e.writeVersion),
          owner,
          lamports: u64(e.lamports),
          executable: e.executable,
          rent_epoch: u64(e.rentEpoch),
          space: e.data.length,
          data: e.data.toString('base64'),
        },
      ],
    },
  };
}
