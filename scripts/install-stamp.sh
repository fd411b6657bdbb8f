#!/usr/bin/env bash
# Prints what an install depends on: the lock file's hash and the running Node's native-module ABI.
# scripts/setup.sh writes it into node_modules after `npm ci`; scripts/ensure-installed.sh compares.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "lock $(sha256sum package-lock.json | cut -d' ' -f1)"
echo "abi $(node -p process.versions.modules)"
