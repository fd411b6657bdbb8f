// An account write as the contract's SubscribeUpdateAccount (proto/stream.proto): what Subscribe sends for it (with
// the stream's data slices applied: api/grpc/stream/encode.ts) and what SubscribeParsed's updates carry as the
// trade's curve or pool write (schemas/pumpfun/encode-parsed.ts, built by the ingest). Pure.
import type { SubscribeUpdateAccount } from '../proto/gen/stream.js';
import type { AccountEvent } from './gen/events.js';

export function accountUpdateOf(acc: AccountEvent, data: Buffer = acc.data): SubscribeUpdateAccount {
  return {
    slot: acc.slot,
    isStartup: acc.isStartup,
    account: {
      pubkey: acc.pubkey,
      lamports: acc.lamports,
      owner: acc.owner,
      executable: acc.executable,
      rentEpoch: acc.rentEpoch,
      data,
      writeVersion: acc.writeVersion,
      txnSignature: acc.txnSignature,
    },
  };
}
