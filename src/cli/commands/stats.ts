import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { InputError } from "../../files/input-error.js";
import { type Command, JSON_HELP, JSON_OPTION, UsageError } from "../command.js";

export const statsCommand: Command = {
  name: "stats",
  summary:
    "Print the fleet summary from an index database: stall and loop rate by model, denied scopes, verification, requests.",
  usage: "DB [--top N] [--json]",
  description:
    "Reads a database written by `index` and prints the fleet's summary: sessions by status and start time, the stall and tool-loop rate by model (of each session's active branch), the most denied scopes, verification outcomes, and the recorded requests the recomputed view does not reproduce. Never writes. Exit 0, 2 when the database is missing or cannot be opened.",
  options: { ...JSON_OPTION, top: { type: "string" } },
  optionHelp: { "--top N": "how many denied scopes to list (default 10)", ...JSON_HELP },
  examples: ["context-kit stats fleet.duckdb", "context-kit stats fleet.duckdb --json"],
  async run({ values, positionals, cwd }) {
    if (positionals.length !== 1) throw new UsageError("name exactly one database (written by `context-kit index`)");
    const given = positionals[0] as string;
    const path = resolve(cwd, given);
    if (!existsSync(path)) throw new InputError("E_READ", `${given}: no such file or folder`);
    const top = values.top === undefined ? 10 : Number(values.top);
    if (!Number.isInteger(top) || top < 1) throw new UsageError("--top needs a whole number of at least 1");
    const { fleetStats, formatStats } = await import("../../fleet/stats.js");
    const stats = await fleetStats(path, given, top);
    return { exitCode: 0, json: stats, text: formatStats(stats) };
  },
};
