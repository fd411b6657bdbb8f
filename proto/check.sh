#!/usr/bin/env bash
# Contract checks run by CI: lint, no breaking change against the frozen image of the contracts,
# and the committed generated code equals a fresh generation.
set -euo pipefail
cd "$(dirname "$0")/.."
npx --no-install buf lint
# proto/contract-image.binpb is the contract as first frozen (buf build -o ...). A changed field number
# or type fails here. Extending the contract (new fields, new messages) passes; refresh the image then.
npx --no-install buf breaking --against proto/contract-image.binpb
bash scripts/proto-gen.sh
if ! git diff --quiet --exit-code -- proto/gen schemas/gen || [ -n "$(git ls-files --others --exclude-standard proto/gen schemas/gen)" ]; then
  echo "generated code is stale: run 'bash scripts/proto-gen.sh' and commit proto/gen and schemas/gen" >&2
  git --no-pager diff --stat -- proto/gen schemas/gen >&2
  exit 1
fi
echo "proto checks passed"
