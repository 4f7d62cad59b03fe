# Shared shell helpers for the real-VS-Code harness (sourced by run.sh and scripts/start.sh, not run directly).
# Everything lives under <repo>/.vscode-e2e/ (git-ignored); setup.sh fills node24/ and cs/.
# Every long-lived process is started with setsid, so it leads its own process group and `kill -- -PGID` stops the
# whole tree (code-server leaves a file watcher, an agent host and copilot-runtime behind otherwise).

E2E_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$E2E_HERE/../.." && pwd)
CACHE=${VSCODE_E2E_CACHE:-$REPO/.vscode-e2e}
NODE24_BIN=$CACHE/node24/node_modules/node/bin
CS_BIN=$CACHE/cs/node_modules/.bin/code-server
if [ -f "$REPO/node_modules/playwright-core/package.json" ]; then PLAYWRIGHT_CORE=$REPO/node_modules/playwright-core
else PLAYWRIGHT_CORE=$CACHE/pw/node_modules/playwright-core; fi
export PLAYWRIGHT_CORE
E2E_PGIDS=()   # process groups to stop on exit

e2e_ms() { date +%s%3N; }

# A free TCP port on 127.0.0.1 (the kernel picks it; a tiny race with other processes is acceptable here).
free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

# Compile src/ (tests, fake server) and package the extension (`npm run package`) into the .vsix path given as $1.
build_vsix() {
  local out=$1
  (cd "$REPO" && npx tsc -p .) || { echo "TypeScript compile failed (npx tsc -p .)" >&2; return 1; }
  (cd "$REPO" && npm run --silent package >/dev/null) && cp "$REPO/opencode-chat-provider.vsix" "$out"
}

# start_group NAME LOGFILE CMD... : runs CMD in a new session (its own process group), records the PGID.
start_group() {
  local name=$1 log=$2; shift 2
  setsid "$@" > "$log" 2>&1 < /dev/null &
  local pid=$!
  E2E_PGIDS+=("$pid")
  eval "${name}_PID=$pid"
}

# Stop every process group we started (TERM, then KILL after a grace period). Safe to call twice.
stop_groups() {
  local g alive=0
  for g in "${E2E_PGIDS[@]}"; do kill -TERM -- "-$g" 2>/dev/null && alive=1; done
  if [ $alive = 1 ]; then
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      alive=0; for g in "${E2E_PGIDS[@]}"; do kill -0 -- "-$g" 2>/dev/null && alive=1; done
      [ $alive = 0 ] && break; sleep 0.3
    done
    for g in "${E2E_PGIDS[@]}"; do kill -KILL -- "-$g" 2>/dev/null; done
  fi
  E2E_PGIDS=()
  return 0
}

# start_fake_server DIR [cli args...] : starts out/fakeServer/cli.js, sets FAKE_URL (…/v1) and FAKE_BASE (origin).
start_fake_server() {
  local dir=$1; shift
  [ -f "$REPO/out/fakeServer/cli.js" ] || { echo "fake server missing: out/fakeServer/cli.js (src/fakeServer not built?)" >&2; return 1; }
  start_group FAKE "$dir/fake-server.log" node "$REPO/out/fakeServer/cli.js" --port "$(free_port)" "$@"
  local i
  for i in $(seq 1 100); do
    FAKE_URL=$(sed -n 's/^FAKE_OPENCODE_URL=//p' "$dir/fake-server.log" | head -1)
    [ -n "$FAKE_URL" ] && break
    kill -0 "$FAKE_PID" 2>/dev/null || break
    sleep 0.1
  done
  [ -n "$FAKE_URL" ] || { echo "fake server did not start:" >&2; cat "$dir/fake-server.log" >&2; return 1; }
  FAKE_BASE=${FAKE_URL%/v1}
  export FAKE_URL FAKE_BASE
}

# Merge keys into a VS Code settings.json: merge_settings FILE '{"key":value,…}' (a null value deletes the key).
merge_settings() {
  node -e '
    const fs = require("fs"); const [file, patch] = process.argv.slice(1);
    let cur = {}; try { cur = JSON.parse(fs.readFileSync(file, "utf8")); } catch {}
    for (const [k, v] of Object.entries(JSON.parse(patch))) { if (v === null) delete cur[k]; else cur[k] = v; }
    fs.mkdirSync(require("path").dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(cur, null, 2) + "\n");' "$1" "$2"
}

# Settings every harness profile gets: no welcome page, no telemetry, no update or gallery chatter.
QUIET_SETTINGS='{"workbench.startupEditor":"none","telemetry.telemetryLevel":"off","update.mode":"none",
 "extensions.autoCheckUpdates":false,"extensions.autoUpdate":false,"security.workspace.trust.enabled":false,
 "workbench.enableExperiments":false,"workbench.tips.enabled":false}'

# code_server PROFILE ARGS... : runs code-server's CLI under Node 24 with HOME etc. inside PROFILE
# (code-server writes ~/.config/code-server and ~/.local/share/code-server even for --install-extension).
code_server() {
  local profile=$1; shift
  mkdir -p "$profile/home"
  env PATH="$NODE24_BIN:$PATH" HOME="$profile/home" XDG_CONFIG_HOME="$profile/home/.config" \
    XDG_DATA_HOME="$profile/home/.local/share" \
    "$CS_BIN" --config "$profile/cs-config.yaml" --user-data-dir "$profile/ud" --extensions-dir "$profile/ext" "$@"
}

# start_code_server PROFILE PORT WORKSPACE [ENV=VALUE…] -- [code-server args…]
# Env assignments before `--` reach the extension host (it inherits code-server's environment).
start_code_server() {
  local profile=$1 port=$2 ws=$3; shift 3
  local envs=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
  [ "${1:-}" = "--" ] && shift
  mkdir -p "$profile/home"
  cat > "$profile/cs-config.yaml" <<CFG
bind-addr: 127.0.0.1:$port
auth: none
cert: false
disable-telemetry: true
disable-update-check: true
disable-workspace-trust: true
disable-getting-started-override: true
CFG
  start_group CS "$profile/code-server.log" env "${envs[@]}" PATH="$NODE24_BIN:$PATH" HOME="$profile/home" \
    XDG_CONFIG_HOME="$profile/home/.config" XDG_DATA_HOME="$profile/home/.local/share" \
    "$CS_BIN" --config "$profile/cs-config.yaml" --user-data-dir "$profile/ud" --extensions-dir "$profile/ext" \
    "$@" "$ws"
  local i
  for i in $(seq 1 150); do
    curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && return 0
    kill -0 "$CS_PID" 2>/dev/null || break
    sleep 0.2
  done
  echo "code-server did not come up:" >&2; tail -30 "$profile/code-server.log" >&2; return 1
}
