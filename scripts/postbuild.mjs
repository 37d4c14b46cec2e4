// Marks the built bins executable (tsc does not keep the mode).
import { chmodSync, existsSync } from "node:fs";

for (const bin of ["dist/src/cli/main.js", "dist/src/pi/launcher-main.js"]) {
  if (existsSync(bin)) chmodSync(bin, 0o755);
}
