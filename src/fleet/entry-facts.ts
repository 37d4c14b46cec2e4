import { hash } from "node:crypto";
import { denialOf } from "../../reducers/contract/tool-details.js";
import { canonicalArgs } from "../detect/tool-loop-keys.js";
import { kitRecordOf } from "../fold/kit-records.js";
import { textOf } from "../fold/to-event.js";
import type { SessionEntry } from "../log/entry-types.js";
import type { Row } from "./tables.js";

/** A model request as the file records it: the assistant reply and the leaf whose view was sent. */
export interface RequestFact {
  requestId: string;
  leafId: string | null;
  model: string | null;
  provider: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  at: string | null;
  text: string | null;
}

export interface ToolCallFact {
  entryId: string;
  requestId: string;
  callId: string;
  tool: string;
  argsSha256: string;
  nested: boolean;
  isError: boolean | null;
  errorCode: string | null;
  resultEntryId: string | null;
}

/**
 * The facts of single entries, taken in file order as the reader yields them (no state needed): model requests,
 * tool calls with their results, denials. Branch facts come from the folded leaf states (see `branch-facts.ts`).
 */
export class EntryFacts {
  readonly requests: RequestFact[] = [];
  readonly toolCalls: ToolCallFact[] = [];
  readonly denials: Row[] = [];
  /** Results whose call was taken before this collector started (an appended tail): call id -> outcome. */
  readonly lateResults: { callId: string; isError: boolean; errorCode: string | null; resultEntryId: string }[] = [];
  /** Recorded request digests were seen: their status needs the view recomputed (the `check` path). */
  sawDigest = false;
  private readonly openCalls = new Map<string, ToolCallFact>();

  /**
   * `argsHashes`: arguments (canonical JSON) -> their SHA-256, which an indexer may share between the files it reads:
   * sessions repeat their calls (reads, test runs), and so do a fleet's agents.
   */
  constructor(
    private readonly file: string,
    private readonly withText: boolean,
    private readonly argsHashes: ArgsHashes = new ArgsHashes(),
  ) {}

  take(entry: SessionEntry): void {
    if (entry.type === "custom") {
      if (kitRecordOf(entry)?.type === "requestDigest") this.sawDigest = true;
      return;
    }
    if (entry.type !== "message") return;
    const message = entry.message as unknown as Record<string, unknown> | null;
    if (!message || typeof message !== "object") return;
    if (message.role === "assistant") this.takeAssistant(entry, message);
    else if (message.role === "toolResult") this.takeResult(entry, message);
  }

  private takeAssistant(entry: SessionEntry, message: Record<string, unknown>): void {
    const usage = (message.usage ?? {}) as Record<string, unknown>;
    const parent = entry.parentId;
    this.requests.push({
      requestId: entry.id,
      leafId: parent === undefined || parent === entry.id ? null : parent,
      model: typeof message.model === "string" ? message.model : null,
      provider: typeof message.provider === "string" ? message.provider : null,
      inputTokens: typeof usage.input === "number" ? usage.input : null,
      outputTokens: typeof usage.output === "number" ? usage.output : null,
      at: typeof entry.timestamp === "string" ? entry.timestamp : null,
      text: this.withText ? textOf(message as never) : null,
    });
    const content = Array.isArray(message.content) ? message.content : [];
    for (const block of content) {
      if (block?.type !== "toolCall") continue;
      const call = block as { id?: unknown; name?: unknown; arguments?: unknown };
      const fact: ToolCallFact = {
        entryId: entry.id,
        requestId: entry.id,
        callId: String(call.id),
        tool: String(call.name ?? ""),
        argsSha256: this.argsHashes.of(call.arguments),
        nested: carriesCalls(call.arguments),
        isError: null,
        errorCode: null,
        resultEntryId: null,
      };
      this.toolCalls.push(fact);
      this.openCalls.set(fact.callId, fact);
    }
  }

  private takeResult(entry: SessionEntry, message: Record<string, unknown>): void {
    const callId = String(message.toolCallId);
    const details = message.details as Record<string, unknown> | undefined;
    const isError = message.isError === true;
    const errorCode = details && typeof details.code === "string" ? details.code : null;
    const call = this.openCalls.get(callId);
    if (call) {
      this.openCalls.delete(callId);
      call.isError = isError;
      call.errorCode = errorCode;
      call.resultEntryId = entry.id;
    } else {
      this.lateResults.push({ callId, isError, errorCode, resultEntryId: entry.id });
    }
    const denial = denialOf(details);
    if (denial) {
      this.denials.push([
        this.file,
        entry.id,
        String(message.toolName ?? ""),
        denial.rule,
        denial.scope,
        typeof denial.scopeCount === "number" ? denial.scopeCount : 1,
        typeof entry.timestamp === "string" ? entry.timestamp : null,
      ]);
    }
  }
}

/** Longer arguments (a file written whole, a long edit) are hashed each time, not kept. */
const REMEMBERED_CHARS = 1024;

/**
 * Tool call arguments' SHA-256 (of their canonical JSON), remembered for up to `most` distinct arguments of at most
 * `REMEMBERED_CHARS` characters.
 */
export class ArgsHashes {
  private readonly known = new Map<string, string>();

  constructor(private readonly most = 50_000) {}

  /** How many arguments are remembered. */
  get size(): number {
    return this.known.size;
  }

  of(args: unknown): string {
    const canonical = canonicalArgs(args);
    if (canonical.length > REMEMBERED_CHARS) return sha256(canonical);
    let hex = this.known.get(canonical);
    if (hex === undefined) {
      if (this.known.size >= this.most) this.known.clear();
      hex = sha256(canonical);
      this.known.set(canonical, hex);
    }
    return hex;
  }
}

export function sha256(text: string): string {
  return hash("sha256", text, "hex");
}

/** A wrapper call (e.g. a parallel or batch tool) whose arguments carry tool calls of their own. */
function carriesCalls(args: unknown): boolean {
  if (args === null || typeof args !== "object") return false;
  for (const value of Object.values(args)) {
    if (!Array.isArray(value)) continue;
    for (const item of value) {
      if (item && typeof item === "object" && ("recipient_name" in item || "tool" in item || "toolName" in item)) {
        return true;
      }
    }
  }
  return false;
}
