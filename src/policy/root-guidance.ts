import { labelProjectData, loadBoundedText } from "./bounded-text.js";
import { ROOT_GUIDANCE_FILES } from "./constants.js";
import type { Policy } from "./policy.js";

export interface RootGuidance {
  /** Canonical path of the file that was loaded. */
  file: string;
  text: string;
  truncated: boolean;
  size: number;
  /** The text wrapped and labelled as project data, ready to inject. */
  projectData: string;
}

/**
 * `AGENTS.md` or `CLAUDE.md` at the policy root, read through the policy and the bounded loader: a root marker, a
 * symlink leading elsewhere, binary content or a missing file all yield undefined. Call it afresh for every request.
 */
export function loadRootGuidance(policy: Policy): RootGuidance | undefined {
  for (const name of ROOT_GUIDANCE_FILES) {
    const decision = policy.decide(name, "read");
    if (!decision.allowed) continue;
    const loaded = loadBoundedText(decision.path, policy.fs);
    if (!loaded.ok) continue;
    return {
      file: decision.path,
      text: loaded.text,
      truncated: loaded.truncated,
      size: loaded.size,
      projectData: labelProjectData(decision.path, loaded),
    };
  }
  return undefined;
}
