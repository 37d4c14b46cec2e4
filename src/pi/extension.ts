import type { ExtensionAPI, ExtensionContext, ExtensionFactory } from "@mariozechner/pi-coding-agent";
import { KIT, type RequestDigestData } from "../../reducers/contract/kit-entries.js";
import type { AgentMessage } from "../log/entry-types.js";
import { kitVersion } from "../package-root.js";
import { systemDigest } from "../view/system-digest.js";
import { handleContextRequest } from "./context-hook.js";
import { loadHostModule } from "./host.js";
import type { SettleBoundaryApi, SystemContextApi } from "./host1-events.js";
import type { KitHooks, KitPlugin, KitServices } from "./kit-hooks.js";
import { LiveDigests } from "./live-digests.js";
import { LiveState } from "./live-state.js";
import { decisionForNewRequest, endedCleanly, markerFor, recoveryStep } from "./recovery-hooks.js";
import { SettleGate } from "./settle-gate.js";
import { boundaryResult, hasSettleBoundary, type SettleStep, sendAfterIdle } from "./settle-step.js";
import { toolLoopPlugin } from "./tool-loop-guard.js";

export type { KitHooks, KitPlugin, KitServices, RequestInputs } from "./kit-hooks.js";

export interface ContextKitOptions {
  /** Extra wiring (protection, verification) that shares the live state. */
  plugins?: KitPlugin[];
  /** The gate that stays closed from a run's first request until its end-of-run work is done (a launcher waits on it). */
  gate?: SettleGate;
  /** The host has `agent_before_settle` (default: read from the running host's version). */
  settleBoundary?: boolean;
}

async function hostHasSettleBoundary(): Promise<boolean> {
  const host = await loadHostModule().catch(() => ({}) as Record<string, unknown>);
  return hasSettleBoundary(typeof host.VERSION === "string" ? host.VERSION : undefined);
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
  return async (pi: ExtensionAPI) => {
    const boundary = options.settleBoundary ?? (await hostHasSettleBoundary());
    // Hosts with a settle boundary (0.87+) also send system messages, past the `context` hook: the digest covers them.
    const withSystem = boundary;
    /** A request's digest waiting for its system part (`context_with_system` follows `context`). */
    let held: RequestDigestData | null = null;
    const flush = (system?: RequestDigestData["system"]) => {
      if (held === null) return;
      pi.appendEntry(KIT.requestDigest, system ? { ...held, system } : held);
      held = null;
    };
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
          ...(withSystem
            ? {
                record: (digest: RequestDigestData) => {
                  flush();
                  held = digest;
                },
              }
            : {}),
        });
        return view.changed ? { messages: view.messages as never } : undefined;
      } catch (error) {
        reportError(error, "context", ctx);
        return undefined;
      }
    });

    if (withSystem) {
      const host = pi as unknown as SystemContextApi;
      host.on("context_with_system", (event, ctx) => {
        try {
          flush(systemDigest(event.messages));
        } catch (error) {
          reportError(error, "context_with_system", ctx);
        }
        return undefined;
      });
      pi.on("agent_end", () => flush());
    }

    /** The kit's end-of-run work, the same on both lines: verification first, then recovery or the stall stop. */
    const settle = async (messages: AgentMessage[], ctx: ExtensionContext): Promise<SettleStep | null> => {
      for (const hook of hooks) {
        const step = await hook.settle?.({ messages }, ctx);
        if (step) return step;
      }
      if (!endedCleanly(messages) || verifying) return null;
      return recoveryStep(live.atLeaf(ctx.sessionManager));
    };

    if (boundary) {
      // 0.87 and later: the host's final actionable boundary takes entries and one continuation.
      const host = pi as unknown as SettleBoundaryApi;
      host.on("agent_before_settle", async (event, ctx) => {
        try {
          const messages = event.context.contextMessages as unknown as AgentMessage[];
          const step = await settle(messages, ctx);
          return step ? boundaryResult(step, event.entries) : undefined;
        } catch (error) {
          reportError(error, "agent_before_settle", ctx);
          return undefined;
        }
      });
      host.on("agent_settled", () => gate.open());
    } else {
      pi.on("agent_end", async (event, ctx) => {
        try {
          const step = await settle(event.messages as unknown as AgentMessage[], ctx);
          if (step) await sendAfterIdle(pi, ctx, step);
        } catch (error) {
          reportError(error, "agent_end", ctx);
        } finally {
          gate.open();
        }
      });
    }

    hooks.push(toolLoopPlugin(pi, services));
    for (const plugin of options.plugins ?? []) hooks.push(plugin(pi, services));
  };
}

export default createContextKitExtension();
