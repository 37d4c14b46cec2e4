#!/usr/bin/env bash
# `npm test`: the type check and lint side by side, the main lane (Node 20, Pi 0.73), then the 1.x lane (Pi 1.4.0 and
# 1.6.0 under Node 22). The 1.x hosts install in the background meanwhile (network, not CPU); their log is printed
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

checks=0
npm run --silent typecheck & typecheck=$!
npm run --silent lint & lint=$!
wait "$typecheck" || checks=1
wait "$lint" || checks=1
if [ "$checks" != 0 ]; then wait "$setup"; exit 1; fi

status=0
node node_modules/vitest/vitest.mjs run --config test/vitest.config.ts "$@" || status=1

if ! wait "$setup"; then
  cat "$setup_log" >&2
  exit 1
fi
grep -h '^\[setup-host1\]' "$setup_log" || true
bash test/host-lanes/run-host1.sh "$@" || status=1
exit "$status"
