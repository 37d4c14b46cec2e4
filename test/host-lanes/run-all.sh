#!/usr/bin/env bash
# `npm test`: the main lane (Node 20, Pi 0.73) with the type check and lint beside it, then the 1.x lane (Pi 1.4.0
# and 1.6.0 under Node 22). The 1.x hosts install in the background meanwhile (network, not CPU); their log is printed
# when an install fails. Extra arguments go to both vitest lanes.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

setup_log="$(mktemp)"
(
  for version in ${PI_HOST1_VERSION:-1.4.0 1.6.0}; do
    PI_HOST1_VERSION="$version" bash test/host-lanes/setup-host1.sh &
  done
  wait
) >"$setup_log" 2>&1 &
setup=$!

# The type check and lint run beside the main lane (single-threaded, they fill what its workers leave idle); their
# output is printed when they end.
checks_log="$(mktemp)"
(npm run --silent typecheck; typecheck=$?; npm run --silent lint && exit "$typecheck") >"$checks_log" 2>&1 &
checks=$!

status=0
node node_modules/vitest/vitest.mjs run --config test/vitest.config.ts "$@" || status=1

if ! wait "$checks"; then
  cat "$checks_log" >&2
  echo "the type check or lint failed" >&2
  status=1
fi
rm -f "$checks_log"

if ! wait "$setup"; then
  cat "$setup_log" >&2
  exit 1
fi
grep -h '^\[setup-host1\]' "$setup_log" || true
bash test/host-lanes/run-host1.sh "$@" || status=1
exit "$status"
