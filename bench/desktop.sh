#!/usr/bin/env bash
# The desktop benchmark in one command (after the README's set-up): builds the release app, the
# blank Tauri window and the CLI, then measures both windows side by side (bench/desktop/run.mjs).
# Settings: STARTS, PRESSES, IDLE_SECS, WORK_MINUTES, PHASES (see run.mjs; all phases by default:
# about an hour and a half, of which the working hour is one).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
command -v sqlite3 >/dev/null || apt-get install -y --no-install-recommends sqlite3
[ -d tests/e2e/node_modules ] || npm --prefix tests/e2e ci --no-audit --no-fund
[ -d ui/node_modules ] || npm --prefix ui ci --no-audit --no-fund
npm --prefix ui run build
cargo build --release -p skillcase-app -p skillcase-cli -p skillcase-blank-window --bins
exec node bench/desktop/run.mjs
