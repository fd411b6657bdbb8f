// Encoding our own messages (ts-proto over @bufbuild/protobuf's wire writer) through one reused writer.
// A fresh writer starts with a small buffer and doubles it (allocate, zero, copy) several times per
// transaction: a reused one keeps its grown buffer, which made the ingest's encoding 2.5x faster
// (bench/README.md). finish() copies the bytes out and resets the writer; encoding is synchronous, so
// nothing else writes in between.
import { BinaryWriter } from '@bufbuild/protobuf/wire';
import { asBuffer } from './bytes.js';

const writer = new BinaryWriter();

export interface MessageEncoder<T> {
  encode(message: T, writer?: BinaryWriter): BinaryWriter;
}

/** `message`'s wire bytes in a Buffer of their own. */
export function encodeMessage<T>(codec: MessageEncoder<T>, message: T): Buffer {
  let bytes: Uint8Array;
  try {
    bytes = codec.encode(message, writer).finish();
  } catch (err) {
    // A value the codec refuses (a u64 out of range) leaves a half-written message behind: drop it.
    writer.finish();
    throw err;
  }
  return asBuffer(bytes);
}
