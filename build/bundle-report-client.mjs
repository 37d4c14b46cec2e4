// Bundles the report's browser code (src/report/client, TypeScript) into one script that every session page
// embeds inline: dist/report-client.js. Run by `npm run build`.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { build } from "esbuild";

const root = join(import.meta.dirname, "..");
const outfile = join(root, "dist/report-client.js");
mkdirSync(dirname(outfile), { recursive: true });
const result = await build({
  entryPoints: [join(root, "src/report/client/main.ts")],
  bundle: true,
  format: "iife",
  platform: "browser",
  target: "es2020",
  charset: "utf8",
  legalComments: "none",
  outfile,
  write: false,
  logLevel: "warning",
});
const text = result.outputFiles[0].text;
// The script is inlined in a <script> element: it must not contain anything that would end that element.
if (/<\/script|<!--/i.test(text)) throw new Error("bundle-report-client: the bundle contains </script or <!--");
writeFileSync(outfile, text);
