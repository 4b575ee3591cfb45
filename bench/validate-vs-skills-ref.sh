#!/usr/bin/env bash
# Times the reference validator `skills-ref` (PyPI) against `skillcase validate --profile standard`
# on every skill folder of the shared corpus and prints both medians and the ratio.
#
# skills-ref runs in ONE Python process: its `validate()` is called in a loop over the folders and
# only the loop is timed (interpreter start-up and imports excluded, in its favour). skillcase is
# timed as a whole process (start-up included) over the same folders. Each side runs RUNS times
# (default 7) after one warm-up; the medians of wall time and of CPU time (user+sys) are reported.
# On a shared, loaded machine the CPU ratio is the steadier figure.
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
import resource, statistics, subprocess, sys, time
from pathlib import Path
from skills_ref.validator import validate

binary, runs, dirs = sys.argv[1], int(sys.argv[2]), [Path(d) for d in sys.argv[3:]]

def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime

def skills_ref_once():
    wall, cpu = time.perf_counter(), time.process_time()
    invalid = sum(1 for d in dirs if validate(d))
    return time.perf_counter() - wall, time.process_time() - cpu, invalid

def skillcase_once():
    wall, cpu = time.perf_counter(), children_cpu()
    done = subprocess.run([binary, "validate", "--profile", "standard", *map(str, dirs)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - wall, children_cpu() - cpu, done.returncode

skills_ref_once(); skillcase_once()  # warm-up (page cache, imports)
ref = [skills_ref_once() for _ in range(runs)]
ours = [skillcase_once() for _ in range(runs)]
med = lambda rows, i: statistics.median(r[i] for r in rows)
print(f"skill folders: {len(dirs)}; runs: {runs} each; medians")
print(f"                              wall        cpu (user+sys)")
print(f"skills-ref (one process): {med(ref, 0) * 1000:8.1f} ms {med(ref, 1) * 1000:8.1f} ms   ({ref[0][2]} invalid)")
print(f"skillcase validate:       {med(ours, 0) * 1000:8.1f} ms {med(ours, 1) * 1000:8.1f} ms   (exit {ours[0][2]})")
print(f"ratio (skills-ref / skillcase): wall {med(ref, 0) / med(ours, 0):.1f}x, cpu {med(ref, 1) / max(med(ours, 1), 1e-9):.1f}x")
PY
