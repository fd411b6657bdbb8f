#!/usr/bin/env bash
# Prints what an install depends on: the lock file's hash, the running Node's native-module ABI and the patches
# applied to dependencies at install (patches/, by patch-package: npm's postinstall).
# scripts/setup.sh writes it into node_modules after `npm ci`; scripts/ensure-installed.sh compares.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "lock $(sha256sum package-lock.json | cut -d' ' -f1)"
echo "abi $(node -p process.versions.modules)"
if compgen -G 'patches/*.patch' >/dev/null; then
  echo "patches $(cat patches/*.patch | sha256sum | cut -d' ' -f1)"
fi
