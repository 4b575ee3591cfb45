#!/usr/bin/env bash
# Load on the local agent API: starts `skillcase serve` (release build) on a free loopback port
# with a throw-away data directory, drives before-send and open-case at a fixed rate each for a
# bounded time (benches/api_load.rs), prints throughput and p50/p90/p99 latency, and stops the
# server. Loopback only; the run stops by itself.
#
#   bench/api-load.sh [RATE_PER_SCENARIO=100] [SECONDS=30]
set -euo pipefail

rate="${1:-100}"
seconds="${2:-30}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

cargo build --release -p skillcase-cli --bin skillcase
cargo bench -p skillcase-api --bench api_load --no-run

data="$(mktemp -d)"
out="$data/serve.out"
SKILLCASE_DATA_DIR="$data" "$root/target/release/skillcase" serve --port 0 >"$out" 2>"$data/serve.err" &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$data"' EXIT

for _ in $(seq 1 100); do
  grep -q '^listening on ' "$out" && break
  sleep 0.1
done
port="$(sed -n 's|^listening on http://127.0.0.1:\([0-9]*\)$|\1|p' "$out")"
[ -n "$port" ] || { echo "skillcase serve did not start:" >&2; cat "$data/serve.err" >&2; exit 1; }
token="$(cat "$data/api-token")"

echo "skillcase serve on 127.0.0.1:$port; $rate requests/s per scenario for ${seconds}s"
cargo bench -p skillcase-api --bench api_load -- --port "$port" --token "$token" --rate "$rate" --duration "$seconds"
