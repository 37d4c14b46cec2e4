import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import type { KitEvent } from "../../reducers/contract/events.js";
import { TOOL_LOOP_REFUSED } from "../../reducers/contract/kit-entries.js";
import { refusesCall, toolLoopDecision } from "../../reducers/tool-loop.js";
import { callKey } from "../detect/tool-loop-keys.js";
import { kitReducer } from "../fold/kit-reducer.js";
import { describeCall } from "../kit/host-messages.js";
import { markerForLoop, stopForLoop } from "../kit/tool-loop-marker.js";
import type { KitPlugin } from "./kit-hooks.js";

interface ToolResultEvent {
  toolCallId: string;
  toolName: string;
  content: unknown;
  details: unknown;
  isError: boolean;
}

/**
 * Live tool-loop recovery. When a tool result completes a loop, the first time in a user request, a visible loop
 * marker is steered in before the next model request. A call that continues the loop after that marker is refused
 * (an error result, code TOOL_LOOP_REFUSED, not retryable), STALLED_REPEATED_TOOL_CALLS is steered in after it and
 * the run is aborted before the next model request. A cancelled run starts nothing.
 */
export const toolLoopPlugin: KitPlugin = (pi: ExtensionAPI, kit) => {
  /** A marker or stop was steered and is not in the session yet: never send a second one for the same loop. */
  let steered = false;
  /** A call was refused: abort before the model is asked again (aborting inside `tool_call` would replace the
   * refusal with the host's own "aborted" result on 1.x). */
  let stopPending = false;
  pi.on("turn_start", () => {
    steered = false;
  });
  pi.on("context", (_event, ctx) => {
    if (!stopPending) return undefined;
    stopPending = false;
    ctx.abort();
    return undefined;
  });
  pi.on("agent_end", () => {
    stopPending = false;
  });

  pi.on("tool_result", (event, ctx) => {
    try {
      if (steered || ctx.signal?.aborted) return undefined;
      const e = event as unknown as ToolResultEvent;
      const result: KitEvent = {
        kind: "toolResult",
        entryId: `pending-result-${e.toolCallId}`,
        toolCallId: e.toolCallId,
        toolName: e.toolName,
        isError: e.isError,
        details: e.details,
        content: e.content,
      };
      const state = kitReducer.evolve(kit.live.atLeaf(ctx.sessionManager), result);
      if (toolLoopDecision(state.toolLoop) !== "mark") return undefined;
      const marker = markerForLoop(state.toolLoop, state.request.currentRequestId);
      if (!marker) return undefined;
      // The result in hand is not an entry yet: name only the entries the session has.
      marker.details.loop.entryIds = marker.details.loop.entryIds.filter((id) => id !== result.entryId);
      steered = true;
      pi.sendMessage(marker, { deliverAs: "steer" });
    } catch (error) {
      kit.report(error, "tool_result (tool loop)", ctx);
    }
    return undefined;
  });

  pi.on("tool_call", (event, ctx) => {
    try {
      if (ctx.signal?.aborted) return undefined;
      const state = kit.live.atLeaf(ctx.sessionManager);
      if (!refusesCall(state.toolLoop, callKey(event.toolName, event.input))) return undefined;
      const stop = stopForLoop(state.toolLoop, state.request.currentRequestId);
      if (stop && !steered) {
        steered = true;
        pi.sendMessage(stop, { deliverAs: "steer" });
      }
      stopPending = true;
      const call = describeCall({ tool: event.toolName, args: event.input });
      return {
        block: true,
        reason: `${TOOL_LOOP_REFUSED} (not retryable): ${call} repeats a tool-call loop the host already reported in this request, with the same result each time. The host refused it and stopped the run.`,
      };
    } catch (error) {
      kit.report(error, "tool_call (tool loop)", ctx);
      return undefined;
    }
  });
  return {};
};
