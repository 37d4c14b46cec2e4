import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { CheckName, CheckOutcome } from "../../reducers/contract/kit-entries.js";
import { CHECKS, checkResultOf, MAX_ROUNDS, missingChecks } from "../../reducers/verification.js";
import { completionReport, verificationIncomplete } from "../kit/host-messages.js";
import type { AgentMessage } from "../log/entry-types.js";
import type { ToolDefinition } from "../tools/index.js";
import type { KitPlugin, KitServices } from "./kit-hooks.js";
import { endedCleanly } from "./recovery-hooks.js";
import { settleStep } from "./settle-step.js";

/** Output kept per check in the report (its tail): enough for a failing test's assertion and location. */
const SUMMARY_CHARS = 4000;

function outcomeOf(
  name: CheckName,
  result: { content: { type: string; text?: string }[]; details: unknown; isError?: boolean },
): CheckOutcome {
  const { status, testsRun } = checkResultOf(name, result.isError === true, result.details);
  const text = result.content
    .filter((c) => c.type === "text")
    .map((c) => c.text ?? "")
    .join("\n")
    .trim();
  const summary = text.length > SUMMARY_CHARS ? `…${text.slice(-SUMMARY_CHARS)}` : text;
  const outcome: CheckOutcome = { name, status, by: "kit", summary };
  if (testsRun !== undefined) outcome.testsRun = testsRun;
  return outcome;
}

async function runCheck(tool: ToolDefinition, ctx: ExtensionContext, kit: KitServices): Promise<CheckOutcome> {
  const name = tool.name as CheckName;
  try {
    const result = await tool.execute(`context-kit-${name}-${Date.now()}`, {}, ctx.signal, undefined, ctx);
    const content = result.content.map((c) => (c.type === "text" ? { ...c, text: kit.filterOutput(c.text, ctx) } : c));
    return outcomeOf(name, { ...result, content });
  } catch (error) {
    return { name, status: "error", by: "kit", summary: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Completion verification: when both `app_build` and `app_test` are registered, a run that changed files does not
 * settle until the checks missing for the current revision have run (at most MAX_ROUNDS rounds per user request);
 * the real results go to the model as a visible completion report and the host continues.
 */
export function verificationPlugin(checkTools: () => ToolDefinition[]): KitPlugin {
  return (_pi: ExtensionAPI, kit) => ({
    async settle(event, ctx) {
      const tools = new Map(checkTools().map((t) => [t.name, t]));
      if (!CHECKS.every((name) => tools.has(name))) return null;
      if (!endedCleanly(event.messages as AgentMessage[])) return null;
      const state = kit.live.atLeaf(ctx.sessionManager);
      const missing = missingChecks(state.verification);
      if (missing.length === 0) return null;
      const requestId = state.request.currentRequestId;
      const revision = state.verification.revision;
      if (state.verification.roundsThisRequest >= MAX_ROUNDS) {
        if (state.verification.incomplete) return settleStep(null);
        const rounds = state.verification.roundsThisRequest;
        return settleStep(verificationIncomplete({ requestId, revision, missing, rounds }));
      }
      const checks: CheckOutcome[] = [];
      for (const name of missing) checks.push(await runCheck(tools.get(name) as ToolDefinition, ctx, kit));
      const report = completionReport({ requestId, revision, round: state.verification.roundsThisRequest + 1, checks });
      kit.continuingWithVerification();
      return settleStep(report, true);
    },
  });
}
