import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileInsertQuery, sweepBodyFolders } from './row-binary-insert.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('insert body folders', () => {
  it("removes the folders (and bodies) of processes that are gone, keeps the living ones' and other files", () => {
    const base = mkdtempSync(join(tmpdir(), 'rb-sweep-'));
    dirs.push(base);
    // A pid that was alive a moment ago and is not now: a child that has exited.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    const dead = join(base, `slotstream-insert-${gone}-abc`);
    mkdirSync(dead);
    writeFileSync(join(dead, `${gone}-7.rowbinary`), Buffer.alloc(16));
    const mine = join(base, `slotstream-insert-${process.pid}-def`);
    mkdirSync(mine);
    const other = join(base, 'something-else');
    mkdirSync(other);

    expect(sweepBodyFolders(base)).toEqual([`slotstream-insert-${gone}-abc`]);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(mine)).toBe(true);
    expect(existsSync(other)).toBe(true);
  });

  it('a missing base folder is nothing to sweep', () => {
    expect(sweepBodyFolders(join(tmpdir(), 'rb-sweep-none-' + process.pid))).toEqual([]);
  });
});

describe('the embedded insert statement', () => {
  it('names the file, the columns and the settings, and refuses an identifier that is not one', () => {
    expect(fileInsertQuery({ table: 'db.t', columns: ['a', 'b'], body: Buffer.alloc(0), settings: { async_insert: 0 } }, "/x/it's")).toBe(
      "INSERT INTO db.t (a, b) FROM INFILE '/x/it\\'s' SETTINGS async_insert = 0 FORMAT RowBinary",
    );
    expect(() => fileInsertQuery({ table: 't; DROP', columns: ['a'], body: Buffer.alloc(0) }, '/x')).toThrow(/invalid identifier/);
  });
});
