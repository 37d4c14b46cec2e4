import { ACCESS_DENIED, type DenialDetails } from "../../reducers/contract/tool-details.js";
import { labelProjectData } from "../policy/bounded-text.js";
import type { Denied } from "../policy/decision.js";
import type { Policy } from "../policy/policy.js";
import type { DenialTracker } from "./denial-tracker.js";
import { displayPath } from "./display-path.js";
import { type ToolResult, textResult } from "./tool-types.js";

function headline(d: Denied, policy: Policy): string {
  const path = JSON.stringify(d.input);
  const scope = displayPath(policy.root, d.scope);
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
  if (rule.startsWith("control:pi-dir:")) return "a .pi configuration directory";
  if (rule.startsWith("control:marker-file:")) return "a .context-exclude marker file";
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

/**
 * The host-authored result of a denied call. The first denial in a scope carries the marker's guidance (as labelled
 * project data); later ones, through any alias or tool, carry the running count and omit it.
 */
export function denialResult(d: Denied, policy: Policy, denials: DenialTracker): ToolResult<DenialDetails> {
  const note = denials.note(d.scope);
  const details: DenialDetails = {
    code: ACCESS_DENIED,
    status: d.status,
    blocked: true,
    retryable: false,
    scope: d.scope,
    rule: d.rule,
    path: d.path,
  };
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
