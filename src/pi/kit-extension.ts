import { join } from "node:path";
import type { ExtensionFactory } from "@mariozechner/pi-coding-agent";
import { loadHostCapabilities, type MutationQueue } from "../tools/index.js";
import { agentDirFromEnv } from "./agent-dir.js";
import { createContextKitExtension } from "./extension.js";
import { loadHostModule, versionAtLeast } from "./host.js";
import { nestedDenialsPlugin } from "./nested-denials.js";
import { protectionPlugin } from "./protection.js";
import { sessionLeasePlugin } from "./session-lease-plugin.js";
import type { SettleGate } from "./settle-gate.js";
import { tuiPlugin } from "./tui/tui-plugin.js";
import { verificationPlugin } from "./verification.js";

export interface KitExtensionOptions {
  /** Policy root; default: the session's working directory. */
  policyRoot?: string;
  /** Where `context-kit-host-tools.json` is looked for; default: the host's agent directory. */
  agentDir?: string;
  /** Closed while a run and its end-of-run work are in progress (see `holdPromptsUntilSettled`). */
  gate?: SettleGate;
}

export { agentDirFromEnv } from "./agent-dir.js";

/**
 * The whole kit as one extension: state and projections, stall recovery, directory protection (shell off, guarded
 * file tools), host capabilities and completion verification. Malformed host capabilities throw, blocking startup.
 */
export function createKitExtension(options: KitExtensionOptions = {}): ExtensionFactory {
  return async (pi) => {
    const agentDir = options.agentDir ?? agentDirFromEnv();
    const projectRoot = options.policyRoot ?? process.cwd();
    const capabilities = await loadHostCapabilities({ projectRoot, agentDir });
    const host = await loadHostModule().catch(() => ({}) as Record<string, unknown>);
    const queue = host.withFileMutationQueue as MutationQueue | undefined;
    const protection = protectionPlugin({
      ...(options.policyRoot ? { policyRoot: options.policyRoot } : {}),
      ...(queue ? { withMutationQueue: queue } : {}),
      hostTools: capabilities.tools,
      agentDir,
      findGlobs: versionAtLeast(typeof host.VERSION === "string" ? host.VERSION : undefined, "1.6")
        ? "relative"
        : "anywhere",
    });
    const verification = verificationPlugin(() => capabilities.tools);
    const tui = tuiPlugin({
      ...(options.policyRoot ? { policyRoot: options.policyRoot } : {}),
      agentDir,
      reportDir: join(agentDir, "context-kit", "reports"),
    });
    const plugins = [protection, nestedDenialsPlugin, verification, sessionLeasePlugin(), tui];
    await createContextKitExtension({ plugins, ...(options.gate ? { gate: options.gate } : {}) })(pi);
  };
}

export default createKitExtension();
