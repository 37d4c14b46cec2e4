import { statSync } from "node:fs";
import { resolve } from "node:path";
import { InputError } from "../../files/input-error.js";
import { agentDirFromEnv } from "../../pi/agent-dir.js";
import { createPolicy } from "../../policy/index.js";
import { formatPolicyListing, listPolicy } from "../../tools/policy-listing.js";
import { type Command, JSON_HELP, JSON_OPTION, UsageError } from "../command.js";

export const policyCommand: Command = {
  name: "policy",
  summary: "List the excluded scopes under a policy root, with their marker guidance, and the control paths.",
  usage: "[DIR] [--json]",
  description:
    "Walks the policy root (the current directory unless DIR is given) the way the guarded file tools walk, pruning each directory that holds a .context-exclude marker before reading it, and lists those excluded scopes with the start of their marker guidance, then every control path the file tools never write (.pi/, .agents/ and .git/ at any depth, .context-exclude files, the kit's own package and the host's agent directory, PI_CODING_AGENT_DIR or ~/.pi/agent). It prints what /kit policy prints inside Pi. Never writes. Exit 2 when DIR is not a directory.",
  options: { ...JSON_OPTION },
  optionHelp: { ...JSON_HELP },
  examples: ["context-kit policy", "context-kit policy ~/projects/app --json"],
  async run({ positionals, cwd }) {
    if (positionals.length > 1) throw new UsageError("name at most one policy root");
    const root = resolve(cwd, positionals[0] ?? ".");
    const shown = positionals[0] ?? ".";
    const kind = statSync(root, { throwIfNoEntry: false });
    if (!kind) throw new InputError("E_READ", `${shown}: no such directory`);
    if (!kind.isDirectory()) throw new InputError("E_READ", `${shown}: not a directory`);
    // The agent directory the kit inside Pi would protect: the same control paths as `/kit policy`.
    const policy = createPolicy({ root, agentDir: agentDirFromEnv() });
    const listing = await listPolicy(policy);
    return { exitCode: 0, json: listing, text: formatPolicyListing(listing) };
  },
};
