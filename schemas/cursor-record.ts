// The record of one durable stream cursor in the cursors topic (topics.ts `cursorsTopic`): the key is the
// cursor's name (UTF-8), the value this JSON object; a record without a value deletes the cursor (compaction
// then drops both). JSON rather than protobuf: two fields, read by people with Kafka's console tools too.

/** What a cursor name may hold: short, printable, no separators a shell or URL would mangle. */
export const CURSOR_NAME = /^[A-Za-z0-9._:-]{1,128}$/;

export interface CursorPosition {
  readonly name: string;
  /** The last slot fully delivered: the next stream on this cursor starts at slot + 1. */
  readonly slot: bigint;
  /** When the position was stored, ms since the Unix epoch. */
  readonly updatedAtMs: number;
}

/** Why a name is not a cursor name, or undefined when it is one. */
export function cursorNameError(name: string): string | undefined {
  return CURSOR_NAME.test(name)
    ? undefined
    : `cursor name must be 1-128 characters of A-Z a-z 0-9 . _ : - (got ${JSON.stringify(name.slice(0, 140))})`;
}

export function encodeCursorRecord(p: CursorPosition): { key: Buffer; value: Buffer } {
  return {
    key: Buffer.from(p.name, 'utf8'),
    value: Buffer.from(JSON.stringify({ slot: p.slot.toString(), updatedAtMs: p.updatedAtMs }), 'utf8'),
  };
}

/** The position a record holds; undefined for a deletion (no value). Throws on a value that is not one. */
export function decodeCursorRecord(key: Buffer, value: Buffer | null): CursorPosition | undefined {
  if (value === null) return undefined;
  const name = key.toString('utf8');
  const v = JSON.parse(value.toString('utf8')) as { slot?: unknown; updatedAtMs?: unknown };
  if (typeof v.slot !== 'string' || !/^\d{1,20}$/.test(v.slot))
    throw new Error(`cursor record ${name}: slot ${String(v.slot)} is not a u64`);
  if (typeof v.updatedAtMs !== 'number' || !Number.isFinite(v.updatedAtMs))
    throw new Error(`cursor record ${name}: updatedAtMs ${String(v.updatedAtMs)} is not a number`);
  return { name, slot: BigInt(v.slot), updatedAtMs: v.updatedAtMs };
}
