/**
 * Pi extension (load with `pi -e test/helpers/faux-cli-ext.ts`) that makes the real `pi` CLI run offline on pi-ai's
 * faux provider.
 *
 * - Registers the faux API stream ("faux") and the provider/model `faux/faux-1` (API key is a literal, not a secret).
 * - Replies from the JSON script named by env PI_FAUX_SCRIPT: an array of FauxStep (see faux-common.ts), one step per
 *   provider request; when it runs out, the reply is an error "No more faux responses queued".
 * - Appends one JSON line (a FauxRequest) per provider request to the file named by env PI_FAUX_LOG, synchronously,
 *   before replying, so the log is complete even when Pi exits right after.
 *
 * Pi loads this file with jiti, whose alias hands it the host's own pi-ai instance (on Pi 1.x, pi-ai's compat entry).
 * Pi 1.x passes the prompt and tools as a leading `system` message instead of `systemPrompt`/`tools`; the log shows
 * both lines the same way (prompt and tools from that message, the message itself left out).
 */
import { appendFileSync, readFileSync } from "node:fs";
import * as ai from "@mariozechner/pi-ai";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import {
  applyStepFiles,
  applyStepTiming,
  FAUX_API,
  FAUX_EXHAUSTED,
  FAUX_MODEL_DEF,
  FAUX_PROVIDER,
  type FauxStep,
  recordRequest,
  stepToAssistantMessage,
} from "./faux-common.js";

type LoggedContext = Parameters<typeof recordRequest>[2];
/** Pi 1.x's transcript helpers (absent on 0.73). */
const transcript = ai as unknown as {
  getCurrentSystemPrompt?: (messages: unknown[]) => string;
  getCurrentTools?: (messages: unknown[]) => { name: string }[];
};

/** The request as 0.73 shapes it: prompt and tools apart, no `system` messages. */
function olderShape(context: LoggedContext): LoggedContext {
  if (context.systemPrompt !== undefined || !transcript.getCurrentSystemPrompt) return context;
  const messages = context.messages as unknown[];
  return {
    systemPrompt: transcript.getCurrentSystemPrompt(messages),
    tools: (transcript.getCurrentTools?.(messages) ?? []) as NonNullable<LoggedContext["tools"]>,
    messages: context.messages.filter((m) => (m as { role: string }).role !== "system"),
  };
}

function loadScript(): FauxStep[] {
  const file = process.env.PI_FAUX_SCRIPT;
  if (!file) return [];
  const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (!Array.isArray(parsed)) throw new Error(`PI_FAUX_SCRIPT ${file}: expected a JSON array of steps`);
  return parsed as FauxStep[];
}

export default function fauxCliExtension(pi: ExtensionAPI): void {
  const script = loadScript();
  const log = process.env.PI_FAUX_LOG;
  let next = 0;
  let requestIndex = 0;

  const faux = ai.registerFauxProvider({
    api: FAUX_API,
    provider: FAUX_PROVIDER,
    models: [FAUX_MODEL_DEF],
    tokenSize: { min: 16, max: 16 },
  });

  // Every provider request consumes one router step; the router picks the scripted step itself so that it can log
  // requests that find the script exhausted too.
  const router = async (
    context: Parameters<typeof recordRequest>[2],
    options: Parameters<typeof applyStepTiming>[1],
  ): Promise<ReturnType<typeof stepToAssistantMessage>> => {
    faux.appendResponses([router]);
    const stepIndex = next < script.length ? next++ : null;
    const req = recordRequest(requestIndex++, stepIndex, olderShape(context));
    if (log) appendFileSync(log, `${JSON.stringify(req)}\n`);
    const step = stepIndex === null ? undefined : script[stepIndex];
    if (!step) throw new Error(FAUX_EXHAUSTED);
    await applyStepTiming(step, options);
    applyStepFiles(step, process.cwd());
    return stepToAssistantMessage(step);
  };
  faux.setResponses([router, router]);

  const streamSimple = ai.getApiProvider(FAUX_API)?.streamSimple;
  pi.registerProvider(FAUX_PROVIDER, {
    api: FAUX_API,
    baseUrl: "http://localhost:0",
    apiKey: "faux-literal-key",
    models: [FAUX_MODEL_DEF],
    ...(streamSimple ? { streamSimple } : {}),
  });
}
