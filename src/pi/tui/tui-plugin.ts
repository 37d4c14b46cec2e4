import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { KitState } from "../../../reducers/state.js";
import { toolLoopReport } from "../../../reducers/tool-loop.js";
import { summarizeState } from "../../fold/state-summary.js";
import { createPolicy, type Policy } from "../../policy/index.js";
import type { KitHooks, KitServices } from "../kit-hooks.js";
import { KIT_SUBCOMMANDS, runKitCommand } from "./kit-command.js";
import { headerWithoutShell } from "./shell-hint.js";
import { type StatusInputs, statusLine } from "./status-line.js";

export interface TuiOptions {
  policyRoot?: string;
  /** The host's agent directory: `/kit policy` lists it among the control paths, as the guarded tools enforce it. */
  agentDir?: string;
  /** Where `/kit report` writes its pages. */
  reportDir: string;
}

const STATUS_KEY = "context-kit";

interface EntryLike {
  id: string;
  parentId: string | null;
}

/** Ids on the branch from the leaf back to (not including) the current request's user message. */
function idsSinceRequest(ctx: ExtensionContext, requestId: string | null): Set<string> {
  const ids = new Set<string>();
  let id = ctx.sessionManager.getLeafId();
  while (id !== null && id !== requestId) {
    ids.add(id);
    id = (ctx.sessionManager.getEntry(id) as EntryLike | undefined)?.parentId ?? null;
  }
  return ids;
}

function loopStatus(slice: KitState["toolLoop"]): StatusInputs["toolLoop"] {
  const loop = slice.stopped ?? toolLoopReport(slice);
  if (!loop) return null;
  return {
    kind: loop.kind,
    tools: loop.calls.map((call) => call.tool),
    marked: slice.markersThisRequest > 0,
    stopped: slice.stopped !== null,
  };
}

/** The kit in Pi's interactive TUI: a footer status line and the read-only `/kit` commands. */
export function tuiPlugin(options: TuiOptions) {
  return (pi: ExtensionAPI, kit: KitServices): KitHooks => {
    let policy: Policy | null = null;
    const policyFor = (ctx: ExtensionContext) => {
      policy ??= createPolicy({
        root: options.policyRoot ?? ctx.cwd,
        ...(options.agentDir === undefined ? {} : { agentDir: options.agentDir }),
      });
      return policy;
    };

    const refresh = (_event: unknown, ctx: ExtensionContext) => {
      if (!ctx.hasUI) return;
      try {
        const state = kit.live.atLeaf(ctx.sessionManager);
        const since = idsSinceRequest(ctx, state.request.currentRequestId);
        const tools = new Set(pi.getActiveTools());
        const line = statusLine({
          state: summarizeState(state),
          deniedThisRequest: Object.values(state.denials)
            .filter((d) => since.has(d.lastEntryId))
            .map((d) => d.scope),
          recoveredThisRequest:
            state.recovery.anchorId !== null && state.recovery.anchorRequestId === state.request.currentRequestId,
          verifies: tools.has("app_build") && tools.has("app_test"),
          toolLoop: loopStatus(state.toolLoop),
        });
        ctx.ui.setStatus(STATUS_KEY, line);
      } catch (error) {
        kit.report(error, "status", ctx);
      }
    };
    pi.on("session_start", refresh);
    pi.on("session_start", (_event, ctx) => {
      if (!ctx.hasUI) return;
      // The shell is off: the startup header should not offer `!` to run bash.
      let kept = true;
      ctx.ui.setHeader((tui) => {
        const header = headerWithoutShell(tui as unknown as Parameters<typeof headerWithoutShell>[0]);
        kept = header !== null;
        return (header ?? { render: () => [], invalidate: () => {} }) as unknown as ReturnType<
          NonNullable<Parameters<typeof ctx.ui.setHeader>[0]>
        >;
      });
      if (!kept) ctx.ui.setHeader(undefined);
    });
    pi.on("session_tree", refresh);
    pi.on("session_compact", refresh);
    pi.on("turn_end", refresh);
    pi.on("agent_end", refresh);

    pi.registerCommand("kit", {
      description: "context-kit: state at this leaf; /kit view, /kit policy, /kit report",
      getArgumentCompletions: (prefix) =>
        Object.keys(KIT_SUBCOMMANDS)
          .filter((name) => name !== "" && name.startsWith(prefix.trim()))
          .map((name) => ({
            value: name,
            label: name,
            description: KIT_SUBCOMMANDS[name as keyof typeof KIT_SUBCOMMANDS],
          })),
      handler: async (args, ctx) => {
        const text = await runKitCommand(args, {
          cwd: ctx.cwd,
          sessionFile: ctx.sessionManager.getSessionFile(),
          leafId: ctx.sessionManager.getLeafId(),
          policy: policyFor(ctx),
          reportDir: options.reportDir,
        });
        if (ctx.hasUI) ctx.ui.notify(text, "info");
        else console.log(text);
      },
    });
    return {};
  };
}
