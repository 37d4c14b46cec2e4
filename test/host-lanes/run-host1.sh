#!/usr/bin/env bash
# The Pi 1.x host lane (`npm run test:host1`): installs Pi 1.x and Node 22 into .hosts/ with setup-host1.sh (about
# 1 s when already installed), then runs the lane's tests (test/host1: the extension and launcher end to end on the
# real 1.x CLI, offline on the faux provider, and the context conformance against 1.x's buildSessionContext) under
# that Node 22, with PI_CONTEXT_KIT_HOST naming the 1.x host package. Extra arguments go to vitest.
# Honours setup-host1.sh's overrides (PI_HOST1_VERSION, PI_HOST1_NODE_VERSION, PI_HOST1_DIR, PI_HOST1_FORCE).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PI_VERSION="${PI_HOST1_VERSION:-1.4.0}"
DIR="${PI_HOST1_DIR:-$ROOT/.hosts/pi-$PI_VERSION}"

bash "$ROOT/test/host-lanes/setup-host1.sh"

export PI_CONTEXT_KIT_HOST="$DIR/node_modules/@earendil-works/pi-coding-agent"
# Makes test/host1/lane.ts fail instead of skipping when the host above is not a usable 1.x host.
export PI_HOST1_LANE=1
[ -f "$PI_CONTEXT_KIT_HOST/package.json" ] || { echo "[run-host1] no host at $PI_CONTEXT_KIT_HOST" >&2; exit 2; }
echo "[run-host1] vitest test/host1 on $("$DIR/bin/node" --version), host $PI_CONTEXT_KIT_HOST"

cd "$ROOT"
exec "$DIR/bin/node" "$ROOT/node_modules/vitest/vitest.mjs" run --config test/vitest.config.ts test/host1 "$@"
