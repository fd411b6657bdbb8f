// One binary layer (issue 35, item 2): the product reads and writes bytes through schemas/byte-reader.ts and
// schemas/byte-writer.ts, and only schemas/ knows protobuf field numbers (schemas/proto-fields.ts). This fails on a
// new byte cursor anywhere in product code (a class with the reader's or writer's methods) and on a protobuf field
// written by hand outside schemas/ (a raw varint or wire writer, a ts-proto style `uint32(<tag>)`, a tag byte stored
// by hand, the field tables themselves). Fixed-offset reads of an account layout (`readBigUInt64LE(64)`) are no
// cursor and stay where the layout is known.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isProductFile } from './long-functions.js';
import { repoFiles } from './repo-files.js';

const ROOT = join(import.meta.dirname, '..');
const THE_LAYER = new Set(['schemas/byte-reader.ts', 'schemas/byte-writer.ts']);
/** Methods a byte cursor has; a class with two or more of them that keeps its own position or touches bytes itself is
 * one (a format's writer over ByteWriter, as projector/row-binary.ts's, has the methods and neither). */
const CURSOR_METHODS = /^\s+(?:private\s+|public\s+)?(u8|u16|u32|u64|i64|u128|i128|shortU16)\(/gm;
const OWN_BYTES =
  /\b(?:private|protected|public)?\s*(?:at|pos|offset|cursor)\s*=\s*0\b|\.(?:read|write)(?:Big)?U?Int\d+(?:LE|BE)?\(|new DataView\(/;
const HAND_TAGS: readonly [RegExp, string][] = [
  [/schemas\/varint\.js'/, 'imports the raw varint writer'],
  [/@bufbuild\/protobuf\/wire'/, 'imports the protobuf wire writer'],
  [/schemas\/proto-fields\.js'/, 'imports the field tables'],
  [/\.uint32\(\d+\)/, 'writes a tag with uint32(<number>)'],
  [/\[\w+\+\+\] = 0x[0-9a-f]{2}\b/, 'stores a tag byte by hand'],
];

/** What in `text` (the product file `path`) is a byte cursor of its own or a protobuf tag written by hand. */
export function handWrittenBinary(path: string, text: string): string[] {
  const out: string[] = [];
  if (!THE_LAYER.has(path)) {
    for (const cls of text.split(/^(?=(?:export\s+)?class\s)/m).filter((part) => /^(?:export\s+)?class\s/.test(part))) {
      const methods = new Set([...cls.matchAll(CURSOR_METHODS)].map((m) => m[1]));
      if (methods.size >= 2 && OWN_BYTES.test(cls))
        out.push(`${path}: a byte cursor of its own (${[...methods].join(', ')}): use ByteReader/ByteWriter`);
    }
  }
  if (!path.startsWith('schemas/')) {
    for (const [pattern, what] of HAND_TAGS) if (pattern.test(text)) out.push(`${path}: ${what}: protobuf fields belong in schemas/`);
  }
  return out;
}

describe('one binary layer', () => {
  it('finds no byte cursor but ByteReader/ByteWriter in product code, and no protobuf tag written by hand outside schemas/', () => {
    const found = repoFiles(ROOT)
      .filter(isProductFile)
      .flatMap((f) => handWrittenBinary(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('fails on a cursor class, a raw varint import, a uint32 tag and a tag byte (outside schemas/), names them', () => {
    const cursor = 'class R {\n  private at = 0;\n  u8(): number {\n    return 0;\n  }\n  u32(): number {\n    return 0;\n  }\n}\n';
    expect(handWrittenBinary('api/x.ts', cursor)).toEqual(['api/x.ts: a byte cursor of its own (u8, u32): use ByteReader/ByteWriter']);
    expect(handWrittenBinary('schemas/x.ts', cursor)).toHaveLength(1);
    expect(handWrittenBinary('schemas/byte-reader.ts', cursor)).toEqual([]);
    expect(handWrittenBinary('api/x.ts', 'class Rng {\n  u32(): number {\n    return 1;\n  }\n}\n')).toEqual([]);
    // A format's writer over ByteWriter: the methods, no position or byte access of its own.
    const over =
      'class F {\n  private readonly w = new ByteWriter();\n  u8(v) {\n    this.w.u8(v);\n  }\n  u32(v) {\n    this.w.u32(v);\n  }\n}\n';
    expect(handWrittenBinary('projector/x.ts', over)).toEqual([]);
    const own = 'class G {\n  u8(v) {\n    this.buf.writeUInt8(v, 0);\n  }\n  u32(v) {\n    this.buf.writeUInt32LE(v, 1);\n  }\n}\n';
    expect(handWrittenBinary('projector/x.ts', own)).toHaveLength(1);
    expect(handWrittenBinary('api/x.ts', "import { writeVarint } from '../schemas/varint.js';")).toHaveLength(1);
    expect(handWrittenBinary('api/x.ts', 'w.uint32(10).bytes(b);')).toHaveLength(1);
    expect(handWrittenBinary('api/x.ts', 'out[pos++] = 0x0a;')).toHaveLength(1);
    expect(handWrittenBinary('schemas/x.ts', 'out[pos++] = 0x0a;')).toEqual([]);
  });
});
