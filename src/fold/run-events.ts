import { isHostEcho } from "../../reducers/host-echo.js";
import type { RunEvent } from "../detect/promise-run.js";
import type { SessionEntry } from "../log/entry-types.js";
import { toEvent } from "./to-event.js";

/** The stall detector's view of a path's entries, as the recovery reducer feeds it (for `detect --explain`). */
export function runEventsOf(path: readonly SessionEntry[]): RunEvent[] {
  const out: RunEvent[] = [];
  for (const entry of path) {
    const event = toEvent(entry);
    switch (event.kind) {
      case "user":
        out.push({ type: "user", text: event.text ?? "" });
        break;
      case "assistant":
        if (isHostEcho(event.provider, event.model)) break;
        out.push({
          type: "assistant",
          entryId: event.entryId,
          text: event.text,
          toolCalls: event.toolCalls.length,
          stopReason: event.stopReason,
        });
        break;
      case "toolResult":
        out.push({ type: "toolResult" });
        break;
      case "kit":
        if (event.record.type === "recoveryMarker") out.push({ type: "anchor" });
        else if (event.record.type !== "stallStop") out.push({ type: "host" });
        break;
      case "hostMessage":
        out.push({ type: "host" });
        break;
      case "modelChange":
      case "thinkingChange":
      case "nestedCall":
      case "other":
        break;
      default:
        exhaustive(event);
    }
  }
  return out;
}

function exhaustive(event: never): never {
  throw new Error(`unknown event ${JSON.stringify(event)}`);
}
