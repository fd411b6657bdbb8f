#!/usr/bin/env bash
# Regenerates the TypeScript for both contracts: proto/ (public gRPC API) and schemas/ (Kafka records).
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf proto/gen schemas/gen
npx --no-install buf generate --template proto/buf.gen.yaml
npx --no-install buf generate --template schemas/buf.gen.yaml
