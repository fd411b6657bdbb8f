// GetVersion (behaviour.md "Unary calls"): a JSON string with the package name and version, the proto
// contract version, the git commit (when the source tree is a git checkout) and the host name.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';

/** Version of proto/stream.proto; bump on any change of the public contract. */
export const PROTO_VERSION = '1.0.0';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function gitCommit(): string {
  if (process.env.SLOTSTREAM_GIT_COMMIT) return process.env.SLOTSTREAM_GIT_COMMIT;
  try {
    return (
      execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'], timeout: 2_000 })
        .toString()
        .trim() || 'unknown'
    );
  } catch {
    return 'unknown';
  }
}

export interface VersionInfo {
  version: { package: string; version: string; proto: string; git: string };
  extra: { hostname: string };
}

export function versionInfo(): VersionInfo {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
  return {
    version: { package: pkg.name, version: pkg.version, proto: PROTO_VERSION, git: gitCommit() },
    extra: { hostname: hostname() },
  };
}

let cached: string | undefined;

/** The GetVersion string, computed once per process. */
export function versionString(): string {
  return (cached ??= JSON.stringify(versionInfo()));
}
