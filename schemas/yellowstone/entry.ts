// PoH entries: Yellowstone's SubscribeUpdateEntry <-> EntryEvent (field for field).
import type { EntryEvent } from '../gen/events.js';
import { buf, u64, u64Str } from './bytes.js';
import type { SubscribeUpdateEntry } from './storage.js';

export function entryFromYellowstone(u: SubscribeUpdateEntry): EntryEvent {
  return {
    slot: u64(u.slot),
    index: u64(u.index),
    numHashes: u64(u.numHashes),
    hash: buf(u.hash),
    executedTransactionCount: u64(u.executedTransactionCount),
    startingTransactionIndex: u64(u.startingTransactionIndex),
  };
}

export function entryToYellowstone(e: EntryEvent): SubscribeUpdateEntry {
  return {
    slot: u64Str(e.slot),
    index: u64Str(e.index),
    numHashes: u64Str(e.numHashes),
    hash: e.hash,
    executedTransactionCount: u64Str(e.executedTransactionCount),
    startingTransactionIndex: u64Str(e.startingTransactionIndex),
  };
}
