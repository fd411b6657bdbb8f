// What the yellowstone source does with the assembler's notices: logs and metrics, and the dead letter of an
// update the conversion rejects (the update as it came on the wire).
import bs58 from 'bs58';
import type { Logger } from '../../../platform/log.js';
import type { DeadLetter } from '../shared/dead-letter-sink.js';
import type { Notice } from './assembler.js';
import { SubscribeUpdateCodec } from './geyser-service.js';
import { yellowstoneMetrics } from './metrics.js';

const TOPIC_OF: Record<string, DeadLetter['kind']> = {
  slot: 'slots',
  'block meta': 'slots',
  transaction: 'transactions',
  account: 'accounts',
  entry: 'entries',
};

/** The update as it came on the wire (re-encoded with Yellowstone's codec), named by slot and signature. */
export function deadLetterOf(n: Extract<Notice, { kind: 'unconvertible' }>): DeadLetter {
  let value: Buffer;
  let format = 'geyser.SubscribeUpdate';
  try {
    value = Buffer.from(SubscribeUpdateCodec.encode(n.update).finish());
  } catch {
    // Too broken to re-encode: its fields as JSON, bytes as base64 and u64 as text.
    value = Buffer.from(
      JSON.stringify(n.update, (_k, v: unknown) =>
        v instanceof Uint8Array ? Buffer.from(v).toString('base64') : typeof v === 'bigint' ? v.toString() : v,
      ),
    );
    format = 'geyser.SubscribeUpdate as JSON';
  }
  const sig = n.signature !== undefined && n.signature.length > 0 ? bs58.encode(n.signature) : undefined;
  return { kind: TOPIC_OF[n.what] ?? 'slots', what: n.what, slot: n.slot, reason: n.reason, signature: sig, value, format };
}

export function notice(n: Notice, log: Logger): void {
  const m = yellowstoneMetrics();
  m.notices.inc({ kind: n.kind });
  switch (n.kind) {
    case 'gap':
      m.gapSlots.inc(Number(n.last - n.first + 1n));
      log.error(
        { firstSlot: n.first.toString(), lastSlot: n.last.toString(), reason: n.reason },
        `yellowstone source: slots ${n.first}-${n.last} are missing: ${n.reason}; a gap record names them`,
      );
      return;
    case 'incomplete':
      log.warn(
        {
          slot: n.slot.toString(),
          transactions: n.transactions,
          expectedTransactions: n.expectedTransactions.toString(),
          entries: n.entries,
          expectedEntries: n.expectedEntries.toString(),
        },
        `yellowstone source: slot ${n.slot} goes out without everything its block meta announced`,
      );
      return;
    case 'abandoned':
      log.warn(
        { slot: n.slot.toString(), records: n.records },
        `yellowstone source: slot ${n.slot} got data but no block; its records go out with the next slot`,
      );
      return;
    case 'partial-at-start':
      log.info(
        { slot: n.slot.toString() },
        `yellowstone source: slot ${n.slot} was already under way when the live subscription began; not published`,
      );
      return;
    case 'before-start':
      log.info(
        { slot: n.slot.toString(), records: n.records },
        `yellowstone source: slot ${n.slot} precedes the first whole slot; not published`,
      );
      return;
    case 'late-data':
      log.warn({ slot: n.slot.toString() }, `yellowstone source: data of slot ${n.slot} came after the slot went out; dropped`);
      return;
    case 'unconvertible': {
      const sig = n.signature !== undefined && n.signature.length > 0 ? bs58.encode(n.signature) : null;
      log.warn(
        { slot: n.slot?.toString() ?? null, signature: sig, what: n.what, reason: n.reason },
        `yellowstone source: unconvertible ${n.what} update of slot ${n.slot ?? 'unknown'}${sig ? ` (signature ${sig})` : ''} not published (no dead-letter topic): ${n.reason}`,
      );
      return;
    }
  }
}
