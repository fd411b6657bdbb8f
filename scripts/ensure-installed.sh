#!/usr/bin/env bash
# npm's prestart/pretest step: runs scripts/setup.sh when node_modules is missing, was installed from another
# package-lock.json, or was built for another Node (native-module ABI), so `npm start` and `npm test` are the only
# two commands a fresh clone needs. Costs a few milliseconds when everything is in place.
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=node_modules/.slotstream-install
if [ -f "$stamp" ] && [ "$(bash scripts/install-stamp.sh)" = "$(cat "$stamp")" ]; then
  exit 0
fi
if [ -f "$stamp" ]; then
  echo "slotstream: package-lock.json or the Node version changed since the last install; installing again" >&2
else
  echo "slotstream: first run, installing dependencies (scripts/setup.sh; a few minutes)" >&2
fi
exec bash scripts/setup.sh
