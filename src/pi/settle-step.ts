import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { HostMessage } from "../kit/host-messages.js";
import { versionAtLeast } from "./host.js";
import { untilIdle } from "./idle.js";

/** What the kit does when a run is about to settle: append a visible host message, and maybe continue the run. */
export interface SettleStep {
  message: HostMessage<unknown> | null;
  continue: boolean;
}

/** `continue` needs a message: the host is asked for one more request only with something new to answer. */
export const settleStep = (message: HostMessage<unknown> | null, continueRun = false): SettleStep => ({
  message,
  continue: continueRun && message !== null,
});

/** The host line has `agent_before_settle` (Pi 0.87 and later): the kit's end-of-run work goes there. */
export function hasSettleBoundary(hostVersion: string | undefined): boolean {
  return versionAtLeast(hostVersion, "0.87");
}

/** One continuation's drafts for `agent_before_settle`: the step's message as a `custom_message` entry. */
export function boundaryResult(step: SettleStep, entries: readonly unknown[]) {
  if (!step.message) return undefined;
  const { customType, content, display, details } = step.message;
  return {
    entries: [...entries, { type: "custom_message", customType, content, display, details }],
    continue: step.continue,
  };
}

/**
 * Pi 0.73 has no settle boundary: the step is sent once the finished run is idle (`agent_end` can reach the kit
 * while the run is still closing). Nothing is sent when the context went stale meanwhile.
 */
export async function sendAfterIdle(pi: ExtensionAPI, ctx: ExtensionContext, step: SettleStep): Promise<void> {
  if (!step.message) return;
  if (!(await untilIdle(ctx))) return;
  if (step.continue) pi.sendMessage(step.message, { triggerTurn: true });
  else pi.sendMessage(step.message);
}
