// The `filters` prefix every gRPC service on this host puts before a shared update body. stream.proto's and
// Yellowstone's SubscribeUpdate both carry `filters` as field 1 (repeated string); a body is encoded once
// WITHOUT it and shared by every stream, and each stream sends `prefix + body`. Protobuf allows fields in
// any order and a concatenation of encoded fields is one valid message, so the result decodes exactly like a
// message encoded in one go (unit-tested by each service's encoder tests).

const EMPTY = Buffer.alloc(0);

function varintLength(n: number): number {
  let len = 1;
  while (n >= 0x80) {
    n >>>= 7;
    len++;
  }
  return len;
}

/** The `filters` field (number 1, wire type 2) holding `names`, as bytes to put before a body. */
export function encodeFiltersPrefix(names: readonly string[]): Buffer {
  if (names.length === 0) return EMPTY;
  let size = 0;
  const encoded = names.map((n) => Buffer.from(n, 'utf8'));
  for (const e of encoded) size += 1 + varintLength(e.length) + e.length;
  const out = Buffer.allocUnsafe(size);
  let pos = 0;
  for (const e of encoded) {
    out[pos++] = 0x0a; // (1 << 3) | 2
    let n = e.length;
    while (n >= 0x80) {
      out[pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    out[pos++] = n;
    pos += e.copy(out, pos);
  }
  return out;
}

/** Per-stream cache of the `filters` prefix: consecutive updates usually match the same names (compared
 * name by name: no key string built per update). */
export class PrefixCache {
  private names: readonly string[] | undefined;
  private bytes: Buffer = EMPTY;

  get(names: readonly string[]): Buffer {
    if (!this.same(names)) {
      this.names = [...names];
      this.bytes = encodeFiltersPrefix(names);
    }
    return this.bytes;
  }

  private same(names: readonly string[]): boolean {
    const last = this.names;
    if (last === undefined || last.length !== names.length) return false;
    for (let i = 0; i < names.length; i++) if (last[i] !== names[i]) return false;
    return true;
  }
}
