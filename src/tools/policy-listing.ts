import { relative } from "node:path";
import type { ControlPath, Policy } from "../policy/index.js";
import { resolveToolDeps } from "./tool-deps.js";
import { walkTree } from "./walk.js";

export interface ExcludedScope {
  /** Relative to the policy root (`.` for the root itself). */
  scope: string;
  /** The marker's guidance, bounded as for the model; null when it is empty or unreadable. */
  guidance: string | null;
}

export interface PolicyListing {
  root: string;
  excluded: ExcludedScope[];
  /** The walk hit its entry bound: scopes deeper in the tree may be missing. */
  partial: boolean;
  /** Every path the file tools never write, as the policy enforces it. */
  control: readonly ControlPath[];
}

const GUIDANCE_PREVIEW = 200;

function preview(policy: Policy, scope: string): string | null {
  const text = policy.markerGuidance(scope);
  if (!text.ok) return null;
  const flat = text.text.replace(/\s+/g, " ").trim();
  if (flat === "") return null;
  return flat.length > GUIDANCE_PREVIEW ? `${flat.slice(0, GUIDANCE_PREVIEW)}…` : flat;
}

/** Every excluded scope below the policy root (walked the way the guarded tools walk, pruning before reading). */
export async function listPolicy(policy: Policy, signal?: AbortSignal): Promise<PolicyListing> {
  const deps = resolveToolDeps({ policy, denials: { note: () => ({ count: 0, first: false }) }, skipDirNames: [] });
  const walk = await walkTree(policy.root, deps, signal, () => undefined);
  const inside = walk.pruned.filter((path) => !relative(policy.root, path).startsWith(".."));
  const excluded = [...new Set(inside)].sort().map((scope) => ({
    scope: relative(policy.root, scope) || ".",
    guidance: preview(policy, scope),
  }));
  return {
    root: policy.root,
    excluded,
    partial: walk.stopped,
    control: policy.control,
  };
}

export function formatPolicyListing(listing: PolicyListing): string {
  const lines = [`policy root ${listing.root}`];
  if (listing.excluded.length === 0) lines.push("excluded scopes: none");
  else lines.push(`excluded scopes (${listing.excluded.length}):`);
  for (const { scope, guidance } of listing.excluded) {
    lines.push(`  ${scope}/${guidance ? `  — ${guidance}` : ""}`);
  }
  if (listing.partial) lines.push("  (the walk stopped at its entry bound; deeper scopes may be missing)");
  lines.push("control paths (never written):");
  for (const { path, why } of listing.control) lines.push(`  ${path}  — ${why}`);
  return lines.join("\n");
}
