import type { ExtensionAPI, ExtensionContext, ExtensionFactory } from "@mariozechner/pi-coding-agent";
import { recoveryDecision } from "../../reducers/recovery.js";
import type { AgentMessage } from "../log/entry-types.js";
import { kitVersion } from "../package-root.js";
import { handleContextRequest } from "./context-hook.js";
import { untilIdle } from "./idle.js";
import type { KitHooks, KitPlugin, KitServices } from "./kit-hooks.js";
import { LiveDigests } from "./live-digests.js";
import { LiveState } from "./live-state.js";
import { decisionForNewRequest, endedCleanly, markerFor, stallStopFor } from "./recovery-hooks.js";
import { SettleGate } from "./settle-gate.js";
import { toolLoopPlugin } from "./tool-loop-guard.js";

export type { KitHooks, KitPlugin, KitServices, RequestInputs } from "./kit-hooks.js";

export interface ContextKitOptions {
  /** Extra wiring (protection, verification) that shares the live state. */
  plugins?: KitPlugin[];
  /** The gate that stays closed from a run's first request until its end-of-run work is done (a launcher waits on it). */
  gate?: SettleGate;
}

const SETTLE_WAIT_MS = 3000;

function reportError(error: unknown, where: string, ctx?: ExtensionContext): void {
  const message = `[context-kit] ${where}: ${error instanceof Error ? error.message : String(error)}`;
  try {
    if (ctx?.hasUI) {
      ctx.ui.notify(message, "error");
      return;
    }
  } catch {
    // a stale context (the host already disposed the run): fall back to stderr
  }
  console.error(message);
}

/** The kit as a Pi extension: branch-aware state, the request's view and its digest, stall recovery. */
export function createContextKitExtension(options: ContextKitOptions = {}): ExtensionFactory {
  return (pi: ExtensionAPI) => {
    const live = new LiveState();
    const gate = options.gate ?? new SettleGate();
    const digests = new LiveDigests();
    const version = kitVersion();
    /** Set while a verification continuation runs: it never starts a recovery. */
    let verifying = false;
    const hooks: KitHooks[] = [];
    const services: KitServices = {
      live,
      report: reportError,
      filterOutput: (text, ctx) => hooks.reduce((t, h) => (h.filterOutput ? h.filterOutput(t, ctx) : t), text),
      continuingWithVerification: () => {
        verifying = true;
      },
    };

    // Fold the selected branch whenever the session or its leaf changes, so the first request pays nothing extra.
    const warm = (_event: unknown, ctx: ExtensionContext) => {
      try {
        live.atLeaf(ctx.sessionManager);
      } catch (error) {
        reportError(error, "fold", ctx);
      }
    };
    pi.on("session_start", warm);
    pi.on("session_tree", warm);
    pi.on("session_compact", warm);
    // The host replaced its messages: the next digest starts over (the digests also see it on the branch).
    const forget = () => digests.reset();
    pi.on("session_start", forget);
    pi.on("session_tree", forget);
    pi.on("session_compact", forget);

    pi.on("before_agent_start", async (event, ctx) => {
      try {
        // The 1.x line also fires this for a run the kit itself started with a host message: not a user request.
        if ((event as { messageType?: string }).messageType === "custom") return undefined;
        await gate.wait(SETTLE_WAIT_MS);
        verifying = false;
        const state = live.atLeaf(ctx.sessionManager);
        if (decisionForNewRequest(state) !== "recover") return undefined;
        const marker = markerFor(state, null, "resumed a branch that ends in a stall of action-promise replies");
        return { message: marker };
      } catch (error) {
        reportError(error, "before_agent_start", ctx);
        return undefined;
      }
    });

    // Synchronous on purpose: `pi -p` on 0.73 disposes the runtime as soon as the prompt resolves.
    pi.on("context", (event, ctx) => {
      gate.close();
      try {
        const view = handleContextRequest({
          session: ctx.sessionManager,
          live,
          digests,
          kitVersion: version,
          messages: event.messages as unknown as AgentMessage[],
          inputs: (state) => hooks.flatMap((hook) => hook.requestInputs?.(state, ctx) ?? []),
          append: (customType, data) => pi.appendEntry(customType, data),
        });
        return view.changed ? { messages: view.messages as never } : undefined;
      } catch (error) {
        reportError(error, "context", ctx);
        return undefined;
      }
    });

    pi.on("agent_end", async (event, ctx) => {
      try {
        const messages = event.messages as unknown as AgentMessage[];
        for (const hook of hooks) if (await hook.settle?.(event, ctx)) return;
        if (!endedCleanly(messages) || verifying) return;
        const state = live.atLeaf(ctx.sessionManager);
        const decision = recoveryDecision(state.recovery, state.request.currentRequestId);
        if (decision === "recover") {
          const marker = markerFor(
            state,
            state.request.currentRequestId,
            "three similar action-promise replies without tool progress",
          );
          if (!(await untilIdle(ctx))) return;
          pi.sendMessage(marker, { triggerTurn: true });
        } else if (decision === "stop") {
          if (await untilIdle(ctx)) pi.sendMessage(stallStopFor(state));
        }
      } catch (error) {
        reportError(error, "agent_end", ctx);
      } finally {
        gate.open();
      }
    });

    hooks.push(toolLoopPlugin(pi, services));
    for (const plugin of options.plugins ?? []) hooks.push(plugin(pi, services));
  };
}

export default createContextKitExtension();
