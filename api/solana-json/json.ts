// JSON output with exact u64s. A JS number rounds past 2^53 (rentEpoch is usually 18446744073709551615)
// and JSON.stringify cannot write a bigint, yet JSON.stringify is several times faster than any writer in
// JS (1000 signature records: ~3 ms against ~8 ms). So answers carry u64 values as plain numbers when
// they are safe integers and as RawJson digits otherwise; RawJson serializes to a marker string holding a
// per-call random nonce, and the markers are swapped for their raw text afterwards. A client string can
// only collide with a marker by guessing 48 random bits of that very call.
import { randomBytes } from 'node:crypto';

let pending: string[] | undefined;
let nonce = '';

/** JSON text already known to be valid, written verbatim (e.g. a stored Agave error object, a big u64). */
export class RawJson {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    // Outside toJson (a test's JSON.stringify, a log line) the value itself is the best stand-in.
    if (pending === undefined) return JSON.parse(this.text);
    if (pending.length === 0) nonce = randomBytes(6).toString('hex'); // only answers with raw values pay for it
    pending.push(this.text);
    return `\u0000${nonce}${pending.length - 1}`;
  }
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A u64 for an answer: a number when exact as one, else its digits verbatim. */
export const u64Json = (v: bigint): number | RawJson => (v <= MAX_SAFE && v >= -MAX_SAFE ? Number(v) : new RawJson(v.toString()));

// A replacer's result is not passed through toJSON again, so a big value becomes its marker right here.
const bigintReplacer = (_key: string, v: unknown): unknown => {
  if (typeof v !== 'bigint') return v;
  const j = u64Json(v);
  return typeof j === 'number' ? j : j.toJSON();
};

/** Serializes an answer; bigints anywhere are written exactly too (a slower path). */
export function toJson(value: unknown): string {
  const raws: string[] = [];
  pending = raws;
  let text: string;
  try {
    try {
      text = JSON.stringify(value);
    } catch (err) {
      if (!(err instanceof TypeError)) throw err;
      raws.length = 0;
      text = JSON.stringify(value, bigintReplacer);
    }
  } finally {
    pending = undefined;
  }
  if (raws.length === 0) return text;
  return text.replace(new RegExp(`"\\\\u0000${nonce}(\\d+)"`, 'g'), (_m, i: string) => raws[Number(i)]!);
}

/** A stored error is Agave's JSON form; anything unparsable is passed on as a string, never as broken JSON. */
export function errValue(err: string | null): unknown {
  if (err === null) return null;
  try {
    JSON.parse(err);
    return new RawJson(err);
  } catch {
    return err;
  }
}
