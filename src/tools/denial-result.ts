import {
  ACCESS_DENIED,
  type DenialDetails,
  denialKey,
  type FileIssueDetails,
} from "../../reducers/contract/tool-details.js";
import { labelProjectData } from "../policy/bounded-text.js";
import { CONTROL_DIRS } from "../policy/constants.js";
import type { Denied, Refused, Unresolvable } from "../policy/decision.js";
import type { Policy } from "../policy/policy.js";
import type { DenialTracker } from "./denial-tracker.js";
import { displayPath, shortPath } from "./display-path.js";
import { fileIssueResult } from "./file-issue-result.js";
import { type ToolResult, textResult } from "./tool-types.js";

function headline(d: Denied, policy: Policy): string {
  const path = JSON.stringify(shortPath(d.input));
  const scope = shortPath(displayPath(policy.root, d.scope));
  switch (d.kind) {
    case "outside-root":
      return (
        `Access denied by host policy: ${path} is outside the project root ${policy.root}. ` +
        "The file tools only reach files under the directory this session started in."
      );
    case "marker":
      return d.rule.startsWith("marker-unverifiable:")
        ? `Access denied by host policy: the host could not verify whether ${scope} is excluded, so it is treated as excluded.`
        : `Access denied by host policy: ${path} is inside ${scope}, which is excluded from the agent's context by the ` +
            `marker file ${d.marker ?? scope}. Nothing in this directory can be read, listed, searched or written by any tool.`;
    case "control":
      return (
        `Write denied by host policy: ${path} is a protected control location (${controlName(d.rule)}). ` +
        "The file tools never create, change or delete it."
      );
  }
}

function controlName(rule: string): string {
  for (const c of CONTROL_DIRS) if (rule.startsWith(`control:${c.rule}:`)) return c.label;
  if (rule.startsWith("control:marker-file:")) return "a .context-exclude marker file";
  if (rule.startsWith("control:agent-dir:")) return "the host's agent directory";
  return "the installed pi-context-kit package";
}

function alternatives(d: Denied, policy: Policy): string {
  switch (d.kind) {
    case "outside-root":
      return `Permitted alternatives: work with files inside ${policy.root}, or ask the user to provide what you need from outside it.`;
    case "marker":
      return (
        `Permitted alternatives: work with files outside ${displayPath(policy.root, d.scope)}, ask the user for the ` +
        "information you need from it, or continue the task without it."
      );
    case "control":
      return "Permitted alternatives: change application files elsewhere in the project, or ask the user to change policy and configuration files.";
  }
}

function unresolvableResult(u: Unresolvable, policy: Policy): ToolResult<FileIssueDetails> {
  const detail = u.code === "PATH_TOO_LONG" ? "ENAMETOOLONG" : "ELOOP";
  return fileIssueResult({ kind: "issue", code: u.code, detail }, u.path, policy.root);
}

/**
 * The host-authored result of a refused call. The first denial of a rule carries the marker's guidance (as labelled
 * project data); later ones, through any alias or tool, carry the running count and omit it. A path that cannot be
 * resolved at all is a file error, not a denial.
 */
export function denialResult(
  d: Refused,
  policy: Policy,
  denials: DenialTracker,
): ToolResult<DenialDetails | FileIssueDetails> {
  if (d.kind === "unresolvable") return unresolvableResult(d, policy);
  const details: DenialDetails = {
    code: ACCESS_DENIED,
    status: d.status,
    blocked: true,
    retryable: false,
    scope: d.scope,
    rule: d.rule,
    path: d.path,
    op: d.op,
    target: d.lexicalPath,
  };
  const note = denials.note(denialKey(details));
  const parts = [headline(d, policy)];
  if (note.first) {
    if (d.kind === "marker" && d.marker !== undefined) {
      const guidance = policy.markerGuidance(d.scope);
      if (guidance.ok && guidance.text.trim() !== "") {
        parts.push(`Guidance from the marker file:\n${labelProjectData(d.marker, guidance)}`);
        details.guidanceShown = true;
      }
    }
  } else {
    details.previouslyBlocked = true;
    details.scopeCount = note.count;
    parts.push(
      `This scope was already blocked (${note.count} denied attempts so far). Every path, alias, spelling and tool ` +
        "that reaches it is denied the same way, so do not retry it. Use the permitted alternatives instead.",
    );
  }
  parts.push(alternatives(d, policy));
  return textResult(parts.join("\n\n"), details);
}
