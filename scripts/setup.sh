# Installs what Skillcase needs on Debian 12, only what is missing, so it is safe to run again.
# Sourced by scripts/launch and scripts/test; run as root (or with sudo available).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TAURI_DRIVER_VERSION="2.1.0"
DEBIAN_PACKAGES=(
  libwebkit2gtk-4.1-dev build-essential curl libssl-dev librsvg2-dev libayatana-appindicator3-dev
  libxdo-dev webkit2gtk-driver xvfb locales postgresql libxml2-utils git
)

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
die() { printf '\033[31merror:\033[0m %s\n' "$*" >&2; exit 1; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    die "installing system packages needs root: run this command as root"
  fi
}

install_debian_packages() {
  local missing=()
  for pkg in "${DEBIAN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    step "Installing Debian packages: ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  fi
  generate_locales
}

# The window speaks the system language (WebKit reads it from the locale), so the e2e suite can
# run it in English and Brazilian Portuguese only when both locales exist.
generate_locales() {
  local wanted=(en_US pt_BR) missing=()
  for name in "${wanted[@]}"; do
    locale -a 2>/dev/null | grep -qi "^$name\.utf-\?8$" || missing+=("$name")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    step "Generating locales: ${missing[*]}"
    for name in "${missing[@]}"; do
      as_root sed -i "s/^# *$name.UTF-8 UTF-8/$name.UTF-8 UTF-8/" /etc/locale.gen
    done
    as_root locale-gen >/dev/null
  fi
}

check_toolchains() {
  command -v cargo >/dev/null || die "cargo not found: install Rust with rustup (https://rustup.rs)"
  command -v node >/dev/null || die "node not found: install Node.js 20.19 or newer"
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' \
    || die "Node.js $(node --version) is too old: Vite needs 20.19 or newer"
}

# npm ci only when the lock file changed since the last install.
npm_install() {
  local dir="$1"
  if [ ! -f "$dir/node_modules/.package-lock.json" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    step "Installing npm packages in ${dir#"$ROOT"/}"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

install_tauri_driver() {
  local bin="${CARGO_HOME:-$HOME/.cargo}/bin/tauri-driver"
  if [ ! -x "$bin" ] || ! cargo install --list | grep -q "^tauri-driver v$TAURI_DRIVER_VERSION:"; then
    step "Installing tauri-driver $TAURI_DRIVER_VERSION"
    cargo install tauri-driver --locked --version "$TAURI_DRIVER_VERSION"
  fi
}

build_ui() {
  step "Building the UI (ui/dist is embedded in the app binary)"
  npm --prefix "$ROOT/ui" run build --silent
}
