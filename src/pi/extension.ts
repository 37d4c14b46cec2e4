import type { ExtensionAPI, ExtensionContext, ExtensionFactory } from "@mariozechner/pi-coding-agent";
import { recoveryDecision } from "../../reducers/recovery.js";
import type { AgentMessage, CustomMessage } from "../log/entry-types.js";
import { projectContext } from "./context-projection.js";
import { LiveState } from "./live-state.js";
import { decisionForNewRequest, endedCleanly, markerFor, stallStopFor } from "./recovery-hooks.js";
import { SettleGate } from "./settle-gate.js";

export interface ContextKitOptions {
  /** Supplies project guidance for each request (the protection layer reads the root guidance file). */
  guidance?: (ctx: ExtensionContext) => CustomMessage | null;
  /** Extra wiring (protection, verification) that shares the live state. */
  plugins?: ((pi: ExtensionAPI, kit: KitRuntime) => void)[];
}

/** What the kit's parts share inside one host process. */
export interface KitRuntime {
  live: LiveState;
  gate: SettleGate;
  /** Set while a verification continuation runs: it never starts a recovery. */
  continuation: { kind: "verification" | "recovery" | null };
  report(error: unknown, where: string): void;
}

const SETTLE_WAIT_MS = 3000;

function sendWhenIdle(pi: ExtensionAPI, ctx: ExtensionContext, send: () => void, triesLeft = 50): void {
  if (ctx.isIdle() || triesLeft === 0) {
    send();
    return;
  }
  setTimeout(() => sendWhenIdle(pi, ctx, send, triesLeft - 1), 10);
}

/** The kit as a Pi extension: branch-aware state, request-local projections, stall recovery. */
export function createContextKitExtension(options: ContextKitOptions = {}): ExtensionFactory {
  return (pi: ExtensionAPI) => {
    const kit: KitRuntime = {
      live: new LiveState(),
      gate: new SettleGate(),
      continuation: { kind: null },
      report(error, where) {
        const message = error instanceof Error ? error.message : String(error);
        console.error(`[context-kit] ${where}: ${message}`);
      },
    };

    pi.on("before_agent_start", async (_event, ctx) => {
      try {
        await kit.gate.wait(SETTLE_WAIT_MS);
        kit.continuation.kind = null;
        const state = kit.live.atLeaf(ctx.sessionManager);
        if (decisionForNewRequest(state) !== "recover") return undefined;
        const marker = markerFor(state, null, "resumed a branch that ends in a stall of action-promise replies");
        return { message: marker };
      } catch (error) {
        kit.report(error, "before_agent_start");
        return undefined;
      }
    });

    pi.on("context", (event, ctx) => {
      kit.gate.close();
      try {
        const sm = ctx.sessionManager;
        const projection = projectContext({
          session: sm,
          state: kit.live.atLeaf(sm),
          messages: event.messages as unknown as AgentMessage[],
          guidance: options.guidance?.(ctx) ?? null,
          now: Date.now(),
        });
        return projection.messages ? { messages: projection.messages as never } : undefined;
      } catch (error) {
        kit.report(error, "context");
        return undefined;
      }
    });

    pi.on("agent_end", (event, ctx) => {
      try {
        const messages = event.messages as unknown as AgentMessage[];
        if (!endedCleanly(messages) || kit.continuation.kind === "verification") return;
        const state = kit.live.atLeaf(ctx.sessionManager);
        const decision = recoveryDecision(state.recovery, state.request.currentRequestId);
        if (decision === "recover") {
          const marker = markerFor(
            state,
            state.request.currentRequestId,
            "three similar action-promise replies without tool progress",
          );
          kit.continuation.kind = "recovery";
          sendWhenIdle(pi, ctx, () => pi.sendMessage(marker, { triggerTurn: true }));
        } else if (decision === "stop") {
          sendWhenIdle(pi, ctx, () => pi.sendMessage(stallStopFor(state)));
        }
      } catch (error) {
        kit.report(error, "agent_end");
      } finally {
        kit.gate.open();
      }
    });

    for (const plugin of options.plugins ?? []) plugin(pi, kit);
  };
}

export default createContextKitExtension();
