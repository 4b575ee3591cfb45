#!/usr/bin/env bash
# Times the reference validator `skills-ref` (PyPI) against `skillcase validate --profile standard`
# on every skill folder of the shared corpus and prints both medians and the ratio.
#
# skills-ref runs in ONE Python process: its `validate()` is called in a loop over the folders and
# only the loop is timed (interpreter start-up and imports excluded, in its favour). skillcase is
# timed as a whole process (start-up included) over the same folders. Each side runs RUNS times
# (default 7) after one warm-up; the median is reported.
#
# Usage: bench/validate-vs-skills-ref.sh   (env: CORPUS=path RUNS=n)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=$(cd "${CORPUS:-$ROOT/../shared/corpus}" && pwd)
RUNS=${RUNS:-7}
VENV=$(mktemp -d /tmp/skills-ref-venv.XXXXXX)
trap 'rm -rf "$VENV"' EXIT

echo "installing skills-ref into a throw-away venv ($VENV)..." >&2
python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet skills-ref
echo "building skillcase (release)..." >&2
(cd "$ROOT" && cargo build --quiet --release -p skillcase-core --bin skillcase)
BIN="$ROOT/target/release/skillcase"

mapfile -t DIRS < <(find "$CORPUS" -mindepth 2 -maxdepth 2 -type d -exec test -f '{}/SKILL.md' ';' -print | sort)
echo "${#DIRS[@]} skill folders in $CORPUS" >&2

"$VENV/bin/python" - "$BIN" "$RUNS" "${DIRS[@]}" <<'PY'
import statistics, subprocess, sys, time
from pathlib import Path
from skills_ref.validator import validate

binary, runs, dirs = sys.argv[1], int(sys.argv[2]), [Path(d) for d in sys.argv[3:]]

def skills_ref_once():
    start = time.perf_counter()
    invalid = sum(1 for d in dirs if validate(d))
    return time.perf_counter() - start, invalid

def skillcase_once():
    start = time.perf_counter()
    done = subprocess.run([binary, "validate", "--profile", "standard", *map(str, dirs)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, done.returncode

skills_ref_once(); skillcase_once()  # warm-up (page cache, imports)
ref = [skills_ref_once() for _ in range(runs)]
ours = [skillcase_once() for _ in range(runs)]
ref_median = statistics.median(t for t, _ in ref)
our_median = statistics.median(t for t, _ in ours)
print(f"skills folders:            {len(dirs)}")
print(f"skills-ref (in-process):   {ref_median * 1000:8.1f} ms median of {runs}  ({ref[0][1]} invalid)")
print(f"skillcase validate (proc): {our_median * 1000:8.1f} ms median of {runs}  (exit {ours[0][1]})")
print(f"ratio:                     {ref_median / our_median:8.1f}x faster")
PY
