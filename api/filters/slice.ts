// Yellowstone data-slice semantics: the update carries the concatenation of the requested ranges, each cut at
// the end of the data (a range starting past the end contributes nothing). No slices: the full data.
import type { DataSlice } from './types.js';
import { asBuffer } from '../../schemas/bytes.js';

/**
 * Returns a Buffer (a Uint8Array, directly usable as a ts-proto `bytes` field). With no slices it is the input
 * itself (no copy) when the input is a Buffer; with one slice it is a view of the input.
 */
export function applyDataSlices(data: Uint8Array, slices: readonly DataSlice[]): Buffer {
  const buf = asBuffer(data);
  if (slices.length === 0) return buf;
  const parts = slices.map((s) => {
    const start = Math.min(s.offset, buf.length);
    const end = Math.min(s.offset + s.length, buf.length);
    return buf.subarray(start, end);
  });
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

/** Cache key of a slice set: streams with equal slices share one account encoding (both gRPC services). */
export function dataSliceKey(slices: readonly DataSlice[]): string {
  return slices.map((s) => `${s.offset}:${s.length}`).join(',');
}
