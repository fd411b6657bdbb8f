#!/usr/bin/env bash
# Cores each process of a running `slotstream all` uses (engine, stream processes, ingest child, broker), over
# BENCH_SECONDS (40) after BENCH_WARMUP_S (15) from the moment it serves, with the tests' light broker
# (BENCH_BROKER=service: the broker `npm start` runs, G1 and both compilers).
#   bash bench/service-cpu.sh <label> [slotstream all options]
#   BENCH_BROKER=service BENCH_WARMUP_S=45 BENCH_SECONDS=60 bash bench/service-cpu.sh npm-start   # npm start's chain
#   bash bench/service-cpu.sh base --slot-ms 100 --tps 100          # the votes e2e's chain: 10 slots a second
#   PROJECTOR_BATCH_MS=200 bash bench/service-cpu.sh batch200 --slot-ms 100 --tps 100
# Prints one line: <label> engine=<cores> stream=<cores> ingest=<cores> broker=<cores> total=<cores>.
set -euo pipefail
label=${1:?usage: service-cpu.sh <label> [slotstream all options]}
shift
cd "$(dirname "$0")/.."
# The Node the install pinned (node_modules/.bin/node), as npm's scripts and bin/slotstream run.
export PATH="$(pwd)/node_modules/.bin:$PATH"
data=$(mktemp -d)
log=$(mktemp)
light=1
[ "${BENCH_BROKER:-light}" = service ] && light=0
SLOTSTREAM_KAFKA_LIGHT=$light node --max-semi-space-size=64 --import tsx cli/main.ts all --data-dir "$data" \
  --grpc-port 0 --rpc-port 0 --pubsub-port 0 --metrics-port 0 "$@" >"$log" 2>&1 &
pid=$!
trap 'kill -INT $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$data" "$log"' EXIT
until grep -aq '"api is serving"\|api is serving' "$log"; do
  kill -0 $pid 2>/dev/null || { echo "slotstream all exited before serving:" >&2; tail -5 "$log" >&2; exit 1; }
  sleep 0.5
done
sleep "${BENCH_WARMUP_S:-15}"
tree() { echo $pid; for c in $(pgrep -P $pid); do echo "$c"; pgrep -P "$c" || true; done; }
# pid and CPU ticks (user + system) of every process in the tree.
ticks() { for p in $(tree); do [ -r /proc/$p/stat ] && echo "$p $(awk '{print $14+$15}' /proc/$p/stat)"; done; }
role() {
  case "$(tr '\0' ' ' </proc/$1/cmdline 2>/dev/null)" in
    *java*) echo broker ;; *stream-worker*) echo stream ;; *ingest-child*) echo ingest ;; *cli/main.ts*) echo engine ;; *) echo other ;;
  esac
}
before=$(ticks)
seconds=${BENCH_SECONDS:-40}
sleep "$seconds"
after=$(ticks)
hz=$(getconf CLK_TCK)
declare -A cores
while read -r p b; do
  a=$(echo "$before" | awk -v p="$p" '$1 == p {print $2}')
  [ -z "$a" ] && continue
  r=$(role "$p")
  [ "$r" = other ] && continue
  cores[$r]=$(awk -v c="${cores[$r]:-0}" -v d=$((b - a)) -v s="$seconds" -v hz="$hz" 'BEGIN {printf "%.3f", c + d / hz / s}')
done <<<"$after"
total=0
out="$label"
for r in engine stream ingest broker; do
  out="$out $r=${cores[$r]:-0}"
  total=$(awk -v t="$total" -v c="${cores[$r]:-0}" 'BEGIN {printf "%.3f", t + c}')
done
echo "$out total=$total"
