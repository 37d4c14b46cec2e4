// Copies the stall detector's trained model (read lazily, so not imported and not copied by tsc) into dist.
// Run by `npm run build`, after tsc.
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const from = join(root, "src/detect/model/stall-model.json");
const to = join(root, "dist/src/detect/model/stall-model.json");
if (existsSync(from)) {
  mkdirSync(join(to, ".."), { recursive: true });
  copyFileSync(from, to);
}
