// A stream's start and end beyond its filters (issue 23 items 2 and 3), the same for every transport: a durable
// cursor to resume from, an end slot, and a replay pace. stream.Stream carries them as SubscribeRequest fields
// (`cursor`, `to_slot`, `pace`), geyser.Geyser as request metadata (`x-slotstream-cursor`, `x-slotstream-to-slot`,
// `x-slotstream-pace`: a stock Yellowstone client can send metadata, not new fields). Pure: validation only.
import { cursorNameError } from '../../schemas/cursor-record.js';

export interface StreamBounds {
  /** The durable cursor the stream resumes from and advances. */
  readonly cursor?: string;
  /** The stream ends with OK once this slot was fully delivered; later slots' updates are not sent. */
  readonly toSlot?: bigint;
  /** Replay pace: undefined or 0, as fast as possible; 1, as recorded; N, N times faster. */
  readonly pace?: number;
}

export interface BoundsFields {
  cursor?: string;
  toSlot?: bigint;
  pace?: number;
  fromSlot?: bigint;
}

/** How the transport names each field in its errors (field names, or metadata keys). */
export interface BoundsNames {
  cursor: string;
  toSlot: string;
  pace: string;
  fromSlot: string;
}

export const STREAM_FIELD_NAMES: BoundsNames = { cursor: 'cursor', toSlot: 'to_slot', pace: 'pace', fromSlot: 'from_slot' };

export const GEYSER_METADATA = {
  cursor: 'x-slotstream-cursor',
  toSlot: 'x-slotstream-to-slot',
  pace: 'x-slotstream-pace',
} as const;

export const GEYSER_FIELD_NAMES: BoundsNames = { ...GEYSER_METADATA, fromSlot: 'from_slot' };

export type BoundsResult = { ok: true; value: StreamBounds } | { ok: false; error: string };

/** Checks the fields together; the error names the field (`names`) and says why. */
export function streamBounds(f: BoundsFields, names: BoundsNames): BoundsResult {
  if (f.cursor !== undefined) {
    const why = cursorNameError(f.cursor);
    if (why !== undefined) return { ok: false, error: `${names.cursor}: ${why}` };
  }
  if (f.pace !== undefined) {
    if (!Number.isFinite(f.pace) || f.pace < 0)
      return {
        ok: false,
        error: `${names.pace}: must be a finite number >= 0 (0: as fast as possible, 1: as recorded, N: N times faster), got ${f.pace}`,
      };
    if (f.pace > 0 && f.fromSlot === undefined && f.cursor === undefined)
      return {
        ok: false,
        error: `${names.pace}: paces a replay, so it needs ${names.fromSlot} or ${names.cursor} (live updates are never delayed)`,
      };
  }
  if (f.toSlot !== undefined && f.fromSlot !== undefined && f.toSlot < f.fromSlot)
    return { ok: false, error: `${names.toSlot}: ${f.toSlot} is before ${names.fromSlot} ${f.fromSlot}` };
  const value: { -readonly [K in keyof StreamBounds]: StreamBounds[K] } = {};
  if (f.cursor !== undefined) value.cursor = f.cursor;
  if (f.toSlot !== undefined) value.toSlot = f.toSlot;
  if (f.pace !== undefined && f.pace > 0) value.pace = f.pace;
  return { ok: true, value };
}

/** geyser.Geyser's metadata values (strings) as fields; an unreadable number names its key. */
export function boundsFromMetadata(get: (key: string) => string | undefined, fromSlot: bigint | undefined): BoundsResult {
  const cursor = get(GEYSER_METADATA.cursor);
  const toSlotText = get(GEYSER_METADATA.toSlot);
  const paceText = get(GEYSER_METADATA.pace);
  let toSlot: bigint | undefined;
  if (toSlotText !== undefined) {
    if (!/^\d{1,20}$/.test(toSlotText.trim()) || BigInt(toSlotText.trim()) > 0xffff_ffff_ffff_ffffn)
      return { ok: false, error: `${GEYSER_METADATA.toSlot}: not a slot number (u64): ${JSON.stringify(toSlotText.slice(0, 40))}` };
    toSlot = BigInt(toSlotText.trim());
  }
  let pace: number | undefined;
  if (paceText !== undefined) {
    pace = paceText.trim() === '' ? NaN : Number(paceText);
    if (Number.isNaN(pace)) return { ok: false, error: `${GEYSER_METADATA.pace}: not a number: ${JSON.stringify(paceText.slice(0, 40))}` };
  }
  return streamBounds({ cursor, toSlot, pace, fromSlot }, GEYSER_FIELD_NAMES);
}

/** Where a stream on a cursor starts: right after the cursor's position when it exists, else `fromSlot`. */
export function cursorStart(position: bigint | undefined, fromSlot: bigint | undefined): bigint | undefined {
  return position === undefined ? fromSlot : position + 1n;
}
