// Account writes: Yellowstone's SubscribeUpdateAccount <-> AccountEvent (the same fields, one level flatter).
import type { AccountEvent } from '../gen/events.js';
import { buf, u64, u64Str } from './bytes.js';
import type { SubscribeUpdateAccount } from './storage.js';
import { YellowstoneConversionError } from './transaction.js';

export function accountFromYellowstone(u: SubscribeUpdateAccount): AccountEvent {
  const a = u.account;
  if (a === undefined) throw new YellowstoneConversionError(`account update of slot ${u.slot}: empty`);
  return {
    pubkey: buf(a.pubkey),
    lamports: u64(a.lamports),
    owner: buf(a.owner),
    executable: a.executable,
    rentEpoch: u64(a.rentEpoch),
    data: buf(a.data),
    writeVersion: u64(a.writeVersion),
    slot: u64(u.slot),
    txnSignature: a.txnSignature === undefined ? undefined : buf(a.txnSignature),
    isStartup: u.isStartup,
  };
}

export function accountToYellowstone(e: AccountEvent): SubscribeUpdateAccount {
  return {
    account: {
      pubkey: e.pubkey,
      lamports: u64Str(e.lamports),
      owner: e.owner,
      executable: e.executable,
      rentEpoch: u64Str(e.rentEpoch),
      data: e.data,
      writeVersion: u64Str(e.writeVersion),
      txnSignature: e.txnSignature,
    },
    slot: u64Str(e.slot),
    isStartup: e.isStartup,
  };
}
