#!/usr/bin/env bash
# The Pi 1.x host lane (`npm run test:host1`): for each 1.x host (1.4.0, the version the seed deployment ran, and
# 1.6.0, the newest 1.x), installs Pi and Node 22 into .hosts/ with setup-host1.sh (about 1 s when already
# installed), then runs the lane's tests (test/host1: the extension and launcher end to end on the real 1.x CLI,
# offline on the faux provider, and the context conformance against 1.x's buildSessionContext) under that Node 22,
# with PI_CONTEXT_KIT_HOST naming the host package. Extra arguments go to vitest.
# PI_HOST1_VERSION runs one version only; setup-host1.sh's other overrides (PI_HOST1_NODE_VERSION, PI_HOST1_DIR,
# PI_HOST1_FORCE) apply to it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VERSIONS="${PI_HOST1_VERSION:-1.4.0 1.6.0}"

# Files named (test/host1/...) run alone; otherwise the whole lane runs, with any options given.
FILES=(test/host1)
for arg in "$@"; do [[ "$arg" == test/* ]] && FILES=(); done

status=0
for PI_VERSION in $VERSIONS; do
  DIR="${PI_HOST1_DIR:-$ROOT/.hosts/pi-$PI_VERSION}"
  PI_HOST1_VERSION="$PI_VERSION" bash "$ROOT/test/host-lanes/setup-host1.sh"
  host="$DIR/node_modules/@earendil-works/pi-coding-agent"
  [ -f "$host/package.json" ] || { echo "[run-host1] no host at $host" >&2; exit 2; }
  echo "[run-host1] vitest test/host1 on $("$DIR/bin/node" --version), Pi $PI_VERSION at $host"
  # PI_HOST1_LANE makes test/host1/lane.ts fail instead of skipping when the host is not a usable 1.x host.
  (cd "$ROOT" && PI_CONTEXT_KIT_HOST="$host" PI_HOST1_LANE=1 \
    "$DIR/bin/node" "$ROOT/node_modules/vitest/vitest.mjs" run --config test/vitest.config.ts "${FILES[@]}" "$@") || status=1
done
exit "$status"
