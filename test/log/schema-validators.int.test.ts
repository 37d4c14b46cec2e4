import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { randomSession } from "../synth/random-tree.js";
import { buildVariants } from "./malformed-corpus.js";

const ROOT = join(import.meta.dirname, "..", "..");
const BASE = "https://pi-context-kit.dev/schemas/";

/** The build's standalone validators (dist/, rebuilt by the global setup) against ajv compiling the same schemas. */
describe("the precompiled schema validators", () => {
  const built = createRequire(import.meta.url)(join(ROOT, "dist", "src", "log", "schema-validators.cjs")) as {
    byKey: Record<string, string>;
  } & Record<string, ValidateFunction>;
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  for (const name of readdirSync(join(ROOT, "schemas")).sort()) {
    if (name.endsWith(".schema.json")) ajv.addSchema(JSON.parse(readFileSync(join(ROOT, "schemas", name), "utf8")));
  }

  const records: unknown[] = [];
  const lines = (text: string) => {
    for (const line of text.split("\n")) {
      try {
        const value = JSON.parse(line) as unknown;
        records.push(value);
        if (value && typeof value === "object" && "message" in value)
          records.push((value as { message: unknown }).message);
      } catch {
        // not a record
      }
    }
  };
  for (const name of readdirSync(join(ROOT, "evidence-samples"))) {
    if (name.endsWith(".jsonl")) lines(readFileSync(join(ROOT, "evidence-samples", name), "utf8"));
  }
  for (const variant of buildVariants()) lines(variant.bytes.toString("utf8"));
  for (let seed = 1; seed <= 5; seed++) lines(randomSession(seed).toJsonl());

  it("cover every schema and $defs entry", () => {
    const keys = Object.keys(built.byKey);
    expect(keys).toContain("pi-entry.schema.json#message");
    expect(keys).toContain("pi-message.schema.json#assistant");
    expect(keys).toContain("kit-recovery-marker.schema.json#");
  });

  it("accept and reject exactly what ajv does, with the same first error", () => {
    expect(records.length).toBeGreaterThan(200);
    let rejected = 0;
    for (const [key, exported] of Object.entries(built.byKey)) {
      const [file, def] = key.split("#") as [string, string];
      const reference = ajv.getSchema(def === "" ? BASE + file : `${BASE}${file}#/$defs/${def}`) as ValidateFunction;
      const standalone = built[exported] as ValidateFunction;
      for (const record of records) {
        const ok = standalone(record);
        expect(ok, key).toBe(reference(record));
        if (!ok) {
          rejected++;
          expect(standalone.errors?.[0]).toEqual(reference.errors?.[0]);
        }
      }
    }
    expect(rejected).toBeGreaterThan(0);
  });
});
