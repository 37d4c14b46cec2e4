import { mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { formatReplay, replaySession } from "../../fold/replay-report.js";
import type { Policy } from "../../policy/index.js";
import { buildPageModel } from "../../report/page-model.js";
import { renderSessionPage } from "../../report/render-session-page.js";
import { type LoadedSession, loadSession } from "../../session.js";
import { formatPolicyListing, listPolicy } from "../../tools/policy-listing.js";
import { formatView, viewReport } from "../../view/view-report.js";

export const KIT_SUBCOMMANDS = {
  "": "the folded state at the current leaf (as `context-kit replay --leaf`)",
  view: "what the next request carries: the single projection at this leaf (as `context-kit view --leaf`)",
  policy: "the excluded scopes under the policy root, with their marker guidance, and the control paths",
  report: "write the HTML audit report of this session and print its path",
} as const;

/** What `/kit` reads: the session as saved, where the user stands in it, the policy and where reports go. */
export interface KitCommandInputs {
  cwd: string;
  sessionFile: string | undefined;
  leafId: string | null;
  policy: Policy;
  reportDir: string;
}

function kitHelp(unknown?: string): string {
  const head = unknown === undefined ? "/kit commands:" : `unknown /kit command "${unknown}"; the commands are:`;
  const rows = Object.entries(KIT_SUBCOMMANDS).map(([name, what]) => `  /kit${name ? ` ${name}` : ""}  ${what}`);
  return [head, ...rows].join("\n");
}

type Saved = { session: LoadedSession; file: string; shown: string; leafId: string };

/** The session file as the offline commands read it, or why there is nothing to read yet. */
function saved(inputs: KitCommandInputs): Saved | string {
  const file = inputs.sessionFile;
  if (!file) return "this session is not saved to a file (--no-session): there is nothing to audit";
  let session: LoadedSession;
  try {
    session = loadSession(file);
  } catch {
    return `nothing saved yet: Pi writes ${file} after the first reply`;
  }
  const leafId = inputs.leafId;
  if (leafId === null || !session.tree.get(leafId)) {
    return `nothing saved yet at the current leaf: Pi writes ${file} after the first reply`;
  }
  return { session, file, shown: relative(inputs.cwd, file) || file, leafId };
}

/** Runs one `/kit` subcommand. Only `report` writes, and only its page: no state changes, no entries. */
export async function runKitCommand(args: string, inputs: KitCommandInputs): Promise<string> {
  const sub = args.trim().split(/\s+/)[0] ?? "";
  switch (sub) {
    case "": {
      const found = saved(inputs);
      if (typeof found === "string") return found;
      return formatReplay(replaySession(found.shown, found.session, [found.leafId]));
    }
    case "view": {
      const found = saved(inputs);
      if (typeof found === "string") return found;
      return formatView(viewReport(found.shown, found.session.tree, found.leafId, true));
    }
    case "policy":
      return formatPolicyListing(await listPolicy(inputs.policy));
    case "report": {
      const found = saved(inputs);
      if (typeof found === "string") return found;
      const page = join(inputs.reportDir, `${basename(found.file).replace(/\.jsonl$/, "")}.html`);
      mkdirSync(dirname(page), { recursive: true });
      writeFileSync(page, renderSessionPage(buildPageModel(found.shown, found.session)));
      return `wrote the audit report of ${found.shown} to ${page}`;
    }
    case "help":
      return kitHelp();
    default:
      return kitHelp(sub);
  }
}
