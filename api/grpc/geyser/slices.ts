// Yellowstone's accounts_data_slice semantics (filter.rs FilterAccountsDataSlice::get_slice): the update carries
// the requested ranges concatenated, and a range that does not fit inside the data contributes NOTHING (not a
// cut range, as stream.Stream does). No slices: the full data.
import type { DataSlice } from '../../filters/index.js';

export function yellowstoneSlice(data: Uint8Array, slices: readonly DataSlice[]): Uint8Array {
  if (slices.length === 0) return data;
  const parts: Uint8Array[] = [];
  for (const s of slices) if (s.offset + s.length <= data.length) parts.push(data.subarray(s.offset, s.offset + s.length));
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}
