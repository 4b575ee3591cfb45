#!/usr/bin/env bash
# Times the reference validator `skills-ref` (PyPI) against `skillcase validate --profile standard`
# on every skill folder of the shared corpus and prints the medians and two ratios.
#
# skillcase is always timed as a whole process (start-up included) over all the folders.
# skills-ref is timed two ways:
#   (a) loop only: its `validate()` called in a loop over the folders inside one Python process,
#       only the loop timed (interpreter start-up and imports excluded, in its favour);
#   (b) whole process: `python validate_all.py DIR...`, the way a script or CI step would run it
#       (interpreter start-up, import of skills_ref and the same loop).
# Each side runs RUNS times (default 7) in its own block after one warm-up; the medians of wall
# time and of CPU time (user+sys) are reported. On a shared, loaded machine the CPU ratio is the
# steadier figure. Runs interleaved with the other tool's would measure cold caches instead: each
# skillcase run right after a skills-ref loop costs 2-3x its steady-state CPU on this machine.
# The last lines say whether the 50x CPU target is met under each comparison.
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
(cd "$ROOT" && cargo build --quiet --release -p skillcase-cli --bin skillcase)
BIN="$ROOT/target/release/skillcase"

mapfile -t DIRS < <(find "$CORPUS" -mindepth 2 -maxdepth 2 -type d -exec test -f '{}/SKILL.md' ';' -print | sort)
echo "${#DIRS[@]} skill folders in $CORPUS" >&2

cat > "$VENV/validate_all.py" <<'PY'
"""skills-ref over every folder named on the command line, as one process; exit 1 if any is invalid."""
import sys
from pathlib import Path
from skills_ref.validator import validate

sys.exit(1 if sum(1 for d in sys.argv[1:] if validate(Path(d))) else 0)
PY

"$VENV/bin/python" - "$BIN" "$RUNS" "$VENV/bin/python" "$VENV/validate_all.py" "${DIRS[@]}" <<'PY'
import resource, statistics, subprocess, sys, time
from pathlib import Path
from skills_ref.validator import validate

binary, runs, python, script = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
dirs = [Path(d) for d in sys.argv[5:]]
TARGET = 50

def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime

def process_once(argv):
    wall, cpu = time.perf_counter(), children_cpu()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - wall, children_cpu() - cpu, done.returncode

def loop_once():
    wall, cpu = time.perf_counter(), time.process_time()
    invalid = sum(1 for d in dirs if validate(d))
    return time.perf_counter() - wall, time.process_time() - cpu, invalid

ours_argv = [binary, "validate", "--profile", "standard", *map(str, dirs)]
theirs_argv = [python, script, *map(str, dirs)]
# Each side runs as its own block after its own warm-up, so each is measured in its steady state
# (page cache and CPU caches holding what it reads) rather than right after the other one.
loop_once()
loop = [loop_once() for _ in range(runs)]
process_once(theirs_argv)
whole = [process_once(theirs_argv) for _ in range(runs)]
process_once(ours_argv)
ours = [process_once(ours_argv) for _ in range(runs)]
med = lambda rows, i: statistics.median(r[i] for r in rows)
ratio = lambda rows, i: med(rows, i) / max(med(ours, i), 1e-9)
ms = lambda rows: f"{med(rows, 0) * 1000:8.1f} ms {med(rows, 1) * 1000:8.1f} ms"
print(f"skill folders: {len(dirs)}; runs: {runs} each; medians")
print(f"{'':<54}{'wall':>11} {'cpu (user+sys)':>17}")
for label, rows, note in (
    ("(a) skills-ref validate() loop, imports excluded", loop, f"{loop[0][2]} invalid"),
    ("(b) skills-ref whole process (python+import+loop)", whole, f"exit {whole[0][2]}"),
    ("    skillcase validate, whole process", ours, f"exit {ours[0][2]}"),
):
    print(f"{label:<54}{ms(rows)}   ({note})")
for name, rows in (("(a) loop only", loop), ("(b) whole process", whole)):
    met = "met" if ratio(rows, 1) >= TARGET else "NOT met"
    print(f"ratio {name} / skillcase: wall {ratio(rows, 0):.1f}x, cpu {ratio(rows, 1):.1f}x"
          f"  -> {TARGET}x cpu target {met}")
PY
