/** Events of the 1.x host line the kit uses (it compiles against 0.73's types). */
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { boundaryResult } from "./settle-step.js";

/** The part of the 1.x extension API the settle boundary uses (the kit compiles against 0.73's types). */
export interface SettleBoundaryApi {
  on(
    event: "agent_before_settle",
    handler: (
      event: { entries: unknown[]; context: { contextMessages: unknown[] } },
      ctx: ExtensionContext,
    ) => Promise<ReturnType<typeof boundaryResult>>,
  ): void;
  on(event: "agent_settled", handler: () => void): void;
}

/** The 1.x `context_with_system` hook: the whole request, system messages included. */
export interface SystemContextApi {
  on(event: "context_with_system", handler: (event: { messages: unknown[] }, ctx: ExtensionContext) => undefined): void;
}
