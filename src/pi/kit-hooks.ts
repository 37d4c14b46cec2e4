import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { PolicyAllowedData } from "../../reducers/contract/kit-entries.js";
import type { KitState } from "../../reducers/state.js";
import type { LiveState } from "./live-state.js";
import type { SettleStep } from "./settle-step.js";

/** Request inputs read outside the log; the kit records them on the branch before the request's view is computed. */
export interface RequestInputs {
  /** Root guidance as the view would carry it (labelled project data), null when there is none. */
  guidance: string | null;
  /** Recorded denials whose same decision now passes (recorded as `policy-allowed` entries). */
  allowedAgain: PolicyAllowedData[];
}

/** What a plugin adds to the kit, called at fixed points. Every hook is optional. */
export interface KitHooks {
  /** Called synchronously in the `context` hook with the state at the current leaf. */
  requestInputs?(state: KitState, ctx: ExtensionContext): RequestInputs;
  /** Host-tool output as the policy lets the model see it. */
  filterOutput?(text: string, ctx: ExtensionContext): string;
  /** Runs first when a run is about to settle; a step (even one without a message) ends the kit's settle work. */
  settle?(event: { messages: unknown[] }, ctx: ExtensionContext): Promise<SettleStep | null>;
}

/** What the kit shares with its plugins inside one host process. */
export interface KitServices {
  readonly live: LiveState;
  /** Reports a kit error visibly: in the TUI as a notification, elsewhere on stderr. */
  report(error: unknown, where: string, ctx?: ExtensionContext): void;
  /** Host-tool output through the plugins' `filterOutput` hooks. */
  filterOutput(text: string, ctx: ExtensionContext): string;
  /** The kit itself is about to continue the run with a verification report (which never starts a recovery). */
  continuingWithVerification(): void;
}

export type KitPlugin = (pi: ExtensionAPI, kit: KitServices) => KitHooks;
