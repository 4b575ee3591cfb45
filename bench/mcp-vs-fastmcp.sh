#!/usr/bin/env bash
# Skillcase's MCP server against FastMCP's reference skills server (its SkillsDirectoryProvider,
# Python) on the same folder of 1,000 generated skills (3,000 files), both over stdio, timed by
# the same client (bench/mcp/client.py: plain JSON-RPC, protocol 2026-07-28, one request at a time,
# each a whole round trip):
#   list — every skill with skills/list, following nextCursor (Skillcase pages 200, FastMCP one page);
#   read — every file of every skill with resources/read, each checked against its manifest size.
# Each server runs RUNS times (default 7), a fresh process each run, after one untimed warm-up run
# (Skillcase's first run records the 1,000 skills in its data directory; FastMCP reads the folder
# at start-up every run). Start-up is not timed for either. Prints the medians and the ratios; the
# goal is Skillcase at least 10x faster on both.
#
# Usage: bench/mcp-vs-fastmcp.sh   (env: RUNS=n SKILLS=n)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-7}
SKILLS=${SKILLS:-1000}
WORK=$(mktemp -d /tmp/mcp-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

echo "installing fastmcp into a throw-away venv..." >&2
python3 -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install --quiet --disable-pip-version-check -r "$ROOT/crates/cli/tests/mcp-clients/requirements.txt"
PY="$WORK/venv/bin/python"
echo "building skillcase (release)..." >&2
(cd "$ROOT" && cargo build --quiet --release -p skillcase-cli --bin skillcase)
BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/skillcase"

"$PY" "$ROOT/bench/mcp/generate_skills.py" "$WORK/skills" "$SKILLS"
echo "$SKILLS skills in $WORK/skills" >&2
export SKILLCASE_DATA_DIR="$WORK/data"
export SKILLCASE_CATALOG_DIR=""   # the generated folder only: no factory catalog beside it

skillcase() { "$PY" "$ROOT/bench/mcp/client.py" "$BIN" mcp --skills-dir "$WORK/skills"; }
fastmcp() { "$PY" "$ROOT/bench/mcp/client.py" "$PY" "$ROOT/bench/mcp/fastmcp_server.py" "$WORK/skills"; }

for side in skillcase fastmcp; do
  "$side" > /dev/null
  for _ in $(seq "$RUNS"); do "$side"; done > "$WORK/$side.jsonl"
done

"$PY" - "$WORK/skillcase.jsonl" "$WORK/fastmcp.jsonl" <<'PY'
import json, statistics, sys
runs = [[json.loads(line) for line in open(path)] for path in sys.argv[1:]]
(ours, theirs) = runs
assert {(r["skills"], r["files"]) for r in ours} == {(r["skills"], r["files"]) for r in theirs}, "both served the same"
print(f"{ours[0]['skills']} skills, {ours[0]['files']} files, {len(ours)} runs each (medians)")
for key, label in (("list_s", "list all skills"), ("read_s", "read every file")):
    a = statistics.median(r[key] for r in ours)
    b = statistics.median(r[key] for r in theirs)
    verdict = "met" if b / a >= 10 else "NOT met"
    print(f"{label:16} skillcase {a * 1000:9.1f} ms   fastmcp {b * 1000:9.1f} ms   {b / a:6.1f}x  (10x goal {verdict})")
PY
