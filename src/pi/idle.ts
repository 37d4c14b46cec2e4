import type { ExtensionContext } from "@mariozechner/pi-coding-agent";

/** How long a finished run may take to become idle before the kit gives up waiting. */
const IDLE_WAIT_MS = 2000;

/**
 * The host runs `agent_end` handlers on its event queue, which can reach them before the run has finished; a message
 * sent then would be steered into a run that is already over. Waiting inside the handler keeps the handler (and the
 * kit's settle gate) open until the message is out. Resolves false when the context went stale meanwhile (`pi -p`
 * disposes the runtime as soon as the prompt resolves): the caller then sends nothing, and a branch that still ends
 * in a stall gets its marker at the start of the next prompt.
 */
export async function untilIdle(ctx: ExtensionContext, maxMs = IDLE_WAIT_MS): Promise<boolean> {
  const end = Date.now() + maxMs;
  try {
    while (!ctx.isIdle() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 5));
    return true;
  } catch {
    return false;
  }
}
