import type { ToolLoopMarkerDetails, ToolLoopStopDetails } from "../../reducers/contract/kit-entries.js";
import type { ToolLoopSlice } from "../../reducers/state.js";
import { toolLoopReport } from "../../reducers/tool-loop.js";
import { resultText, stripVolatile } from "../detect/tool-loop-keys.js";
import { type HostMessage, toolLoopMarker, toolLoopStop } from "./host-messages.js";

const RESULT_CHARS = 300;

/** The loop's latest result as the marker quotes it: volatile parts out, whitespace collapsed, shortened. */
export function unchangedResult(slice: ToolLoopSlice): string {
  const last = slice.recent?.call;
  if (!last) return "";
  const flag = last.isError ? "(error) " : "";
  const text = stripVolatile(resultText(last.content)).replace(/\s+/g, " ");
  return `${flag}${text.length > RESULT_CHARS ? `${text.slice(0, RESULT_CHARS - 1)}…` : text || "(empty)"}`;
}

/** The marker for the loop the slice ends in; null without one. */
export function markerForLoop(
  slice: ToolLoopSlice,
  requestId: string | null,
): HostMessage<ToolLoopMarkerDetails> | null {
  const loop = toolLoopReport(slice);
  if (!loop) return null;
  return toolLoopMarker({ requestId, loop, result: unchangedResult(slice) });
}

/** The stop for a loop that went on after its marker. */
export function stopForLoop(slice: ToolLoopSlice, requestId: string | null): HostMessage<ToolLoopStopDetails> | null {
  const loop = toolLoopReport(slice);
  if (!loop) return null;
  return toolLoopStop({ requestId, loop, markerId: slice.markerId });
}
