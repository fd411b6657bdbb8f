// The registry this project installs from carries only the linux-x64 builds of packages that ship
// per-platform binaries (buf, chdb), so `npm install` leaves the other platforms' optional
// packages out of package-lock.json and `npm ci` then refuses the lockfile as out of sync.
// This adds those entries back with their os/cpu, so npm ci skips them on every machine they don't fit.
// Run it after every `npm install`: `node scripts/lock-optional.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const pkgs = lock.packages;
const platformOf = (name) => ({
  os: ['darwin', 'win32', 'linux', 'freebsd'].filter((o) => name.includes(o)),
  cpu: name.includes('arm64') ? ['arm64'] : name.includes('x64') ? ['x64'] : name.includes('armv7') ? ['arm'] : [],
});
let added = 0;
for (const [path, meta] of Object.entries(pkgs)) {
  for (const [dep, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const nested = `${path ? path + '/' : ''}node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (pkgs[nested] || pkgs[hoisted]) continue;
    const { os, cpu } = platformOf(dep.split('/').pop());
    if (os.length === 0) continue;
    pkgs[hoisted] = { version, ...(meta.dev ? { dev: true } : {}), optional: true, os, ...(cpu.length ? { cpu } : {}) };
    added++;
  }
}
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`lock-optional: added ${added} platform entries`);
