import { relative } from "node:path";
import { checkView, type Violation } from "../../../projections/invariants.js";
import { foldTree } from "../../fold/session-fold.js";
import { kitVersion } from "../../package-root.js";
import { anchorIsAuthentic, viewOfLeaf } from "../../view/leaf-view.js";
import { recordedRequests, requestName, verifyRequest } from "../../view/recorded-requests.js";
import { type Command, JSON_OPTION } from "../command.js";
import { mapFiles } from "../file-pool.js";
import { expandInputs, loadInput } from "../inputs.js";

export interface CheckWarning {
  code: "W_OTHER_KIT_VERSION" | "W_REQUEST_NOT_IN_FILE";
  message: string;
  digestEntryId: string;
}

/** The recorded requests of a file: how many the recomputed view reproduced, and how many it did not. */
export interface RequestCounts {
  recorded: number;
  verified: number;
  differs: number;
  otherVersion: number;
  unresolved: number;
}

export interface CheckReport {
  files: {
    file: string;
    branches: number;
    violations: ((Violation | { code: "REQUEST_DIFFERS"; message: string }) & { leafId: string })[];
    requests: RequestCounts;
    warnings: CheckWarning[];
    unusable?: true;
  }[];
}

type FileCheck = CheckReport["files"][number];
const NO_REQUESTS: RequestCounts = { recorded: 0, verified: 0, differs: 0, otherVersion: 0, unresolved: 0 };

export function checkSessionFile(path: string, shown: string): FileCheck {
  const { tree, log } = loadInput(path, shown);
  if (log.unusable) {
    return { file: shown, branches: 0, violations: [], requests: NO_REQUESTS, warnings: [], unusable: true };
  }
  const fold = foldTree(tree);
  const violations: FileCheck["violations"] = [];
  const leaves = tree.leaves();
  for (const leafId of leaves) {
    const v = viewOfLeaf(tree, fold, leafId);
    const found = checkView({
      host: v.host.messages,
      view: v.messages,
      anchorIndex: v.anchorIndex,
      branchUsers: v.branchUsers,
      anchorAuthentic: anchorIsAuthentic(tree, v.anchorId),
      added: v.added,
    });
    for (const violation of found) violations.push({ leafId, ...violation });
  }
  const requests = { ...NO_REQUESTS };
  const warnings: CheckWarning[] = [];
  const version = kitVersion();
  for (const recorded of recordedRequests(tree)) {
    const r = verifyRequest(tree, fold, recorded, version);
    requests.recorded++;
    requests[r.status]++;
    const name = requestName(r);
    if (r.status === "differs") {
      violations.push({
        leafId: r.leafId as string,
        code: "REQUEST_DIFFERS",
        message: `${name}: the view recomputed at its leaf has digest ${r.computed}, the request recorded ${r.recorded.digest}`,
      });
    } else if (r.status === "otherVersion") {
      warnings.push({
        code: "W_OTHER_KIT_VERSION",
        digestEntryId: r.digestEntryId,
        message: `${name} was recorded by kit ${r.recorded.kitVersion}, which computed another view than kit ${version} does`,
      });
    } else if (r.status === "unresolved") {
      warnings.push({
        code: "W_REQUEST_NOT_IN_FILE",
        digestEntryId: r.digestEntryId,
        message: `${name}: the ${r.recorded.pending} message(s) it was made with never reached the file`,
      });
    }
  }
  return { file: shown, branches: leaves.length, violations, requests, warnings };
}

function requestsLine(r: RequestCounts): string {
  if (r.recorded === 0) return "";
  const others = [
    r.differs ? `${r.differs} differ` : "",
    r.otherVersion ? `${r.otherVersion} from another kit version` : "",
    r.unresolved ? `${r.unresolved} not in the file` : "",
  ].filter(Boolean);
  return `, ${r.verified} of ${r.recorded} recorded request(s) reproduced${others.length ? ` (${others.join(", ")})` : ""}`;
}

export const checkCommand: Command = {
  name: "check",
  summary:
    "Check the projection invariants on every branch, and that the view reproduces every recorded request (a folder is searched).",
  usage: "context-kit check FILE|DIR... [--json]",
  options: { ...JSON_OPTION },
  async run({ positionals, cwd, progress }) {
    const paths = expandInputs(positionals, cwd);
    const items = paths.map((path) => ({ path, shown: relative(cwd, path) || path }));
    const files = await mapFiles({ module: import.meta.url, name: "checkSessionFile", fn: checkSessionFile }, items, {
      progress: (done, total) => progress(done < total ? `check ${done}/${total}` : ""),
    });
    const report: CheckReport = { files };
    const bad = files.some((f) => f.violations.length > 0);
    const unusable = files.some((f) => f.unusable);
    const lines = files.map((f) =>
      f.unusable
        ? `${f.file}: not a usable session file (see inspect)`
        : `${f.file}: ${f.branches} branch(es)${requestsLine(f.requests)}, ${f.violations.length === 0 ? "ok" : `${f.violations.length} violation(s)`}${f.violations
            .map((v) => `\n  leaf ${v.leafId}: ${v.code}: ${v.message}`)
            .join("")}${f.warnings.map((w) => `\n  warning ${w.code}: ${w.message}`).join("")}`,
    );
    return { exitCode: bad ? 1 : unusable ? 2 : 0, json: report, text: lines.join("\n") };
  },
};
