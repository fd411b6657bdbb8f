// Bytes as a Buffer view (no copy): generated codecs, worker-thread messages and scans hand over plain
// Uint8Arrays, and the rest of the code compares, prints and slices Buffers.
export const asBuffer = (b: Uint8Array): Buffer => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength));
