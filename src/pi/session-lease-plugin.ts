import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { acquireLease, releaseLease } from "../log/session-lease.js";
import type { KitPlugin } from "./kit-hooks.js";

/**
 * While the kit runs inside a host, it holds a lease on the session file it works on (`<file>.context-kit.lease`,
 * the owner's pid), so `context-kit recover` can tell the file is in use even when no command line names it
 * (`-c`, `-r`, `/resume`). Switching sessions moves the lease; shutdown and process exit remove it.
 */
/** Leases to remove on process exit: one listener for every kit instance of the process, however many sessions. */
const heldAtExit = new Set<() => void>();
let exitHooked = false;

function releaseAtExit(release: () => void): void {
  heldAtExit.add(release);
  if (exitHooked) return;
  exitHooked = true;
  process.once("exit", () => {
    for (const each of heldAtExit) each();
  });
}

export function sessionLeasePlugin(): KitPlugin {
  return (pi: ExtensionAPI, kit) => {
    let held: string | null = null;
    const release = () => {
      if (held) releaseLease(held);
      held = null;
      heldAtExit.delete(release);
    };
    const take = (_event: unknown, ctx: ExtensionContext) => {
      try {
        const file = ctx.sessionManager.getSessionFile();
        if (file === held) return;
        release();
        if (!file) return;
        acquireLease(file);
        held = file;
        releaseAtExit(release);
      } catch (error) {
        kit.report(error, "session lease", ctx);
      }
    };
    pi.on("session_start", take);
    pi.on("agent_start", take);
    pi.on("session_shutdown", release);
    return {};
  };
}
