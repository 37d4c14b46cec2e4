import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Ajv2020, ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { packageRoot } from "../package-root.js";
import { KNOWN_ENTRY_TYPES } from "./entry-types.js";

const BASE = "https://pi-context-kit.dev/schemas/";
const require = createRequire(import.meta.url);

let ajv: Ajv2020 | undefined;
/** Compiled validators by schema file, then by `$defs` name ("" for the whole file): no key is built per lookup. */
const validators = new Map<string, Map<string, ValidateFunction>>();

type Precompiled = { byKey: Record<string, string> } & Record<string, ValidateFunction>;
let precompiled: Precompiled | null | undefined;

/**
 * The validators `npm run build` compiled from `schemas/` (scripts/build-validators.mjs): a process that uses them
 * neither loads ajv nor compiles a schema. Null when running from the sources, which compile with ajv instead.
 */
function built(): Precompiled | null {
  if (precompiled === undefined) {
    try {
      precompiled = require("./schema-validators.cjs") as Precompiled;
    } catch {
      precompiled = null;
    }
  }
  return precompiled;
}

function instance(): Ajv2020 {
  if (ajv) return ajv;
  const { Ajv2020: Ajv } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  ajv = new Ajv({ strict: false, allErrors: false });
  const dir = join(packageRoot(), "schemas");
  for (const name of readdirSync(dir).sort()) {
    if (name.endsWith(".schema.json")) ajv.addSchema(JSON.parse(readFileSync(join(dir, name), "utf8")));
  }
  return ajv;
}

/** A validator for `file#/$defs/name` (or the whole file without a name), compiled once per process. */
export function validator(file: string, name?: string): ValidateFunction {
  let byName = validators.get(file);
  if (!byName) {
    byName = new Map();
    validators.set(file, byName);
  }
  let fn = byName.get(name ?? "");
  if (fn) return fn;
  const compiled = built();
  const exported = compiled?.byKey[`${file}#${name ?? ""}`];
  fn = exported === undefined ? undefined : compiled?.[exported];
  if (!fn) {
    const ref = name === undefined ? BASE + file : `${BASE}${file}#/$defs/${name}`;
    fn = instance().getSchema(ref);
    if (!fn) throw new Error(`pi-context-kit: no schema ${ref}`);
  }
  byName.set(name ?? "", fn);
  return fn;
}

function describeSchemaError(errors: ErrorObject[] | null | undefined, prefix = ""): string {
  const first = errors?.[0];
  if (!first) return "does not match its schema";
  const path = prefix + first.instancePath;
  const at = path === "" ? "record" : path;
  return `${at} ${first.message ?? "is invalid"}`;
}

const MESSAGE_ROLES = new Set([
  "user",
  "assistant",
  "toolResult",
  "custom",
  "bashExecution",
  "branchSummary",
  "compactionSummary",
  "system",
]);

export type EntryCheck = { ok: true } | { ok: false; unknown: boolean; message: string };

/** Checks one v3 record against the schema of its type (and of its message role). */
export function checkEntry(record: Record<string, unknown>): EntryCheck {
  const type = record.type;
  if (typeof type !== "string" || !KNOWN_ENTRY_TYPES.has(type)) {
    const base = validator("pi-entry.schema.json", "base");
    if (!base(record)) return { ok: false, unknown: false, message: describeSchemaError(base.errors) };
    return { ok: false, unknown: true, message: `unknown entry type ${JSON.stringify(type)}` };
  }
  const validate = validator("pi-entry.schema.json", type);
  if (!validate(record)) return { ok: false, unknown: false, message: describeSchemaError(validate.errors) };
  if (type === "message") {
    const message = record.message as Record<string, unknown>;
    const role = message.role as string;
    if (!MESSAGE_ROLES.has(role)) return { ok: false, unknown: true, message: `unknown message role "${role}"` };
    const byRole = validator("pi-message.schema.json", role);
    if (!byRole(message)) return { ok: false, unknown: false, message: describeSchemaError(byRole.errors, "/message") };
  }
  return { ok: true };
}
