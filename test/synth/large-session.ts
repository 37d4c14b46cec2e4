import { closeSync, openSync, writeSync } from "node:fs";
import { Random } from "./random.js";

/**
 * Large synthetic Pi sessions (format v3) for the benchmark and for tests, written straight to a file.
 *
 * Deterministic: the same options give the same bytes on every machine (seeded PRNG, ids from a bijective hash of
 * the entry index, times from a fixed base). Streaming: lines are built one by one and encoded into a 1 MB buffer that is flushed when full, so a
 * 100k-entry file (about 100 MB) needs no more memory than its ids. Entry sizes follow real sessions: user prompts
 * of a few hundred bytes, assistant replies with tool calls and usage, tool results of one to a few kilobytes (file
 * reads, grep hits, test runs), with some non-Latin-1 text as in every real transcript. Every record validates
 * against `schemas/`, so `inspect` reports no diagnostics.
 */
export interface LargeSessionOptions {
  /** Entries after the header (exact). */
  entries: number;
  /** Leaves of the tree: 1 (default) is one linear branch; n > 1 forks n - 1 branches off earlier turns. */
  leaves?: number;
  seed?: number;
  sessionId?: string;
  cwd?: string;
}

export interface LargeSessionInfo {
  file: string;
  entries: number;
  bytes: number;
  /** The last entry of each branch, in file order; the last one is the active leaf. */
  leafIds: string[];
  activeLeafId: string;
}

const BASE_MS = Date.UTC(2026, 0, 12, 9, 30, 0);
const CHUNK_BYTES = 1 << 20;

const WORDS = (
  "the a to of and in is it that for on with as this be are not we you can but at by from or if when then " +
  "function test file module build error type value return import export config session branch state leaf " +
  "entry reducer fold view request model tool result output check path folder parser schema line offset " +
  "header compaction summary label marker recovery policy denial verification revision cache index tree " +
  "please make sure keep update change fix add remove rename move write read run compile deploy review"
).split(" ");
const UNICODE_WORDS = ["→", "—", "✓", "café", "naïve", "中文", "ü", "…", "✗", "🙂"];
const TOOLS = ["read", "read", "read", "grep", "bash", "bash", "edit", "ls", "write"];
const DIRS = ["src", "src/log", "src/tree", "src/fold", "src/cli", "test", "test/log", "reducers", "projections"];
const NAMES = ["index", "reader", "tree", "fold", "view", "schema", "session", "append", "lines", "policy", "check"];

/** Mixes a 32-bit counter into an 8-hex id; a bijection on 32 bits, so ids never collide. */
function hexId(n: number, salt: number): string {
  let x = (n ^ salt) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d) >>> 0;
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b) >>> 0;
  x = (x ^ (x >>> 16)) >>> 0;
  return x.toString(16).padStart(8, "0");
}

/** A fixed pool of plausible source lines; tool results quote windows of it. */
function codePool(rnd: Random): string[] {
  const lines: string[] = [];
  for (let i = 0; i < 2048; i++) {
    const name = rnd.pick(NAMES);
    const word = rnd.pick(WORDS);
    switch (rnd.int(8)) {
      case 0:
        lines.push(`import { ${name}${i % 7} } from "./${name}.js";`);
        break;
      case 1:
        lines.push(`export function ${name}${capital(word)}(input: ${capital(name)}Input): ${capital(word)} {`);
        break;
      case 2:
        lines.push(`  const ${word}${i % 13} = ${name}.get(${JSON.stringify(word)}) ?? [];`);
        break;
      case 3:
        lines.push(`  if (${word}.length > ${i % 97}) return { ok: false, reason: "${word} ${name} too long" };`);
        break;
      case 4:
        lines.push(`  // ${prosePlain(rnd, 6 + rnd.int(10))}`);
        break;
      case 5:
        lines.push(`  for (const item of ${name}.${word}s) total += item.size;`);
        break;
      case 6:
        lines.push("}");
        break;
      default:
        lines.push(`  ${word}Count += ${name}.${word}(${i % 31}, "${rnd.pick(UNICODE_WORDS)}");`);
    }
  }
  return lines;
}

function capital(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function prosePlain(rnd: Random, words: number): string {
  let out = "";
  for (let i = 0; i < words; i++) out += (i === 0 ? "" : " ") + rnd.pick(WORDS);
  return out;
}

/** Sentences of common words, now and then a non-Latin-1 one. */
function prose(rnd: Random, words: number): string {
  let out = "";
  let sentence = 0;
  for (let i = 0; i < words; i++) {
    const word = rnd.chance(0.02) ? rnd.pick(UNICODE_WORDS) : rnd.pick(WORDS);
    if (sentence === 0) out += (i === 0 ? "" : " ") + capital(word);
    else out += ` ${word}`;
    sentence++;
    if (sentence > 6 && rnd.chance(0.15)) {
      out += ".";
      sentence = 0;
    }
  }
  return sentence === 0 ? out : `${out}.`;
}

type Json = Record<string, unknown>;

type ToolCallBlock = { type: "toolCall"; id: string; name: string; arguments: Json };

/** Writes one session; see `writeLargeSession`. */
class LargeSessionWriter {
  private readonly rnd: Random;
  private readonly pool: string[];
  private readonly salt: number;
  private readonly fd: number;
  private readonly chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;
  bytes = 0;
  count = 0;
  leaf: string | null = null;
  /** Ends of finished turns that already have a child: forking there adds a leaf. */
  readonly forkable: string[] = [];
  private lastTurnEnd: string | null = null;
  private callCounter = 0;
  /** Entries allowed so far: the end of the segment being written. */
  private limit: number;

  constructor(
    file: string,
    private readonly options: LargeSessionOptions,
  ) {
    const seed = options.seed ?? 1;
    this.rnd = new Random(seed);
    this.pool = codePool(new Random(seed ^ 0x5eed));
    this.salt = Math.imul(seed, 0x9e3779b1) >>> 0;
    this.limit = options.entries;
    this.fd = openSync(file, "w");
  }

  get full(): boolean {
    return this.count >= this.limit;
  }

  header(): void {
    const header = {
      type: "session",
      version: 3,
      id: this.options.sessionId ?? `0198f3c2-${hexId(0, this.salt).slice(0, 4)}-7000-8000-${hexId(1, this.salt)}0000`,
      timestamp: new Date(BASE_MS).toISOString(),
      cwd: this.options.cwd ?? "/home/dev/projects/context-kit",
    };
    this.line(JSON.stringify(header));
  }

  private line(text: string): void {
    const room = text.length * 3 + 1;
    if (room > this.chunk.length - this.used) this.flush();
    if (room > this.chunk.length) {
      const whole = Buffer.from(`${text}\n`, "utf8");
      writeSync(this.fd, whole);
      this.bytes += whole.length;
      return;
    }
    const written = this.chunk.write(text, this.used, "utf8");
    this.chunk[this.used + written] = 0x0a;
    this.used += written + 1;
    this.bytes += written + 1;
  }

  private flush(): void {
    if (this.used > 0) writeSync(this.fd, this.chunk, 0, this.used);
    this.used = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  private ms(): number {
    return BASE_MS + (this.count + 1) * 2500;
  }

  /** Appends one entry under the current leaf; returns its id, or null when the session is full. */
  /** `body` holds the fields after `type`, `id`, `parentId` and `timestamp`, in the host's key order. */
  private entry(type: string, body: Json): string | null {
    if (this.full) return null;
    const id = hexId(this.count + 2, this.salt);
    const parentId = this.leaf;
    if (parentId !== null && parentId === this.lastTurnEnd) {
      this.forkable.push(parentId);
      this.lastTurnEnd = null;
    }
    const parent = parentId === null ? "null" : `"${parentId}"`;
    const head = `{"type":"${type}","id":"${id}","parentId":${parent},"timestamp":"${new Date(this.ms()).toISOString()}"`;
    const rest = JSON.stringify(body);
    this.line(rest === "{}" ? `${head}}` : `${head},${rest.slice(1)}`);
    this.count++;
    this.leaf = id;
    return id;
  }

  private message(message: Json): string | null {
    message.timestamp = this.ms();
    return this.entry("message", { message });
  }

  at(id: string): void {
    this.leaf = id;
  }

  settings(until: number): void {
    this.limit = until;
    this.entry("model_change", { provider: "anthropic", modelId: "claude-sonnet-4-5" });
    this.entry("thinking_level_change", { thinkingLevel: "medium" });
  }

  branchSummary(fromId: string, until: number): void {
    this.limit = until;
    this.entry("branch_summary", { fromId, summary: `Abandoned approach: ${prose(this.rnd, 30 + this.rnd.int(60))}` });
  }

  /** One user request answered by a few tool rounds and a final reply. */
  turn(): void {
    const rnd = this.rnd;
    let text = prose(rnd, 10 + rnd.int(80));
    if (rnd.chance(0.15)) text += `\n\n\`\`\`ts\n${this.window(4 + rnd.int(12))}\n\`\`\``;
    this.message({ role: "user", content: [{ type: "text", text }] });
    const rounds = 1 + rnd.int(6);
    for (let r = 0; r < rounds && !this.full; r++) this.toolRound();
    if (this.full) return;
    this.message(this.assistant([{ type: "text", text: prose(rnd, 20 + rnd.int(160)) }], "stop"));
    this.lastTurnEnd = this.leaf;
    if (rnd.chance(0.04)) this.entry("custom", { customType: "other-ext/state", data: { turn: this.count, ok: true } });
    if (rnd.chance(0.01)) this.entry("label", { targetId: this.leaf, label: `checkpoint ${this.count}` });
    if (rnd.chance(0.005)) this.entry("session_info", { name: `session ${prosePlain(rnd, 3)}` });
  }

  private assistant(content: Json[], stopReason: string): Json {
    const rnd = this.rnd;
    const input = 2000 + rnd.int(60000);
    const output = 20 + rnd.int(900);
    return {
      role: "assistant",
      content,
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: {
        input: rnd.int(8),
        output,
        cacheRead: input,
        cacheWrite: rnd.int(3000),
        totalTokens: input + output,
        cost: { input: 0.000006, output: output * 0.000015, cacheRead: input * 3e-7, cacheWrite: 0.0011, total: 0.02 },
      },
      stopReason,
    };
  }

  private toolRound(): void {
    const rnd = this.rnd;
    const content: Json[] = [];
    if (rnd.chance(0.2))
      content.push({ type: "thinking", thinking: prose(rnd, 20 + rnd.int(80)), thinkingSignature: "sig" });
    if (rnd.chance(0.5)) content.push({ type: "text", text: prose(rnd, 5 + rnd.int(25)) });
    const calls: ToolCallBlock[] = [];
    const parallel = rnd.chance(0.15) ? 2 : 1;
    for (let i = 0; i < parallel; i++) calls.push(this.toolCall(rnd.pick(TOOLS)));
    this.message(this.assistant([...content, ...calls], "toolUse"));
    for (const call of calls) {
      if (this.full) return;
      const { text, details } = this.toolOutput(call);
      const isError = rnd.chance(0.05);
      this.message({
        role: "toolResult",
        toolCallId: call.id,
        toolName: call.name,
        content: [{ type: "text", text }],
        details,
        isError,
      });
    }
  }

  private path(): string {
    return `${this.rnd.pick(DIRS)}/${this.rnd.pick(NAMES)}.ts`;
  }

  private toolCall(name: string): ToolCallBlock {
    const rnd = this.rnd;
    const id = `toolu_${hexId(++this.callCounter, this.salt ^ 0xc0ffee)}${hexId(this.callCounter, this.salt)}`;
    let args: Json;
    switch (name) {
      case "grep":
        args = { pattern: rnd.pick(WORDS), path: rnd.pick(DIRS) };
        break;
      case "bash":
        args = { command: rnd.pick(["npm test", "npx tsc --noEmit", "git status --short", "npm run build"]) };
        break;
      case "edit":
        args = { path: this.path(), oldText: this.window(1 + rnd.int(4)), newText: this.window(1 + rnd.int(6)) };
        break;
      case "write":
        args = { path: this.path(), content: this.window(8 + rnd.int(30)) };
        break;
      case "ls":
        args = { path: rnd.pick(DIRS) };
        break;
      default:
        args = { path: this.path(), ...(rnd.chance(0.3) ? { offset: 1 + rnd.int(200), limit: 80 } : {}) };
    }
    return { type: "toolCall", id, name, arguments: args };
  }

  private window(lines: number): string {
    const start = this.rnd.int(this.pool.length - lines);
    return this.pool.slice(start, start + lines).join("\n");
  }

  private toolOutput(call: ToolCallBlock): { text: string; details: Json } {
    const rnd = this.rnd;
    const args = call.arguments;
    switch (call.name) {
      case "grep": {
        const hits: string[] = [];
        const n = 2 + rnd.int(25);
        for (let i = 0; i < n; i++) hits.push(`${this.path()}:${1 + rnd.int(400)}: ${this.window(1).trim()}`);
        return { text: hits.join("\n"), details: { matches: n } };
      }
      case "bash": {
        const out: string[] = [`$ ${String(args.command)}`];
        const n = 4 + rnd.int(30);
        for (let i = 0; i < n; i++) {
          out.push(
            rnd.chance(0.85)
              ? ` ✓ ${this.path().replace(".ts", ".test.ts")} > ${prosePlain(rnd, 4 + rnd.int(6))} (${rnd.int(90)} ms)`
              : ` ✗ ${prosePlain(rnd, 5)}: expected ${rnd.int(9)} to be ${rnd.int(9)}`,
          );
        }
        out.push(` Tests  ${n} passed (${n})`);
        return { text: out.join("\n"), details: { exitCode: 0 } };
      }
      case "edit":
        return {
          text: `Successfully replaced text in ${String(args.path)}.`,
          details: { diff: `- ${String(args.oldText).split("\n")[0]}\n+ ${String(args.newText).split("\n")[0]}` },
        };
      case "write":
        return { text: `Successfully wrote ${String(args.content).length} bytes to ${String(args.path)}`, details: {} };
      case "ls": {
        const names: string[] = [];
        const n = 4 + rnd.int(24);
        for (let i = 0; i < n; i++) names.push(`${rnd.pick(NAMES)}${i % 5 === 0 ? "/" : ".ts"}`);
        return { text: names.join("\n"), details: {} };
      }
      default: {
        const n = 6 + rnd.int(42);
        const start = rnd.int(this.pool.length - n);
        const text = this.pool
          .slice(start, start + n)
          .map((line, i) => `${String(start + i + 1).padStart(5)}\t${line}`)
          .join("\n");
        return { text, details: { path: `${this.options.cwd ?? "/home/dev/projects/context-kit"}/${args.path}` } };
      }
    }
  }

  pickFork(): string | null {
    if (this.forkable.length === 0) return null;
    return this.rnd.pick(this.forkable);
  }

  segmentLengths(total: number, leaves: number): number[] {
    if (leaves <= 1) return [total];
    const trunk = Math.max(1, Math.round(total * 0.4));
    const weights: number[] = [];
    for (let i = 1; i < leaves; i++) weights.push(0.5 + this.rnd.next());
    const sum = weights.reduce((a, b) => a + b, 0);
    const rest = total - trunk;
    const lengths = weights.map((w) => Math.max(1, Math.floor((rest * w) / sum)));
    lengths.unshift(trunk);
    let spare = total - lengths.reduce((a, b) => a + b, 0);
    for (let i = lengths.length - 1; spare !== 0 && i >= 0; i--) {
      const take = spare > 0 ? spare : Math.max(spare, 1 - (lengths[i] as number));
      lengths[i] = (lengths[i] as number) + take;
      spare -= take;
    }
    return lengths;
  }

  /** Writes turns until the session holds `until` entries (a turn may be cut short at the end). */
  fillTo(until: number): void {
    this.limit = Math.min(until, this.options.entries);
    while (!this.full) this.turn();
  }
}

/**
 * Writes a deterministic session of exactly `options.entries` entries to `file` (overwritten). With `leaves` > 1,
 * the first 40 % is a trunk and each further branch forks off a finished turn of what is already written (after a
 * `branch_summary`, as the host's `/tree` writes one), so the file has exactly `leaves` leaves.
 */
export function writeLargeSession(file: string, options: LargeSessionOptions): LargeSessionInfo {
  const total = Math.max(0, Math.floor(options.entries));
  const leaves = Math.max(1, Math.floor(options.leaves ?? 1));
  if (leaves > 1 && total < leaves * 8)
    throw new Error(`a ${leaves}-leaf session needs at least ${leaves * 8} entries`);
  const writer = new LargeSessionWriter(file, { ...options, entries: total });
  const leafIds: string[] = [];
  try {
    writer.header();
    const lengths = writer.segmentLengths(total, leaves);
    let end = 0;
    lengths.forEach((length, i) => {
      end += length;
      if (i === 0) {
        writer.settings(end);
      } else {
        const fork = writer.pickFork();
        if (fork === null) throw new Error("no finished turn to fork from: make the session longer");
        const from = writer.leaf as string;
        writer.at(fork);
        writer.branchSummary(from, end);
      }
      writer.fillTo(end);
      leafIds.push(writer.leaf as string);
    });
  } finally {
    writer.close();
  }
  return { file, entries: writer.count, bytes: writer.bytes, leafIds, activeLeafId: leafIds[leafIds.length - 1] ?? "" };
}
