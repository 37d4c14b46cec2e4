// Bundles the installed @duckdb/node-api (an optional dependency: skipped when it is not installed) into one
// CommonJS file, dist/duckdb-api-<version>.cjs, which the fleet commands load instead of its 180 modules (about
// 35 ms of every `index`, `stats` and `export` start). Its native binding stays a package of its own. The file is
// named for the version it was built from: after an update of @duckdb/node-api the kit loads the package itself
// until the next build. Run by `npm run build`.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { build } from "esbuild";

const root = join(import.meta.dirname, "..");
const require = createRequire(join(root, "package.json"));
let manifest;
try {
  manifest = require.resolve("@duckdb/node-api/package.json");
} catch {
  console.log("bundle-duckdb: @duckdb/node-api is not installed; the fleet commands will say so when run");
  process.exit(0);
}
const { version, main } = JSON.parse(readFileSync(manifest, "utf8"));
await build({
  entryPoints: [join(manifest, "..", main)],
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  external: ["@duckdb/node-bindings"],
  legalComments: "inline",
  outfile: join(root, "dist", `duckdb-api-${version}.cjs`),
  logLevel: "warning",
});
