// A recorded sample of records kept in a file, so two trees (or two runs) can be measured on exactly the same
// records: the A/B comparisons in bench/README.md feed the old and the new tree one sample, which separates a
// change in the code from a change in the simulator's traffic. Format: per record, u32 key length, key, u32 value
// length, value (little-endian); nothing else, since only the benches read it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export interface SampleRecord {
  key: Buffer;
  value: Buffer;
}

export function readSamplesFile(path: string): SampleRecord[] | undefined {
  if (!existsSync(path)) return undefined;
  const buf = readFileSync(path);
  const out: SampleRecord[] = [];
  let at = 0;
  const take = (): Buffer => {
    if (at + 4 > buf.length) throw new Error(`${path}: truncated at byte ${at}`);
    const n = buf.readUInt32LE(at);
    at += 4;
    if (at + n > buf.length) throw new Error(`${path}: record of ${n} bytes runs past the end at byte ${at}`);
    const b = buf.subarray(at, at + n);
    at += n;
    return b;
  };
  while (at < buf.length) out.push({ key: take(), value: take() });
  return out;
}

export function writeSamplesFile(path: string, samples: readonly SampleRecord[]): void {
  const parts: Buffer[] = [];
  for (const s of samples) {
    for (const b of [s.key, s.value]) {
      const len = Buffer.alloc(4);
      len.writeUInt32LE(b.length);
      parts.push(len, b);
    }
  }
  writeFileSync(path, Buffer.concat(parts));
}
