// Compiles every schema in schemas/ (each file whole, and each of its $defs) into one CommonJS module of standalone
// validators, so that a CLI process neither loads ajv nor compiles schemas at start-up. Run by `npm run build`.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";

const root = join(import.meta.dirname, "..");
const BASE = "https://pi-context-kit.dev/schemas/";
const ajv = new Ajv2020({ strict: false, allErrors: false, code: { source: true } });
const refs = {};
const keys = {};
let n = 0;
for (const name of readdirSync(join(root, "schemas")).sort()) {
  if (!name.endsWith(".schema.json")) continue;
  const schema = JSON.parse(readFileSync(join(root, "schemas", name), "utf8"));
  ajv.addSchema(schema);
  for (const def of ["", ...Object.keys(schema.$defs ?? {})]) {
    const exportName = `v${n++}`;
    refs[exportName] = def === "" ? BASE + name : `${BASE}${name}#/$defs/${def}`;
    keys[`${name}#${def}`] = exportName;
  }
}
const code = `${standaloneCode(ajv, refs)}\nexports.byKey = ${JSON.stringify(keys)};\n`;
const out = join(root, "dist", "src", "log", "schema-validators.cjs");
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, code);
