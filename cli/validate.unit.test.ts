import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from './config.js';
import { validateBeforeStart } from './validate.js';

let dir: string;
const validate = (role: string, argv: string[]): void => {
  const { config, positionals } = parseConfig(role, argv, {});
  validateBeforeStart(config, positionals);
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'slotstream-validate-'));
  writeFileSync(join(dir, 'in.jsonl'), '');
  mkdirSync(join(dir, 'folder'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('validateBeforeStart', () => {
  it('accepts a readable input file, standard input, and an output in an existing folder', () => {
    expect(() => validate('ingest', ['--source', 'file', '--source-path', join(dir, 'in.jsonl')])).not.toThrow();
    expect(() => validate('ingest', ['--source', 'file', '--source-path', '-'])).not.toThrow();
    expect(() => validate('ingest', ['--out', join(dir, 'new.jsonl')])).not.toThrow();
    expect(() => validate('ingest', ['--out', '-'])).not.toThrow();
  });

  it('names a missing input file and an input that is a folder', () => {
    const missing = join(dir, 'nope.jsonl');
    expect(() => validate('ingest', ['--source', 'file', '--source-path', missing])).toThrow(
      `option --source-path: no such file ${JSON.stringify(missing)}`,
    );
    expect(() => validate('all', ['--source', 'file', '--source-path', join(dir, 'folder')])).toThrow(/is a directory, not a file/);
  });

  it('names an output whose folder does not exist, and an output that is a folder', () => {
    expect(() => validate('ingest', ['--out', join(dir, 'no', 'x.jsonl')])).toThrow(
      `option --out: no such directory ${JSON.stringify(join(dir, 'no'))}`,
    );
    expect(() => validate('ingest', ['--out', join(dir, 'folder')])).toThrow(/option --out: .* is a directory, not a file/);
  });

  it('runs the cross-option rules first', () => {
    expect(() => validate('ingest', ['--source', 'yellowstone'])).toThrow(/--source yellowstone needs --yellowstone-url/);
  });
});
