#!/usr/bin/env bash
# The installable app, as a user gets it: builds the .deb with `scripts/package --debug` (the debug
# build scripts/test already made, so only the bundling is new work), installs it with apt, checks
# the installed files, starts /usr/bin/skillcase-app once under its own Xvfb with a temporary data
# directory and API port, and waits until its local API answers with the token it wrote and its
# window titled Skillcase is mapped. Then it stops the app and removes the package again (--keep
# leaves it installed). Fails, printing the app's output, when the app is not up within 60 s.
#
#   tests/package/installed_app.sh [--keep] [--deb FILE]   (--deb: install FILE, skip packaging)
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/setup.sh"

PACKAGE=skillcase
BINARY=/usr/bin/skillcase-app
UP_WITHIN=60
keep=0
deb=""
while [ $# -gt 0 ]; do
  case "$1" in
    --keep) keep=1 ;;
    --deb) deb="$(realpath "${2:?--deb needs a file}")"; shift ;;
    *) die "unknown argument: $1 (usage: tests/package/installed_app.sh [--keep] [--deb FILE])" ;;
  esac
  shift
done

DEBIAN_PACKAGES+=(x11-utils) # xwininfo, to see the window
install_debian_packages

if [ -z "$deb" ]; then
  "$ROOT/scripts/package" --debug
  deb=$(ls -t "$ROOT"/target/debug/bundle/deb/*.deb | head -n 1)
fi
[ -f "$deb" ] || die "no .deb to install: $deb"

work=$(mktemp -d /tmp/skillcase-installed-XXXXXX)
app_pid="" xvfb_pid=""
cleanup() {
  local status=$?
  [ -n "$app_pid" ] && kill -KILL -- "-$app_pid" 2>/dev/null
  [ -n "$xvfb_pid" ] && kill -KILL "$xvfb_pid" 2>/dev/null
  wait 2>/dev/null
  if [ "$keep" -eq 0 ] && dpkg-query -W -f='${Status}' "$PACKAGE" 2>/dev/null | grep -q "install ok installed"; then
    as_root env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq "$PACKAGE" >/dev/null || status=1
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT

step "Installing ${deb#"$ROOT"/}"
# apt resolves the package's Depends (WebKitGTK, GTK); --reinstall replaces an installed copy of
# the same version, so the binary checked is the one just built.
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --reinstall "$deb" >/dev/null
dpkg-query -W -f='${Package} ${Version} ${Status}\n' "$PACKAGE"
files=$(dpkg -L "$PACKAGE")
for wanted in "$BINARY" /usr/share/applications/Skillcase.desktop /usr/share/icons/hicolor/256x256/apps/skillcase-app.png; do
  grep -qx "$wanted" <<<"$files" || die "the package does not install $wanted; it installs:"$'\n'"$files"
done
[ "$(command -v skillcase-app)" = "$BINARY" ] || die "skillcase-app on PATH is '$(command -v skillcase-app)', not $BINARY"
grep -q "^Exec=skillcase-app" /usr/share/applications/Skillcase.desktop \
  || die "the desktop entry does not start skillcase-app: $(cat /usr/share/applications/Skillcase.desktop)"

step "Starting the installed $BINARY under Xvfb"
exec 3>"$work/display"
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 2>"$work/xvfb.log" &
xvfb_pid=$!
exec 3>&-
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
[ -s "$work/display" ] || die "Xvfb reported no display within 10 s: $(cat "$work/xvfb.log")"
display=":$(head -n 1 "$work/display")"
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
mkdir -p "$work/home" "$work/data"
# A home and working folder of its own, outside any checkout, as a user's first start would be.
(cd "$work/home" && exec setsid env HOME="$work/home" DISPLAY="$display" SKILLCASE_DATA_DIR="$work/data" \
  SKILLCASE_API_PORT="$port" LIBGL_ALWAYS_SOFTWARE=1 WEBKIT_SKIA_ENABLE_CPU_RENDERING=1 NO_AT_BRIDGE=1 "$BINARY" >"$work/app.log" 2>&1) &
app_pid=$!

fail() { die "$1"$'\n'"--- the app's output ---"$'\n'"$(cat "$work/app.log")"; }
deadline=$((SECONDS + UP_WITHIN))
api=0 window=0
while [ "$SECONDS" -lt "$deadline" ]; do
  kill -0 "$app_pid" 2>/dev/null || fail "the installed app exited before it was up"
  if [ "$api" -eq 0 ] && [ -s "$work/data/api-token" ]; then
    answer=$(curl -sS --max-time 5 -H "Authorization: Bearer $(cat "$work/data/api-token")" \
      "http://127.0.0.1:$port/v1/openapi.json" 2>/dev/null || true)
    grep -q '"openapi"' <<<"$answer" && api=1
  fi
  if [ "$window" -eq 0 ]; then
    tree=$(DISPLAY="$display" xwininfo -root -tree 2>/dev/null || true)
    grep -q '"Skillcase"' <<<"$tree" && window=1
  fi
  [ "$api" -eq 1 ] && [ "$window" -eq 1 ] && break
  sleep 0.5
done
[ "$api" -eq 1 ] || fail "the local API did not answer on 127.0.0.1:$port within $UP_WITHIN s"
[ "$window" -eq 1 ] || fail "no window titled Skillcase appeared within $UP_WITHIN s"
echo "up after $((SECONDS + UP_WITHIN - deadline)) s: GET /v1/openapi.json answered on 127.0.0.1:$port, window \"Skillcase\" mapped on $display"
kill -0 "$app_pid" 2>/dev/null || fail "the installed app exited right after starting"
