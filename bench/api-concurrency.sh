#!/usr/bin/env bash
# Concurrency on the local agent API: starts the release `skillcase serve` on a free loopback
# port with a throw-away data directory, then wrk (Debian's package) keeps CONNECTIONS clients
# busy for SECONDS on each scenario — open-case (a new case per request) and the before-send veto
# path (a veto recorded per request) — and prints wrk's latency distribution and throughput.
#
#   bench/api-concurrency.sh [CONNECTIONS=16] [SECONDS=20]
set -euo pipefail

connections="${1:-16}"
seconds="${2:-20}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }

cargo build --release -p skillcase-cli --bin skillcase

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
export SKILLCASE_TOKEN="$(cat "$data/api-token")"

threads=$(( connections < 2 ? connections : 2 ))
for scenario in open-case before-send-veto; do
  echo "== $scenario: $connections connections, ${seconds}s"
  wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency -s "$root/bench/wrk/$scenario.lua" "http://127.0.0.1:$port"
done
