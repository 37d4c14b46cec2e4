import type { SettleGate } from "./settle-gate.js";

interface PromptingSession {
  prompt(...args: unknown[]): Promise<unknown>;
  readonly isStreaming: boolean;
  readonly agent: { waitForIdle(): Promise<void> };
}

/** More continuations than the kit ever starts for one prompt (three verification rounds, one recovery). */
const MAX_CONTINUATIONS = 16;

async function untilSettled(session: PromptingSession, gate: SettleGate): Promise<void> {
  for (let round = 0; round <= MAX_CONTINUATIONS; round++) {
    // The gate closed at the run's first request and opens when its end-of-run work is done; a continuation the
    // kit started there is already streaming by then.
    await gate.whenOpen();
    if (session.isStreaming) {
      await session.agent.waitForIdle();
      continue;
    }
    await new Promise((resolve) => setImmediate(resolve));
    if (!session.isStreaming && gate.isOpen) return;
  }
}

/**
 * Pi 0.73's print and JSON modes dispose the runtime as soon as `prompt()` resolves, while the kit's end-of-run work
 * (completion checks and their continuation, a stall found at the end of the prompt, its recovery, the stop) still
 * runs on the host's event queue. `pi-context` owns the process, so it makes each prompt resolve only when that work
 * has finished: the host then prints and disposes after it, as the 1.x line does.
 */
export function holdPromptsUntilSettled(sessionClass: unknown, gate: SettleGate): void {
  const proto = (sessionClass as { prototype?: PromptingSession } | undefined)?.prototype;
  if (!proto || typeof proto.prompt !== "function") return;
  const prompt = proto.prompt;
  proto.prompt = async function (this: PromptingSession, ...args: unknown[]) {
    const result = await prompt.apply(this, args);
    await untilSettled(this, gate);
    return result;
  };
}

/** Print or JSON mode: `-p`/`--print`, `--mode json`, or piped stdin (which the host treats as print mode). */
export function isHeadless(args: readonly string[], stdinIsTty: boolean | undefined): boolean {
  if (args.includes("-p") || args.includes("--print")) return true;
  const mode = args.indexOf("--mode");
  if (mode >= 0) return args[mode + 1] === "json" || args[mode + 1] === "text";
  if (args.some((a) => a === "--mode=json")) return true;
  return stdinIsTty === false;
}
