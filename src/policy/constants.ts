/** The marker file that excludes its directory and everything below it. */
export const MARKER_NAME = ".context-exclude";

/** The bounded loader never returns more than this many bytes of marker or root guidance. */
export const GUIDANCE_MAX_BYTES = 4096;

/** Root guidance files, in the order the host's own context-file loader prefers them. */
export const ROOT_GUIDANCE_FILES = ["AGENTS.md", "CLAUDE.md"] as const;

/** Directory name that is never writable anywhere under the policy root. */
export const PI_CONTROL_DIR = ".pi";

/**
 * Folders whose contents run or load later without passing the file tools: the host's project configuration and
 * discovery folders (`.pi/` settings, extensions, skills, prompts, themes, SYSTEM.md; `.agents/skills`) and git's
 * folder (hooks, config). Never writable anywhere under the policy root; reads stay allowed.
 */
export const CONTROL_DIRS = [
  { name: PI_CONTROL_DIR, rule: "pi-dir", label: "a .pi configuration directory" },
  { name: ".agents", rule: "agents-dir", label: "an .agents skills directory the host discovers" },
  { name: ".git", rule: "git-dir", label: "a .git directory (hooks and configuration run later)" },
] as const;
