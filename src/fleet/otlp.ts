import { createHash } from "node:crypto";
import type { Attributes, HrTime, SpanContext } from "@opentelemetry/api";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { denialOf } from "../../reducers/contract/tool-details.js";
import { kitRecordOf } from "../fold/kit-records.js";
import type { SessionEntry } from "../log/entry-types.js";
import { kitVersion } from "../package-root.js";
import type { LoadedSession } from "../session.js";

/** What the OTLP exporter and serializer read of a span (the SDK's `ReadableSpan`). */
export interface FleetSpan {
  name: string;
  kind: number;
  spanContext: () => SpanContext;
  parentSpanContext?: SpanContext;
  startTime: HrTime;
  endTime: HrTime;
  status: { code: number; message?: string };
  attributes: Attributes;
  links: [];
  events: { name: string; time: HrTime; attributes: Attributes }[];
  duration: HrTime;
  ended: true;
  resource: ReturnType<typeof resourceFromAttributes>;
  instrumentationScope: { name: string; version: string };
  droppedAttributesCount: 0;
  droppedEventsCount: 0;
  droppedLinksCount: 0;
}

const SPAN_KIND_INTERNAL = 0;
const SPAN_KIND_CLIENT = 2;
const STATUS_UNSET = 0;
const STATUS_ERROR = 2;

const KIT_EVENTS: Record<string, string> = {
  recoveryMarker: "context_kit.recovery_marker",
  toolLoopMarker: "context_kit.tool_loop_marker",
  toolLoopStop: "context_kit.tool_loop_stop",
  stallStop: "context_kit.stall_stop",
  completionReport: "context_kit.verification_report",
  verificationIncomplete: "context_kit.verification_incomplete",
};

function hex(text: string, chars: number): string {
  return createHash("sha256").update(text).digest("hex").slice(0, chars);
}

function hrTime(ms: number): HrTime {
  const whole = Math.floor(ms / 1000);
  return [whole, Math.round((ms - whole * 1000) * 1e6)];
}

function msOf(entry: SessionEntry | undefined, fallback: number): number {
  const t = entry ? Date.parse(entry.timestamp) : Number.NaN;
  return Number.isNaN(t) ? fallback : t;
}

/**
 * The spans of one session file, following OpenTelemetry's GenAI conventions: a trace per branch, rooted at an
 * `invoke_agent` span; a `chat` span per model request (the assistant reply), an `execute_tool` span per tool call
 * under it; the kit's decisions as events (denials on their tool span, markers and stops on the root span). Trace
 * and span ids are derived from the session id, the leaf and the entry ids, so the same file gives the same spans.
 */
export function sessionSpans(file: string, session: LoadedSession): FleetSpan[] {
  const { tree, log } = session;
  const sessionId = log.header?.id ?? file;
  const resource = resourceFromAttributes({
    "service.name": "pi",
    "gen_ai.conversation.id": sessionId,
    "context_kit.file": file,
  });
  const scope = { name: "pi-context-kit", version: kitVersion() };
  const spans: FleetSpan[] = [];
  for (const leafId of tree.leaves()) {
    const path = tree.pathTo(leafId);
    const traceId = hex(`trace:${sessionId}:${leafId}`, 32);
    const context = (spanId: string): SpanContext => ({ traceId, spanId, traceFlags: 1 });
    const rootId = hex(`${traceId}:root`, 16);
    const start = msOf(path[0], Date.parse(log.header?.timestamp ?? "") || 0);
    const end = Math.max(start, msOf(path[path.length - 1], start));
    const span = (
      name: string,
      kind: number,
      spanId: string,
      parent: string,
      from: number,
      to: number,
      attributes: Attributes,
    ): FleetSpan => ({
      name,
      kind,
      spanContext: () => context(spanId),
      parentSpanContext: context(parent),
      startTime: hrTime(from),
      endTime: hrTime(Math.max(from, to)),
      duration: hrTime(Math.max(0, to - from)),
      status: { code: STATUS_UNSET },
      attributes,
      links: [],
      events: [],
      ended: true,
      resource,
      instrumentationScope: scope,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    });
    const root = span("invoke_agent pi", SPAN_KIND_INTERNAL, rootId, rootId, start, end, {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "pi",
      "gen_ai.conversation.id": sessionId,
      "context_kit.file": file,
      "context_kit.leaf_id": leafId,
      "context_kit.active": leafId === tree.activeLeafId,
    });
    delete root.parentSpanContext;
    spans.push(root);
    const tools = new Map<string, FleetSpan>();
    let previous = start;
    for (const entry of path) {
      const at = msOf(entry, previous);
      if (entry.type === "message") {
        const m = entry.message as unknown as Record<string, unknown>;
        if (m.role === "assistant") {
          const chatId = hex(`${traceId}:${entry.id}`, 16);
          const usage = (m.usage ?? {}) as Record<string, unknown>;
          const model = typeof m.model === "string" ? m.model : "";
          const attributes: Attributes = {
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": model,
            "gen_ai.response.model": model,
            "gen_ai.provider.name": typeof m.provider === "string" ? m.provider : "",
            "context_kit.entry_id": entry.id,
          };
          if (typeof usage.input === "number") attributes["gen_ai.usage.input_tokens"] = usage.input;
          if (typeof usage.output === "number") attributes["gen_ai.usage.output_tokens"] = usage.output;
          if (typeof m.stopReason === "string") attributes["gen_ai.response.finish_reasons"] = [m.stopReason];
          const chat = span(`chat ${model}`.trim(), SPAN_KIND_CLIENT, chatId, rootId, previous, at, attributes);
          if (m.stopReason === "error") chat.status = { code: STATUS_ERROR, message: String(m.errorMessage ?? "") };
          spans.push(chat);
          for (const block of Array.isArray(m.content) ? m.content : []) {
            if (block?.type !== "toolCall") continue;
            const call = block as { id?: unknown; name?: unknown };
            const callId = String(call.id);
            const tool = span(
              `execute_tool ${String(call.name ?? "")}`,
              SPAN_KIND_INTERNAL,
              hex(`${traceId}:${entry.id}:${callId}`, 16),
              chatId,
              at,
              at,
              {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": String(call.name ?? ""),
                "gen_ai.tool.call.id": callId,
                "context_kit.entry_id": entry.id,
              },
            );
            spans.push(tool);
            tools.set(callId, tool);
          }
        } else if (m.role === "toolResult") {
          const tool = tools.get(String(m.toolCallId));
          if (tool) {
            tool.endTime = hrTime(Math.max(at, hrMs(tool.startTime)));
            tool.duration = hrTime(Math.max(0, at - hrMs(tool.startTime)));
            if (m.isError === true) tool.status = { code: STATUS_ERROR, message: "the tool reported an error" };
            const denial = denialOf(m.details);
            if (denial) {
              tool.events.push({
                name: "context_kit.denial",
                time: hrTime(at),
                attributes: {
                  "context_kit.rule": denial.rule,
                  "context_kit.scope": denial.scope,
                  "context_kit.entry_id": entry.id,
                },
              });
            }
          }
        }
      } else {
        const record = kitRecordOf(entry);
        const name = record ? KIT_EVENTS[record.type] : undefined;
        if (name) root.events.push({ name, time: hrTime(at), attributes: { "context_kit.entry_id": entry.id } });
      }
      previous = at;
    }
  }
  return spans;
}

function hrMs(t: HrTime): number {
  return t[0] * 1000 + t[1] / 1e6;
}
