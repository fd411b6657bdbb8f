// The `filters` prefix every gRPC service on this host puts before a shared update body. stream.proto's and
// Yellowstone's SubscribeUpdate both carry `filters` as field 1 (repeated string); a body is encoded once
// WITHOUT it and shared by every stream, and each stream sends `prefix + body`. Protobuf allows fields in
// any order and a concatenation of encoded fields is one valid message, so the result decodes exactly like a
// message encoded in one go (unit-tested by each service's encoder tests).
import { SUBSCRIBE_UPDATE, tag, WIRE } from './proto-fields.js';
import { varintSize, writeVarint } from './varint.js';

const EMPTY = Buffer.alloc(0);
const FILTERS = tag(SUBSCRIBE_UPDATE.filters, WIRE.len);

/** The `filters` field holding `names`, as bytes to put before a body. */
export function encodeFiltersPrefix(names: readonly string[]): Buffer {
  if (names.length === 0) return EMPTY;
  let size = 0;
  const encoded = names.map((n) => Buffer.from(n, 'utf8'));
  for (const e of encoded) size += 1 + varintSize(e.length) + e.length;
  const out = Buffer.allocUnsafe(size);
  let pos = 0;
  for (const e of encoded) {
    out[pos++] = FILTERS;
    pos = writeVarint(out, pos, e.length);
    pos += e.copy(out, pos);
  }
  return out;
}
