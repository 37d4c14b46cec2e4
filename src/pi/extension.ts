import type { ExtensionAPI, ExtensionContext, ExtensionFactory } from "@mariozechner/pi-coding-agent";
import { recoveryDecision } from "../../reducers/recovery.js";
import type { KitState } from "../../reducers/state.js";
import type { AgentMessage, CustomMessage } from "../log/entry-types.js";
import { projectContext } from "./context-projection.js";
import { untilIdle } from "./idle.js";
import { LiveState } from "./live-state.js";
import { decisionForNewRequest, endedCleanly, markerFor, stallStopFor } from "./recovery-hooks.js";
import { SettleGate } from "./settle-gate.js";
import { toolLoopPlugin } from "./tool-loop-guard.js";

function withoutScopes(state: KitState, scopes: readonly string[]): KitState {
  const denials = { ...state.denials };
  for (const scope of scopes) delete denials[scope];
  return { ...state, denials };
}

export type KitPlugin = (pi: ExtensionAPI, kit: KitRuntime) => void;

export interface ContextKitOptions {
  /** Extra wiring (protection, verification) that shares the live state. */
  plugins?: KitPlugin[];
}

/** What the kit's parts share inside one host process. */
export interface KitRuntime {
  live: LiveState;
  gate: SettleGate;
  /** Set while a verification continuation runs: it never starts a recovery. */
  continuation: { kind: "verification" | "recovery" | null };
  /** Reports a kit error visibly: in the TUI as a notification, elsewhere on stderr. */
  report(error: unknown, where: string, ctx?: ExtensionContext): void;
  /** Project guidance for each request, labelled as project data (set by the protection plugin). */
  guidance?: (ctx: ExtensionContext) => CustomMessage | null;
  /** Denied scopes the policy allows again; records them so their reminders leave the state. */
  allowedAgain?: (state: KitState, ctx: ExtensionContext) => string[];
  /** Filters host-tool output by the policy (set by the protection plugin). */
  filterOutput?: (text: string, ctx: ExtensionContext) => string;
  /** Runs first when a run ends; true when it continued or stopped the run itself (verification). */
  beforeRecovery?: (event: { messages: unknown[] }, ctx: ExtensionContext) => Promise<boolean>;
}

const SETTLE_WAIT_MS = 3000;

/** The kit as a Pi extension: branch-aware state, request-local projections, stall recovery. */
export function createContextKitExtension(options: ContextKitOptions = {}): ExtensionFactory {
  return (pi: ExtensionAPI) => {
    const kit: KitRuntime = {
      live: new LiveState(),
      gate: new SettleGate(),
      continuation: { kind: null },
      report(error, where, ctx) {
        const message = `[context-kit] ${where}: ${error instanceof Error ? error.message : String(error)}`;
        try {
          if (ctx?.hasUI) return ctx.ui.notify(message, "error");
        } catch {
          // a stale context (the host already disposed the run): fall back to stderr
        }
        console.error(message);
      },
    };

    // Fold the selected branch whenever the session or its leaf changes, so the first request pays nothing extra.
    const warm = (_event: unknown, ctx: ExtensionContext) => {
      try {
        kit.live.atLeaf(ctx.sessionManager);
      } catch (error) {
        kit.report(error, "fold", ctx);
      }
    };
    pi.on("session_start", warm);
    pi.on("session_tree", warm);
    pi.on("session_compact", warm);

    pi.on("before_agent_start", async (event, ctx) => {
      try {
        // The 1.x line also fires this for a run the kit itself started with a host message: not a user request.
        if ((event as { messageType?: string }).messageType === "custom") return undefined;
        await kit.gate.wait(SETTLE_WAIT_MS);
        kit.continuation.kind = null;
        const state = kit.live.atLeaf(ctx.sessionManager);
        if (decisionForNewRequest(state) !== "recover") return undefined;
        const marker = markerFor(state, null, "resumed a branch that ends in a stall of action-promise replies");
        return { message: marker };
      } catch (error) {
        kit.report(error, "before_agent_start", ctx);
        return undefined;
      }
    });

    pi.on("context", (event, ctx) => {
      kit.gate.close();
      try {
        const sm = ctx.sessionManager;
        let state = kit.live.atLeaf(sm);
        const allowed = kit.allowedAgain?.(state, ctx) ?? [];
        if (allowed.length > 0) state = withoutScopes(state, allowed);
        const projection = projectContext({
          session: sm,
          state,
          messages: event.messages as unknown as AgentMessage[],
          guidance: kit.guidance?.(ctx) ?? null,
          now: Date.now(),
        });
        return projection.messages ? { messages: projection.messages as never } : undefined;
      } catch (error) {
        kit.report(error, "context", ctx);
        return undefined;
      }
    });

    pi.on("agent_end", async (event, ctx) => {
      try {
        const messages = event.messages as unknown as AgentMessage[];
        if (await kit.beforeRecovery?.(event, ctx)) return;
        if (!endedCleanly(messages) || kit.continuation.kind === "verification") return;
        const state = kit.live.atLeaf(ctx.sessionManager);
        const decision = recoveryDecision(state.recovery, state.request.currentRequestId);
        if (decision === "recover") {
          const marker = markerFor(
            state,
            state.request.currentRequestId,
            "three similar action-promise replies without tool progress",
          );
          if (!(await untilIdle(ctx))) return;
          kit.continuation.kind = "recovery";
          pi.sendMessage(marker, { triggerTurn: true });
        } else if (decision === "stop") {
          if (await untilIdle(ctx)) pi.sendMessage(stallStopFor(state));
        }
      } catch (error) {
        kit.report(error, "agent_end", ctx);
      } finally {
        kit.gate.open();
      }
    });

    toolLoopPlugin(pi, kit);
    for (const plugin of options.plugins ?? []) plugin(pi, kit);
  };
}

export default createContextKitExtension();
