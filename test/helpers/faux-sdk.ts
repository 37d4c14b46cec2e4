/**
 * In-process harness: a real Pi AgentSession (SDK path) on pi-ai's faux provider, in temporary folders.
 *
 *   const h = await createFauxHarness({ files: { "hello.txt": "hi\n" }, extensionFactories: [myExt] });
 *   h.script([{ toolCalls: [{ name: "read", args: { path: "hello.txt" } }] }, { text: "It says hi." }]);
 *   await h.prompt("What does hello.txt say?");   // resolves after extension handlers have finished
 *   h.requests[1].messages                         // what the model received on the 2nd provider request
 *   h.entries()                                    // parsed session-file lines (header first)
 *   await h.dispose();                             // emits session_shutdown, then disposes the session
 *
 * Start the test file with `import "../helpers/faux-env.js";` (a bare import, which import sorting leaves first): it
 * points PI_CODING_AGENT_DIR at a temp folder and sets PI_OFFLINE=1 before anything loads Pi (Pi's tools-manager
 * captures the agent dir at module load). This module imports it too, then loads Pi dynamically.
 *
 * Faux registrations are process-global. This module registers ONE faux API ("faux") per process and feeds it a
 * router: each provider request is routed (by the session id the agent passes along) to the harness that owns the
 * session, and answered from that harness's own script. Several harnesses can live in one process; each has its own
 * queue and request log.
 */

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AssistantMessage, Context, StreamOptions } from "@mariozechner/pi-ai";
import type {
  AgentSession,
  AgentSessionEvent,
  ExtensionError,
  ExtensionFactory,
  PromptOptions,
} from "@mariozechner/pi-coding-agent";
import {
  applyStepFiles,
  applyStepTiming,
  FAUX_API,
  FAUX_EXHAUSTED,
  FAUX_MODEL_DEF,
  FAUX_MODEL_ID,
  FAUX_PROVIDER,
  type FauxRequest,
  type FauxStep,
  readJsonLines,
  recordRequest,
  stepToAssistantMessage,
  writeFiles,
} from "./faux-common.js";
import { cleanupFauxEnv } from "./faux-env.js";

export * from "./faux-common.js";

// ---- environment first, then Pi ------------------------------------------------------------------------------

// faux-env.js (a static import, so already evaluated) has set PI_CODING_AGENT_DIR / PI_OFFLINE; only now load Pi.
const pi = await import("@mariozechner/pi-coding-agent");
const ai = await import("@mariozechner/pi-ai");

// ---- one faux registration per process, routed per harness ----------------------------------------------------

/** A scripted step, or a function computing the reply from what the model received. */
export type FauxScriptItem =
  | FauxStep
  | AssistantMessage
  | ((
      request: FauxRequest,
      context: Context,
      options: StreamOptions | undefined,
    ) => FauxStep | AssistantMessage | Promise<FauxStep | AssistantMessage>);

interface Responder {
  respond(context: Context, options: StreamOptions | undefined): Promise<AssistantMessage>;
}

const bySessionId = new Map<string, Responder>();
const live: Responder[] = [];

const router = async (context: Context, options: StreamOptions | undefined): Promise<AssistantMessage> => {
  faux.appendResponses([router]);
  const target = (options?.sessionId ? bySessionId.get(options.sessionId) : undefined) ?? live.at(-1);
  if (!target) throw new Error("faux-sdk: provider request with no live harness");
  return target.respond(context, options);
};

const faux = ai.registerFauxProvider({
  api: FAUX_API,
  provider: FAUX_PROVIDER,
  models: [FAUX_MODEL_DEF],
  tokenSize: { min: 16, max: 16 },
});
function topUp(): void {
  if (faux.getPendingResponseCount() < 8) faux.appendResponses(Array.from({ length: 32 }, () => router));
}
topUp();

function isAssistantMessage(x: FauxStep | AssistantMessage): x is AssistantMessage {
  return (x as AssistantMessage).role === "assistant";
}

// ---- temp dirs ------------------------------------------------------------------------------------------------

const tempRoots = new Set<string>();
process.once("exit", () => {
  for (const root of tempRoots) rmSync(root, { recursive: true, force: true });
});

/**
 * Removes every harness temp folder created so far and the process agent dir (faux-env). Call it in the file's
 * top-level afterAll: vitest workers usually end without Node's "exit" event, so the exit hook alone leaks folders.
 */
export function cleanupFauxHarnesses(): void {
  for (const root of tempRoots) rmSync(root, { recursive: true, force: true });
  tempRoots.clear();
  cleanupFauxEnv();
}

// ---- the harness ----------------------------------------------------------------------------------------------

export interface FauxHarnessOptions {
  /** Working directory (used as is, never deleted). Default: `<root>/work`, or the header cwd when resuming. */
  cwd?: string;
  /** Files written relative to cwd before the session starts. */
  files?: Record<string, string>;
  extensionFactories?: ExtensionFactory[];
  /** Open this session file: resume it if it exists, else start a new session bound to that path. */
  sessionFile?: string;
  /** Tool-name allowlist (SDK `tools`). Default: Pi's default (read, bash, edit, write + extension tools). */
  tools?: string[];
  /** Pin the system prompt (Pi's own prompt builder is used otherwise). */
  systemPrompt?: string;
  /** Initial script (same as calling `h.script(...)`). */
  script?: FauxScriptItem[];
  /** Overrides for SettingsManager.inMemory. Default: retry and compaction off. */
  settings?: Parameters<typeof pi.SettingsManager.inMemory>[0];
  /** false: SessionManager.inMemory (no file). Default true. */
  persist?: boolean;
  /** Called for each extension error (they are always collected in `h.extensionErrors`). */
  onExtensionError?: (error: ExtensionError) => void;
  /** How long settle() waits for extension handlers before failing. Default 10 000 ms. */
  settleTimeoutMs?: number;
}

export interface FauxHarness {
  readonly session: AgentSession;
  /** Temp root of this harness (agent dir, sessions, default cwd). */
  readonly root: string;
  readonly cwd: string;
  readonly agentDir: string;
  /** The session file (set from the start; written by Pi once the first assistant message exists). */
  readonly sessionFile: string | undefined;
  /** One record per provider request made by this harness's session, in order. */
  readonly requests: FauxRequest[];
  /** Every AgentSessionEvent the session emitted (listeners run after extension handlers). */
  readonly events: AgentSessionEvent[];
  readonly extensionErrors: ExtensionError[];
  /** Replace the pending script. */
  script(steps: FauxScriptItem[]): void;
  /** Append to the pending script. */
  append(steps: FauxScriptItem[]): void;
  /** Steps not yet consumed. */
  pending(): number;
  /** session.prompt(), then settle(). */
  prompt(text: string, options?: PromptOptions): Promise<void>;
  /** Waits until the agent is idle and every queued extension handler has finished. */
  settle(): Promise<void>;
  /** Parsed session-file lines, header first ([] before Pi has written the file). */
  entries(): Record<string, unknown>[];
  /** Text of the last assistant message (Pi's getLastAssistantText). */
  lastText(): string | undefined;
  /** settle(), emit session_shutdown (reason "quit") to extensions, dispose the session. Idempotent. Files stay. */
  dispose(): Promise<void>;
}

let harnessCounter = 0;

export async function createFauxHarness(options: FauxHarnessOptions = {}): Promise<FauxHarness> {
  const root = mkdtempSync(join(tmpdir(), `pi-faux-h${++harnessCounter}-`));
  tempRoots.add(root);
  const agentDir = join(root, "agent");
  const sessionDir = join(root, "sessions");
  mkdirSync(agentDir, { recursive: true });

  let cwd = options.cwd;
  if (cwd === undefined && options.sessionFile !== undefined) {
    const header = readJsonLines(options.sessionFile)[0];
    if (header?.type === "session" && typeof header.cwd === "string") cwd = header.cwd;
  }
  cwd ??= join(root, "work");
  mkdirSync(cwd, { recursive: true });
  writeFiles(cwd, options.files ?? {});

  const authStorage = pi.AuthStorage.inMemory();
  const modelRegistry = pi.ModelRegistry.inMemory(authStorage);
  modelRegistry.registerProvider(FAUX_PROVIDER, {
    api: FAUX_API,
    baseUrl: "http://localhost:0",
    apiKey: "faux-literal-key",
    models: [FAUX_MODEL_DEF],
  });
  const model = modelRegistry.find(FAUX_PROVIDER, FAUX_MODEL_ID);
  if (!model) throw new Error("faux-sdk: faux model not found in the registry");

  const settingsManager = pi.SettingsManager.inMemory({
    compaction: { enabled: false },
    retry: { enabled: false },
    ...options.settings,
  });
  const systemPrompt = options.systemPrompt;
  const loader = new pi.DefaultResourceLoader({
    cwd,
    agentDir,
    settingsManager,
    extensionFactories: options.extensionFactories ?? [],
    noExtensions: true,
    noSkills: true,
    noPromptTemplates: true,
    noThemes: true,
    noContextFiles: true,
    ...(systemPrompt === undefined ? {} : { systemPromptOverride: () => systemPrompt }),
  });
  await loader.reload();

  const sessionManager =
    options.persist === false
      ? pi.SessionManager.inMemory(cwd)
      : options.sessionFile !== undefined
        ? pi.SessionManager.open(options.sessionFile, undefined, cwd)
        : pi.SessionManager.create(cwd, sessionDir);

  const { session } = await pi.createAgentSession({
    cwd,
    agentDir,
    authStorage,
    modelRegistry,
    settingsManager,
    resourceLoader: loader,
    sessionManager,
    model,
    thinkingLevel: "off",
    ...(options.tools === undefined ? {} : { tools: options.tools }),
  });

  // ---- scripting and request capture
  const queue: FauxScriptItem[] = [...(options.script ?? [])];
  let consumed = 0;
  const requests: FauxRequest[] = [];
  const responder: Responder = {
    async respond(context, streamOptions) {
      const item = queue.shift();
      const req = recordRequest(requests.length, item === undefined ? null : consumed++, context);
      requests.push(req);
      if (item === undefined) throw new Error(FAUX_EXHAUSTED);
      const resolved = typeof item === "function" ? await item(req, context, streamOptions) : item;
      if (isAssistantMessage(resolved)) return resolved;
      await applyStepTiming(resolved, streamOptions);
      applyStepFiles(resolved, cwd);
      return stepToAssistantMessage(resolved);
    },
  };
  bySessionId.set(session.sessionId, responder);
  live.push(responder);

  // ---- settling: count agent_end as emitted by the agent vs as seen by session listeners
  const events: AgentSessionEvent[] = [];
  let agentEndsEmitted = 0;
  let agentEndsProcessed = 0;
  const unsubscribeAgent = session.agent.subscribe((event) => {
    if (event.type === "agent_end") agentEndsEmitted++;
  });
  const unsubscribeSession = session.subscribe((event) => {
    events.push(event);
    if (event.type === "agent_end") agentEndsProcessed++;
  });

  const extensionErrors: ExtensionError[] = [];
  await session.bindExtensions({
    onError: (error) => {
      extensionErrors.push(error);
      options.onExtensionError?.(error);
    },
  });

  const settleTimeoutMs = options.settleTimeoutMs ?? 10_000;
  const internals = session as unknown as { _agentEventQueue?: Promise<unknown> };

  async function settle(): Promise<void> {
    const deadline = Date.now() + settleTimeoutMs;
    for (;;) {
      await session.agent.waitForIdle();
      // Pi processes agent events (extension handlers, persistence) on a private promise chain that nobody awaits.
      const queued = internals._agentEventQueue;
      if (queued) await queued.catch(() => {});
      await new Promise((r) => setImmediate(r));
      const quiet =
        agentEndsProcessed >= agentEndsEmitted && !session.isStreaming && internals._agentEventQueue === queued;
      if (quiet) return;
      if (Date.now() > deadline) {
        throw new Error(
          `faux-sdk: settle() timed out after ${settleTimeoutMs} ms (agent_end emitted ${agentEndsEmitted}, processed ${agentEndsProcessed})`,
        );
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  let disposed = false;
  const harness: FauxHarness = {
    session,
    root,
    cwd,
    agentDir,
    get sessionFile() {
      return session.sessionFile;
    },
    requests,
    events,
    extensionErrors,
    script(steps) {
      queue.length = 0;
      queue.push(...steps);
    },
    append(steps) {
      queue.push(...steps);
    },
    pending: () => queue.length,
    async prompt(text, promptOptions) {
      topUp();
      await session.prompt(text, promptOptions);
      await settle();
    },
    settle,
    entries: () => readJsonLines(session.sessionFile),
    lastText: () => session.getLastAssistantText(),
    async dispose() {
      if (disposed) return;
      disposed = true;
      try {
        await settle();
        const runner = session.extensionRunner;
        if (runner.hasHandlers("session_shutdown")) await runner.emit({ type: "session_shutdown", reason: "quit" });
      } finally {
        unsubscribeAgent();
        unsubscribeSession();
        session.dispose();
        if (bySessionId.get(session.sessionId) === responder) bySessionId.delete(session.sessionId);
        const i = live.indexOf(responder);
        if (i >= 0) live.splice(i, 1);
      }
    },
  };
  return harness;
}

export { ai, pi };
