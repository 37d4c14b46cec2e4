// Runs the fleet commands' first DuckDB calls once and writes the code V8 compiled of the bundled DuckDB API beside
// it (dist/duckdb-api-<version>.cjs.v8-<V8 version>.cache): every later `index`, `stats` and `export` then loads the
// bundle without compiling it again (about 8 ms of each start). Skipped when DuckDB is not installed. Run by
// `npm run build`, after the compile, with the Node that will run the kit (another Node's V8 compiles as usual). A
// cache that cannot be made only costs that time: the build goes on.
import { writeCodeCache } from "../dist/src/fleet/code-cache.js";
import { FleetDb, loadedBundle } from "../dist/src/fleet/db.js";
import { sessionRow } from "../dist/src/fleet/entry-rows.js";
import { emptyRows } from "../dist/src/fleet/tables.js";

async function warm() {
  const db = await FleetDb.open(":memory:", { threads: 1 });
  try {
    const rows = emptyRows();
    rows.sessions.push(sessionRow("warm.jsonl", { id: "warm" }, null, 0, "ok", "", 0));
    await db.run("BEGIN TRANSACTION");
    await db.queryWithColumns("SELECT * FROM _memo WHERE file IN (?)", ["warm.jsonl"]);
    await db.forget("warm.jsonl", ["branches"]);
    await db.append(rows);
    await db.updateAppended("warm.jsonl", rows.sessions[0], ["warm.jsonl", "warm.jsonl", 0, 0, 1, "{}", "[]"]);
    await db.query("SELECT count(*) AS n FROM sessions");
    await db.run("COMMIT");
  } finally {
    db.close();
  }
}

try {
  await warm();
  const bundle = loadedBundle();
  if (bundle) writeCodeCache(bundle.path, bundle);
  else console.log("cache-duckdb: no bundle of @duckdb/node-api was built; nothing to cache");
} catch (error) {
  console.log(`cache-duckdb: no code cache written (${String(error?.message ?? error).split("\n")[0]})`);
}
