// Protobuf base-128 varints written straight into a buffer, for the paths that build wire bytes without a
// message object (stream.Stream's re-framing, the snapshot's account records). Numbers up to 2^53: lengths and
// positions; 64-bit values go through their own writers where they are read as two halves.

/** Bytes the varint of `n` takes. */
export function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

/** Writes the varint of `n` at `pos`; returns the position after it. */
export function writeVarint(out: Buffer, pos: number, n: number): number {
  while (n >= 0x80) {
    out[pos++] = (n % 128) | 0x80;
    n = Math.floor(n / 128);
  }
  out[pos++] = n;
  return pos;
}
