import { resolve } from "node:path";
import { createPolicy } from "../../policy/index.js";
import { formatPolicyListing, listPolicy } from "../../tools/policy-listing.js";
import { type Command, InputError, JSON_OPTION, UsageError } from "../command.js";

export const policyCommand: Command = {
  name: "policy",
  summary: "List the excluded scopes under a policy root, with their marker guidance, and the control paths.",
  usage: "context-kit policy [DIR] [--json]",
  options: { ...JSON_OPTION },
  async run({ positionals, cwd }) {
    if (positionals.length > 1) throw new UsageError("name at most one policy root");
    const root = resolve(cwd, positionals[0] ?? ".");
    let policy: ReturnType<typeof createPolicy>;
    try {
      policy = createPolicy({ root });
    } catch {
      throw new InputError("E_READ", `${positionals[0] ?? "."}: no such directory`);
    }
    const listing = await listPolicy(policy);
    return { exitCode: 0, json: listing, text: formatPolicyListing(listing) };
  },
};
