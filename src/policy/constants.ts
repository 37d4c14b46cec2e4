/** The marker file that excludes its directory and everything below it. */
export const MARKER_NAME = ".context-exclude";

/** The bounded loader never returns more than this many bytes of marker or root guidance. */
export const GUIDANCE_MAX_BYTES = 4096;

/** Root guidance files, in the order the host's own context-file loader prefers them. */
export const ROOT_GUIDANCE_FILES = ["AGENTS.md", "CLAUDE.md"] as const;

/** Directory name that is never writable anywhere under the policy root. */
export const PI_CONTROL_DIR = ".pi";
