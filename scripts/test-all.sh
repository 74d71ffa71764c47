#!/usr/bin/env bash
# Every check, in the order that fails fastest: lint, unit + integration tests, a whole-repo
# typecheck, the production build, then the e2e suite in headless Chromium.
# Installs Debian's Chromium when none is found (Playwright's own browser download is not reachable),
# and Debian's bubblewrap and strace: every stdio server the web app inspects runs in a bubblewrap
# sandbox, and strace records what it tried (the sandbox tests need both).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1 # offline: nothing may call out
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"

if [ -z "${CHROMIUM_PATH:-}" ]; then
  for candidate in /usr/bin/chromium /usr/bin/chromium-browser; do
    if [ -x "$candidate" ]; then export CHROMIUM_PATH="$candidate"; break; fi
  done
fi
if [ -z "${CHROMIUM_PATH:-}" ]; then
  echo "test-all: no Chromium found; installing Debian's chromium package"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
  export CHROMIUM_PATH=/usr/bin/chromium
fi
echo "test-all: Chromium at $CHROMIUM_PATH"
bash scripts/install-sandbox.sh
echo "test-all: sandbox: $(bwrap --version), $(strace -V | head -n1)"
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  echo "test-all: TEST_DATABASE_URL not set; storage tests run against PGlite only"
fi

step() { echo; echo "== $*"; }
# `npm run lint` (prettier --check, then eslint) with the two at once: each is one thread, and
# eslint's typed rules take most of the time, so prettier runs beside it on the other core.
step "lint"
prettier_log="$(mktemp)"
npx prettier --check . >"$prettier_log" 2>&1 &
prettier_pid=$!
eslint_status=0; npx eslint . || eslint_status=$?
prettier_status=0; wait "$prettier_pid" || prettier_status=$?
cat "$prettier_log"; rm -f "$prettier_log"
[ "$prettier_status" -eq 0 ] && [ "$eslint_status" -eq 0 ] || { echo "test-all: lint failed"; exit 1; }
step "unit and integration tests"; npm test
step "MCP conformance (client, revision 2025-11-25)"; bash scripts/conformance.sh
step "typecheck";  npm run typecheck
# The build's own type check covers the same program less the tests (Next.js leaves out *.test.*
# and *.spec.*), so after the whole-repo check it is skipped here (next.config.js); `npm run app`
# and `npm run build` elsewhere keep it.
step "build";      RELAY_REVIEW_BUILD_TYPECHECKED=1 npm run build
# The e2e suite in two halves at once, each against its own workbench (its own port, data folder
# and egress ports, all derived from E2E_PORT and E2E_DATA_DIR): a test spends much of its time
# waiting on a page, a sandboxed server or a loopback peer, so two halves share the two cores
# better than one after the other. Separate workbenches, not two workers on one: some specs act on
# the whole workbench (sign out everywhere, the owner's secrets, webhooks). The UI project is split
# by Playwright's --shard (by test count, which for these specs is close to by time); the API
# project, many tests of a few milliseconds, runs before the first half.
step "e2e (two halves at once, each on its own workbench)"
e2e_logs="$(mktemp -d)"
e2e_half() {
  local half="$1"; shift
  E2E_PORT="$((3000 + 100 * half))" E2E_DATA_DIR=".data-e2e-$half" npx playwright test "$@" >>"$e2e_logs/$half" 2>&1
}
rm -rf .data-e2e-1 .data-e2e-2
{ e2e_half 1 --project=api && e2e_half 1 --project=ui --shard=1/2; } & half1_pid=$!
e2e_half 2 --project=ui --shard=2/2 & half2_pid=$!
half1_status=0; wait "$half1_pid" || half1_status=$?
half2_status=0; wait "$half2_pid" || half2_status=$?
for half in 1 2; do echo "-- e2e, half $half of 2"; cat "$e2e_logs/$half"; done
rm -rf "$e2e_logs"
[ "$half1_status" -eq 0 ] && [ "$half2_status" -eq 0 ] || { echo "test-all: e2e failed"; exit 1; }
# Sign-in through a real OpenID provider (oidc-provider on loopback) and four eyes: its own config,
# because the workbench it starts is configured for the provider.
step "e2e with OpenID Connect"; rm -rf .data-e2e-oidc; npx playwright test -c playwright.oidc.config.ts
echo; echo "test-all: every check passed"
