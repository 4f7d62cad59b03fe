#!/usr/bin/env bash
# `npm run test:vscode`: the extension's end-to-end suite in a REAL VS Code (code-server 4.139.1 = VS Code 1.139.1).
#  1. setup.sh (cached in .vscode-e2e/), build + package the .vsix, install it into a fresh profile;
#  2. start the fake OpenAI-compatible server and point opencode.baseUrl at it (settings.json);
#  3. start code-server (loopback, no auth, smoke-test driver on) and run out/e2e/index.js inside its extension host;
#  4. type two `@opencode` turns into the real chat view, then an image for a text-only model (chat-ui.cjs);
#  4a. 10-turn @opencode chats on each route (chat-session.cjs);
#  4b. paste into the chat for @opencode, read the status bar item and the session report (report-ui.cjs);
#  4c. VS Code's own agent with OpenCode models (agent-chat.cjs; chat.allowAnonymousAccess, no sign-in);
#  5. copy the OpenCode logs and screenshots to .artifacts/vscode/; stop every process group it started.
# Last line of output: `N passed, N failed`. Exit code 0 only when everything passed.
# Debugging knobs: E2E_VSIX (skip the build: test this .vsix with the out/ already compiled), E2E_TESTS (another
#   test module), E2E_SKIP_CHAT=1, E2E_SKIP_SESSION=1, E2E_SKIP_REPORT=1, E2E_SKIP_AGENT=1, E2E_SKIP_PICKER=1, OPENCODE_E2E_GREP (only the in-host tests whose title matches), E2E_PORT.
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
source "$HERE/lib.sh"
RUN=$CACHE/run
ART=$REPO/.artifacts/vscode
T0=$(e2e_ms)
phase() { echo "[test:vscode +$(( ($(e2e_ms) - T0) / 1000 ))s] $*"; }

collect() {
  mkdir -p "$ART"
  local f n=0
  while IFS= read -r f; do
    n=$((n + 1)); cp "$f" "$ART/$(echo "${f#"$RUN"/ud/logs/}" | tr '/' '_')"
  done < <(find "$RUN/ud/logs" -name '*OpenCode.log' 2>/dev/null)
  cp "$RUN"/*.png "$ART/" 2>/dev/null; cp "$RUN"/agent-requests.json "$ART/" 2>/dev/null
  cp "$RUN"/in-host.log "$RUN"/chat-ui.log "$RUN"/chat-session.log "$RUN"/report-ui.log "$RUN"/agent-chat.log "$RUN"/picker-ui.log "$RUN"/fake-server.log "$RUN"/code-server.log "$ART/" 2>/dev/null
  phase "artifacts: $n OpenCode log file(s) and screenshots in ${ART#"$REPO"/}/"
}
COLLECTED=
cleanup() {
  stop_groups
  [ -n "$COLLECTED" ] || [ ! -d "$RUN" ] || collect
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# A step before the tests failed: clean up, then the closing line (always the last line).
abort() {
  echo "$1"; stop_groups; [ ! -d "$RUN" ] || collect; COLLECTED=1
  echo "0 passed, 1 failed"; exit 1
}

rm -rf "$RUN" "$ART"; mkdir -p "$RUN/ws" "$RUN/dev-ext" "$ART"
echo "# scratch workspace for the OpenCode e2e suite" > "$RUN/ws/README.md"
phase "setup"
bash "$HERE/setup.sh" || abort "setup failed"

phase "build + package"
VSIX=${E2E_VSIX:-$RUN/opencode.vsix}
if [ -z "${E2E_VSIX:-}" ]; then
  build_vsix "$VSIX" || abort "build/package failed"
fi

phase "fake server + profile"
start_fake_server "$RUN" || abort "fake server failed"
merge_settings "$RUN/ud/User/settings.json" "$QUIET_SETTINGS"
merge_settings "$RUN/ud/User/settings.json" "{\"opencode.baseUrl\":\"$FAKE_URL\"}"
[ -f "$VSIX" ] || abort "no .vsix at $VSIX"
code_server "$RUN" --install-extension "$VSIX" > "$RUN/install.log" 2>&1 || { cat "$RUN/install.log"; abort "installing the .vsix failed"; }
grep -v "Wrote default config" "$RUN/install.log"
# An empty extension as extensionDevelopmentPath: the installed .vsix is what gets tested, not the source tree.
echo '{"name":"e2e-host","publisher":"opencode-e2e","version":"0.0.0","private":true,"engines":{"vscode":"^1.104.0"}}' \
  > "$RUN/dev-ext/package.json"

PORT=${E2E_PORT:-$(free_port)}
phase "code-server on 127.0.0.1:$PORT"
# The extension host inherits THIS environment: the tests learn the fake server and the logs folder from it, and
# OPENCODE_API_KEY is removed so the missing-key test sees no key.
start_code_server "$RUN" "$PORT" "$RUN/ws" -u OPENCODE_API_KEY OPENCODE_E2E_FAKE_URL="$FAKE_URL" \
  OPENCODE_E2E_LOGS="$RUN/ud/logs" OPENCODE_E2E_GREP="${OPENCODE_E2E_GREP:-}" \
  -- --vscode-option enable-smoke-test-driver || abort "code-server failed"

phase "tests in the extension host"
start_group RUNNER "$RUN/in-host.log" env BASE="http://127.0.0.1:$PORT" FOLDER="$RUN/ws" EXT_DEV="$RUN/dev-ext" \
  TESTS="${E2E_TESTS:-$REPO/out/e2e/index.js}" SHOT="$RUN/in-host.png" node "$HERE/run-in-host.cjs"
wait "$RUNNER_PID"; host_rc=$?
# Test lines (with the detail under each failure); the in-host closing line is folded into the final one.
awk '/^not ok - /{d=1; print; next} d && /^    /{print; next} {d=0}
     /^[0-9]+ passed, [0-9]+ failed$/{print "# in-host: " $0; next}
     /^(ok - |# |\[run-in-host\]|[0-9]+ pending)/{print}' "$RUN/in-host.log"
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$RUN/in-host.log" | tail -1)
if [ -n "$summary" ]; then passed=${summary%% passed*}; failed=$(echo "$summary" | sed 's/.*, \([0-9]*\) failed/\1/')
else passed=0; failed=1; echo "not ok - in-host tests did not finish (exit $host_rc); see ${ART#"$REPO"/}/in-host.log"; fi
[ "$host_rc" = 0 ] || [ "$failed" != 0 ] || failed=1

# One browser script as a step: its `ok - ` / `not ok - ` lines (and `# ` figures) are printed and counted; an exit
# code other than 0 without a `not ok` line counts as one failure. browser_step LOG TITLE SCRIPT [ENV=VALUE…]
browser_step() {
  local log=$1 title=$2 script=$3 rc p f; shift 3
  phase "$title"
  start_group STEP "$log" env URL="http://127.0.0.1:$PORT/?folder=$RUN/ws" FAKE_BASE="$FAKE_BASE" "$@" node "$HERE/$script"
  wait "$STEP_PID"; rc=$?
  grep -E '^(ok|not ok) - |^# ' "$log"
  p=$(grep -c '^ok - ' "$log"); f=$(grep -c '^not ok - ' "$log")
  [ "$rc" = 0 ] || [ "$f" != 0 ] || f=1
  passed=$((passed + p)); failed=$((failed + f))
}
PROFILE_ENV=(LOGS="$RUN/ud/logs" SETTINGS="$RUN/ud/User/settings.json" SHOT_DIR="$RUN")
[ "${E2E_SKIP_CHAT:-}" = 1 ] || browser_step "$RUN/chat-ui.log" "chat view: two @opencode turns" chat-ui.cjs SHOT="$RUN/chat.png" FOLDER="$RUN/ws"
[ "${E2E_SKIP_SESSION:-}" = 1 ] || browser_step "$RUN/chat-session.log" "chat sessions: 10 @opencode turns per route" \
  chat-session.cjs "${PROFILE_ENV[@]}" FOLDER="$RUN/ws"
[ "${E2E_SKIP_REPORT:-}" = 1 ] || browser_step "$RUN/report-ui.log" "report: paste for @opencode, status bar, session report" \
  report-ui.cjs "${PROFILE_ENV[@]}"
[ "${E2E_SKIP_PICKER:-}" = 1 ] || browser_step "$RUN/picker-ui.log" "model picker: OpenCode Go and Zen at once" \
  picker-ui.cjs "${PROFILE_ENV[@]}"
# Last: it turns on chat.allowAnonymousAccess in the profile (the steps before run without it).
[ "${E2E_SKIP_AGENT:-}" = 1 ] || browser_step "$RUN/agent-chat.log" "VS Code's agent: bare prompts with OpenCode models" \
  agent-chat.cjs "${PROFILE_ENV[@]}"

stop_groups
collect; COLLECTED=1
phase "done"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
