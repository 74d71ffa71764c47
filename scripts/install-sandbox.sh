#!/usr/bin/env bash
# Installs Debian's bubblewrap, strace and socat when missing: every stdio server the web app inspects
# runs in a bubblewrap sandbox, strace, outside it, records what the server tried, and socat bridges a
# server granted egress to the workbench's egress proxy (only launchers that grant egress need it).
# `npm run app` and `npm run test:all` both call this, as the test command installs Chromium. With
# `--optional` (the app) a failed install only warns: the app still starts and refuses stdio
# inspection, naming the step; without it (the tests, which need all three) a failed install fails.
set -uo pipefail
optional=0; [ "${1:-}" = "--optional" ] && optional=1
missing=()
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
command -v strace >/dev/null 2>&1 || missing+=(strace)
command -v socat >/dev/null 2>&1 || missing+=(socat)
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "relay-review: installing Debian's ${missing[*]} (the sandbox for stdio servers, the record of what they try, the bridge to the egress proxy)"
if $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null; then
  exit 0
fi
if [ "$optional" -eq 1 ]; then
  echo "relay-review: could not install ${missing[*]}; the app starts, and refuses stdio inspection until \`apt-get install ${missing[*]}\` is run"
  exit 0
fi
echo "relay-review: could not install ${missing[*]}" >&2
exit 1
