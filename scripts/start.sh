#!/usr/bin/env bash
# `npm start`: try the extension in a real VS Code (code-server 4.139.1 = VS Code 1.139.1) in your browser.
# Builds and packages the extension, installs it into a persistent dev profile (.vscode-e2e/dev/), and starts
# code-server on 127.0.0.1 (no password). Without OPENCODE_API_KEY it also starts the fake OpenAI-compatible server
# and points opencode.baseUrl at it; with OPENCODE_API_KEY set, the extension talks to the real OpenCode endpoint.
# Ctrl-C stops everything. Env: PORT (default 8765).
# Chat without GitHub Copilot: the Chat view is open when the page loads; `@opencode hello`, or a bare prompt for VS Code's agent.
# The first run installs code-server (2-3 min); setup.sh prints a progress line every 10 s meanwhile.
set -uo pipefail
# shellcheck source=vscode-e2e/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/vscode-e2e/lib.sh"
DEV=$CACHE/dev
PORT=${PORT:-8765}
SETTINGS=$DEV/ud/User/settings.json
FAKE_MARK=$DEV/fake-base-url   # the baseUrl we wrote for the fake server, so a later real-key run can remove it
# The workspace lives outside the clone: inside it, VS Code's Git finds the clone's repository "in the parent
# folders" and asks about it. OPENCODE_DEV_WORKSPACE overrides.
WS=${OPENCODE_DEV_WORKSPACE:-${XDG_CACHE_HOME:-$HOME/.cache}/opencode-chat-provider/dev-ws}

trap 'stop_groups' EXIT
trap 'echo; echo "[start] stopping"; exit 0' INT TERM

echo "[start] checking the real VS Code (code-server) in $CACHE; the first run installs it (2-3 min)"
bash "$E2E_HERE/setup.sh" || exit 1
mkdir -p "$WS"
[ -f "$WS/README.md" ] || echo "# OpenCode dev workspace" > "$WS/README.md"
echo "[start] building and packaging the extension"
build_vsix "$DEV/opencode.vsix" || exit 1

merge_settings "$SETTINGS" "$QUIET_SETTINGS"
# VS Code's own agent (a bare prompt) without a GitHub account: the chat setup then runs anonymously.
merge_settings "$SETTINGS" '{"chat.allowAnonymousAccess":true}'
if [ -z "${OPENCODE_API_KEY:-}" ]; then
  start_fake_server "$DEV" || exit 1
  merge_settings "$SETTINGS" "{\"opencode.baseUrl\":\"$FAKE_URL\"}"
  echo "$FAKE_URL" > "$FAKE_MARK"
  echo "[start] OPENCODE_API_KEY is not set: using the fake server at $FAKE_URL (log: $DEV/fake-server.log)"
else
  current=$(node -e 'try{console.log(require(process.argv[1])["opencode.baseUrl"]||"")}catch{console.log("")}' "$SETTINGS")
  if [ -f "$FAKE_MARK" ] && [ "$current" = "$(cat "$FAKE_MARK")" ]; then
    merge_settings "$SETTINGS" '{"opencode.baseUrl":null}'; rm -f "$FAKE_MARK"; current=
  fi
  echo "[start] OPENCODE_API_KEY is set: the extension uses ${current:-the OpenCode endpoint of opencode.preset}"
fi

code_server "$DEV" --install-extension "$DEV/opencode.vsix" --force > "$DEV/install.log" 2>&1 ||
  { cat "$DEV/install.log"; echo "[start] installing the .vsix failed"; exit 1; }
start_code_server "$DEV" "$PORT" "$WS" || exit 1
cat <<MSG

  VS Code (code-server) is running. Open this URL in your browser:   http://127.0.0.1:$PORT/?folder=$WS
  Chat: the chat view is already open; type "@opencode hello" there, or a bare prompt for VS Code's own agent with
        the picked model (no sign-in: chat.allowAnonymousAccess is set; Ctrl+Alt+I toggles, i.e. closes, the chat view).
  After a request: the status bar item "OpenCode …" (click it for the session report).
  Logs: command "OpenCode: Show Log"; on disk $DEV/ud/logs/<session>/exthost<N>/opencode-community.opencode-chat-provider/OpenCode.log;
        server log $DEV/code-server.log.   Ctrl-C stops everything.

MSG
wait "$CS_PID"
echo "[start] code-server exited; see $DEV/code-server.log"
