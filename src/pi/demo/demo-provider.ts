import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import type { HostPackage } from "../host.js";
import { isNewHostLine } from "../launcher.js";
import { DEMO_MODEL_ID, DEMO_PROVIDER, DEMO_REPLIES, DEMO_SCRIPT_OVER, type DemoReply } from "./demo-script.js";

/** The part of the host's pi-ai the demo uses: its offline faux provider and the message helpers. */
interface FauxApi {
  registerFauxProvider(options: Record<string, unknown>): {
    setResponses(steps: unknown[]): void;
    appendResponses(steps: unknown[]): void;
  };
  getApiProvider(api: string): { streamSimple: unknown } | undefined;
  fauxAssistantMessage(content: unknown[], options?: { stopReason?: string }): unknown;
  fauxText(text: string): unknown;
  fauxToolCall(name: string, args: Record<string, unknown>): unknown;
}

const MODEL = {
  id: DEMO_MODEL_ID,
  name: "pi-context demo (scripted, offline)",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 128_000,
  maxTokens: 16_384,
};

/** The folder of a package as Node would find it from `fromDir` (walking up through node_modules). */
function packageDirFrom(fromDir: string, name: string): string | null {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * The host's own pi-ai (the instance its CLI streams through). The 1.x line keeps the faux provider's global
 * registration in its compat entry.
 */
export async function loadHostAi(host: HostPackage): Promise<FauxApi> {
  const name = isNewHostLine(host) ? "@earendil-works/pi-ai" : "@mariozechner/pi-ai";
  const dir = packageDirFrom(host.dir, name);
  if (!dir) throw new Error(`${name} not found next to ${host.dir}`);
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { main?: string };
  const entry = isNewHostLine(host) ? "dist/compat.js" : (manifest.main ?? "dist/index.js");
  return (await import(pathToFileURL(join(dir, entry)).href)) as FauxApi;
}

function toMessage(ai: FauxApi, reply: DemoReply): unknown {
  const blocks = [
    ...(reply.text === undefined ? [] : [ai.fauxText(reply.text)]),
    ...(reply.toolCalls ?? []).map((call) => ai.fauxToolCall(call.name, call.args)),
  ];
  return ai.fauxAssistantMessage(blocks, { stopReason: reply.toolCalls?.length ? "toolUse" : "stop" });
}

/** An extension that registers the demo's model: Pi's faux provider answering from the demo script, in order. */
export function demoProvider(ai: FauxApi, replies: readonly DemoReply[] = DEMO_REPLIES): (pi: ExtensionAPI) => void {
  return (pi) => {
    const faux = ai.registerFauxProvider({
      api: DEMO_PROVIDER,
      provider: DEMO_PROVIDER,
      models: [MODEL],
      tokenSize: { min: 64, max: 64 },
    });
    let next = 0;
    const step = () => {
      faux.appendResponses([step]);
      const reply = replies[next++] ?? { text: DEMO_SCRIPT_OVER };
      return toMessage(ai, reply);
    };
    faux.setResponses([step]);
    const streamSimple = ai.getApiProvider(DEMO_PROVIDER)?.streamSimple;
    pi.registerProvider(DEMO_PROVIDER, {
      api: DEMO_PROVIDER,
      baseUrl: "http://localhost:0",
      apiKey: "demo-literal-key",
      models: [MODEL],
      ...(streamSimple ? { streamSimple } : {}),
    } as never);
  };
}
