#!/usr/bin/env bash
# Seeds the fuzz corpora from the shared real-skill corpus, so the fuzzers start from inputs that
# reach deep into the parsers instead of from random bytes: every SKILL.md for `frontmatter`, and
# every skill folder zipped (deflated, and stored, with and without its top folder) for
# `zip_inspect`. The seeds are written under fuzz/corpus/ (git-ignored), never into the repository.
#
# Usage: fuzz/seed.sh   (env: CORPUS=path to the shared corpus)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=$(cd "${CORPUS:-$ROOT/../shared/corpus}" && pwd)
mkdir -p "$ROOT/fuzz/corpus/frontmatter" "$ROOT/fuzz/corpus/zip_inspect"

python3 - "$CORPUS" "$ROOT/fuzz/corpus" <<'PY'
import hashlib, io, sys, zipfile
from pathlib import Path

corpus, out = Path(sys.argv[1]), Path(sys.argv[2])

def save(kind, data):
    (out / kind / hashlib.sha1(data).hexdigest()).write_bytes(data)

def zipped(skill, method, top_folder):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        for f in sorted(p for p in skill.rglob("*") if p.is_file()):
            rel = f.relative_to(skill).as_posix()
            z.write(f, f"{skill.name}/{rel}" if top_folder else rel)
    return buf.getvalue()

skills = sorted(p.parent for p in corpus.glob("*/*/SKILL.md"))
for skill in skills:
    save("frontmatter", (skill / "SKILL.md").read_bytes())
    size = sum(f.stat().st_size for f in skill.rglob("*") if f.is_file())
    if size <= 256 * 1024:  # small packages keep each fuzz run fast
        save("zip_inspect", zipped(skill, zipfile.ZIP_DEFLATED, True))
        save("zip_inspect", zipped(skill, zipfile.ZIP_STORED, False))
print(f"seeded from {len(skills)} skills:",
      *(f"{k} {len(list((out / k).iterdir()))} files" for k in ("frontmatter", "zip_inspect")))
PY
