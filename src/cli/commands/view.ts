import { loadUsable } from "../../files/load-input.js";
import { invalidRecords } from "../../log/invalid-record.js";
import { branchDamage } from "../../view/branch-damage.js";
import { formatView, viewReport } from "../../view/view-report.js";
import { type Command, JSON_HELP, JSON_OPTION } from "../command.js";
import { resolveEntryId, singleFile } from "../inputs.js";

export const viewCommand: Command = {
  name: "view",
  summary: "Show what the model would be sent for a leaf: the recovery view when the branch has an anchor.",
  usage: "FILE [--leaf ID] [--no-recovery] [--json]",
  description:
    "Builds the messages the model would receive for the branch to a leaf (the active leaf unless --leaf): the host's own context, or the recovery view when the branch has a recovery marker (instructions, every user message of the branch, the marker and what follows it). Prints one row per message with its role and text (a reply that ended in a provider error shows the error), what the view leaves out, its estimated tokens beside the host's own context for the leaf (the view can be larger: the kit adds its guidance and reminders; a saving is shown only when there is one), and whether each request the kit recorded at this leaf is reproduced. A branch cut from its root (a line the host drops held an entry on it) is marked orphaned, with where the host starts sending it, and the branch's own error diagnostics are listed. Exit 2 when the file is unreadable or not a Pi session file, or when a record on the branch failed its schema.",
  options: { ...JSON_OPTION, leaf: { type: "string" }, "no-recovery": { type: "boolean", default: false } },
  optionHelp: {
    "--leaf ID":
      "show the branch that ends at this entry instead of the active leaf (a unique prefix of the id is enough)",
    "--no-recovery": "show the host's own context even where a recovery marker applies (to compare the two)",
    ...JSON_HELP,
  },
  examples: [
    "context-kit view session.jsonl",
    "context-kit view evidence-samples/branched-school-session.jsonl --leaf 00007065 --no-recovery --json",
  ],
  run({ values, positionals, cwd }) {
    const { path, shown } = singleFile(positionals, cwd);
    const { tree, log, diagnostics } = loadUsable(path, shown);
    const given = values.leaf as string | undefined;
    const leaf = given === undefined ? null : resolveEntryId(tree.byId, given, shown);
    const report = viewReport(shown, tree, leaf, !values["no-recovery"]);
    // Only this branch's damage: records of another tree are not what the model is sent here.
    const damage = branchDamage(log, tree, diagnostics, report.leafId);
    const invalid = invalidRecords(damage);
    if (invalid.length > 0) report.invalidRecords = invalid;
    if (damage.cut) report.cut = damage.cut;
    if (damage.diagnostics.length > invalid.length) report.branchErrors = damage.diagnostics;
    // The text is built only when printed: --json never pays for a preview of every message.
    return {
      exitCode: invalid.length > 0 ? 2 : 0,
      json: report,
      get text() {
        return formatView(report);
      },
    };
  },
};
