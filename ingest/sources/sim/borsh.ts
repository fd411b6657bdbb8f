// The simulated programs' instruction arguments, account data and Anchor events are written with the one byte
// writer (schemas/byte-writer.ts: little-endian integers, bool as one byte, u32-length-prefixed UTF-8 strings and
// vectors, `Option<T>` as a 0/1 tag then the value). The simulator is a chain: it writes the bytes the programs
// write, with its own code, independent of the decoders that read them. `borsh()` stays the simulator's name for it.
import { ByteWriter } from '../../../schemas/byte-writer.js';

export const borsh = (capacity?: number): ByteWriter => new ByteWriter(capacity);
