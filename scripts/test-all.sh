#!/usr/bin/env bash
# Every check, in the order that fails fastest: lint, unit + integration tests, production build
# (which type-checks app/), a whole-repo typecheck, then the e2e suite in headless Chromium.
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
step "build";      npm run build
step "typecheck";  npm run typecheck
step "e2e";        rm -rf .data-e2e; npx playwright test
# Sign-in through a real OpenID provider (oidc-provider on loopback) and four eyes: its own config,
# because the workbench it starts is configured for the provider.
step "e2e with OpenID Connect"; rm -rf .data-e2e-oidc; npx playwright test -c playwright.oidc.config.ts
echo; echo "test-all: every check passed"
