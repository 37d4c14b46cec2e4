import { checkView, type Violation } from "../../../projections/invariants.js";
import { loadUsable } from "../../files/load-input.js";
import { foldTree } from "../../fold/session-fold.js";
import type { Diagnostic } from "../../log/diagnostics.js";
import { kitVersion } from "../../package-root.js";
import { capped, plural } from "../../text.js";
import { anchorIsAuthentic, leafViewCore } from "../../view/leaf-view.js";
import { recordedRequests, requestName } from "../../view/recorded-requests.js";
import { RequestViews } from "../../view/request-views.js";
import { type Command, FILES_JSON_HELP, FILES_JSON_OPTIONS } from "../command.js";
import { type FileFailure, settle } from "../file-outcome.js";
import { runOverFiles } from "../folder-run.js";

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

export interface CheckFileReport {
  file: string;
  branches: number;
  violations: ((Violation | { code: "REQUEST_DIFFERS"; message: string }) & { leafId: string })[];
  /** Error diagnostics: lines the host drops or entries it re-parents, so the model sees something else. */
  readerErrors: Diagnostic[];
  requests: RequestCounts;
  warnings: CheckWarning[];
}

const NO_REQUESTS: RequestCounts = { recorded: 0, verified: 0, differs: 0, otherVersion: 0, unresolved: 0 };

/** Problems printed per file; `--json` lists them all. */
const SHOWN = 20;

function checkLoaded(path: string, shown: string): CheckFileReport {
  const { tree, diagnostics } = loadUsable(path, shown);
  const fold = foldTree(tree);
  const violations: CheckFileReport["violations"] = [];
  const leaves = tree.leaves();
  for (const leafId of leaves) {
    const v = leafViewCore(tree, fold, leafId);
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
  // In file order, a live session's requests follow one another down a branch: each view extends the previous one.
  const views = new RequestViews(tree, fold);
  for (const recorded of recordedRequests(tree)) {
    const r = views.verify(recorded, version);
    requests.recorded++;
    requests[r.status]++;
    const name = requestName(r);
    if (r.status === "differs") {
      const system = r.recorded.system;
      const message =
        r.computed === r.recorded.digest && system
          ? `${name}: the system messages at its leaf replay to digest ${r.computedSystem}, the request recorded ${system.digest}`
          : `${name}: the view recomputed at its leaf has digest ${r.computed}, the request recorded ${r.recorded.digest}`;
      violations.push({ leafId: r.leafId as string, code: "REQUEST_DIFFERS", message });
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
        message: `${name}: the ${plural(r.recorded.pending, "message")} it was made with never reached the file`,
      });
    }
  }
  const readerErrors = diagnostics.filter((d) => d.severity === "error");
  return { file: shown, branches: leaves.length, violations, readerErrors, requests, warnings };
}

export function checkSessionFile(path: string, shown: string): CheckFileReport | FileFailure {
  return settle(shown, () => checkLoaded(path, shown));
}

function requestsText(r: RequestCounts): string {
  if (r.recorded === 0) return "";
  const others = [
    r.differs ? `${r.differs} differ` : "",
    r.otherVersion ? `${r.otherVersion} from another kit version` : "",
    r.unresolved ? `${r.unresolved} not in the file` : "",
  ].filter(Boolean);
  return `, ${r.verified} of ${plural(r.recorded, "recorded request")} reproduced${others.length ? ` (${others.join(", ")})` : ""}`;
}

/** The two counts as the JSON has them: projection violations, and the reader's error diagnostics. */
function problemsText(f: CheckFileReport): string {
  const parts = [
    f.violations.length ? plural(f.violations.length, "violation") : "",
    f.readerErrors.length ? plural(f.readerErrors.length, "reader error") : "",
  ].filter(Boolean);
  return parts.length === 0 ? "ok" : parts.join(", ");
}

export function formatCheck(f: CheckFileReport): string {
  const lines = [
    ...f.readerErrors.map((d) => `  line ${d.line}: ${d.code}: ${d.message}`),
    ...f.violations.map((v) => `  leaf ${v.leafId}: ${v.code}: ${v.message}`),
    ...f.warnings.map((w) => `  warning ${w.code}: ${w.message}`),
  ];
  const head = `${f.file}: ${plural(f.branches, "branch", "branches")}${requestsText(f.requests)}, ${problemsText(f)}`;
  return [head, ...capped(lines, SHOWN, (more) => `  … ${more} more (--json lists all)`)].join("\n");
}

export const checkCommand: Command = {
  name: "check",
  summary:
    "Check the projection invariants on every branch, and that the view reproduces every recorded request (a folder is searched).",
  usage: "FILE|DIR... [--json | --ndjson]",
  description:
    "For every leaf of every file, computes the outgoing view and checks the projection invariants (every user message of the branch kept, tool calls paired with their results, a recovery view only from an authentic marker, ...), and recomputes every request the kit recorded (its digest) to say whether the view reproduces it. Error diagnostics fail the check too, counted apart as reader errors (readerErrors in --json): a line the host drops, an entry it re-parents or a cycle changes what the model sees. Exit 1 on any violation or reader error, 2 when a file is unreadable or not a Pi session file (the others are still checked).",
  options: { ...FILES_JSON_OPTIONS },
  optionHelp: { ...FILES_JSON_HELP },
  examples: ["context-kit check ~/.pi/agent/sessions", "context-kit check session.jsonl --json"],
  run(context) {
    return runOverFiles<CheckFileReport>(
      {
        name: "check",
        task: { module: import.meta.url, name: "checkSessionFile", fn: checkSessionFile },
        format: formatCheck,
        separator: "\n",
        verdict: (f) =>
          f.violations.length > 0
            ? { exitCode: 1, label: "with violations" }
            : f.readerErrors.length > 0
              ? { exitCode: 1, label: "with reader errors" }
              : { exitCode: 0, label: "ok" },
      },
      context,
    );
  },
};
