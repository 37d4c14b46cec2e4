import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { KIT, type NestedDenialData } from "../../reducers/contract/kit-entries.js";
import { denialOf } from "../../reducers/contract/tool-details.js";
import type { KitPlugin } from "./kit-hooks.js";

interface NestedExecutionEnd {
  toolCallId: string;
  toolName: string;
  result?: { details?: unknown };
  parentToolCallId?: string;
}

/**
 * A call another tool made (`ctx.executeTool`, Pi 0.99+) leaves only its error text in the session. When the
 * policy denied it, the kit appends the denial's details as a `nested-denial` entry, so the fold counts it with
 * the model's own denials and an audit shows it.
 */
export const nestedDenialsPlugin: KitPlugin = (pi: ExtensionAPI, kit) => {
  const on = pi.on.bind(pi) as (event: string, handler: (event: NestedExecutionEnd) => void) => void;
  on("tool_execution_end", (event) => {
    try {
      if (!event.parentToolCallId) return;
      const details = denialOf(event.result?.details);
      if (!details) return;
      const data: NestedDenialData = {
        parentToolCallId: event.parentToolCallId,
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        details: { ...details },
      };
      pi.appendEntry(KIT.nestedDenial, data);
    } catch (error) {
      kit.report(error, "tool_execution_end (nested denial)");
    }
  });
  return {};
};
