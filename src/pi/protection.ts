import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { DenialRecord, KitState } from "../../reducers/state.js";
import { createPolicy, filterOutput, loadRootGuidance, type Policy } from "../policy/index.js";
import {
  createGuardedTools,
  type DenialTracker,
  FILE_TOOL_NAMES,
  type FindGlobs,
  type MutationQueue,
  resultNeedsErrorFlag,
  type ToolDefinition,
} from "../tools/index.js";
import type { KitPlugin, RequestInputs } from "./kit-hooks.js";

const SHELL_TOOLS = new Set(["bash", "shell", "powershell"]);

export interface ProtectionOptions {
  /** The policy root; default: the session's working directory when it starts. */
  policyRoot?: string;
  withMutationQueue?: MutationQueue;
  /** Tools from host capabilities (already checked), added to the catalog. */
  hostTools?: ToolDefinition[];
  /** The host's agent directory: never writable when it lies under the policy root. */
  agentDir?: string;
  /** How the host line reads `find` patterns with a `/` (relative to the search directory from Pi 1.6). */
  findGlobs?: FindGlobs;
}

/** Denial counts backed by the folded session, plus the denials this process issued that are not folded yet. */
function sessionDenialTracker(current: () => KitState | null): DenialTracker & { reset(key: string): void } {
  const issued = new Map<string, number>();
  return {
    note(key) {
      const folded = current()?.denials[key]?.count ?? 0;
      const count = Math.max(folded, issued.get(key) ?? 0) + 1;
      issued.set(key, count);
      return { count, first: count === 1 };
    },
    reset(key) {
      issued.delete(key);
    },
  };
}

/** A recorded denial is allowed again only when the same operation on the same spelled path now passes. */
function passesNow(policy: Policy, denial: DenialRecord): boolean {
  const op = denial.op ?? (denial.rule.startsWith("control:") ? "write" : "read");
  return policy.decide(denial.target, op).allowed;
}

/**
 * Directory protection inside the host: guarded file tools replace the built-in ones, shell is off (tool and `!`
 * commands), denials and file problems get the host's error flag, and root guidance is reloaded for each request.
 */
export function protectionPlugin(options: ProtectionOptions = {}): KitPlugin {
  return (pi: ExtensionAPI, kit) => {
    const agent = options.agentDir === undefined ? {} : { agentDir: options.agentDir };
    let policy: Policy | null = options.policyRoot ? createPolicy({ root: options.policyRoot, ...agent }) : null;
    let lastCtx: ExtensionContext | null = null;
    const policyFor = (ctx: { cwd: string }) => {
      policy ??= createPolicy({ root: ctx.cwd, ...agent });
      return policy;
    };
    const tracker = sessionDenialTracker(() => (lastCtx ? kit.live.atLeaf(lastCtx.sessionManager) : null));
    let tools: ReturnType<typeof createGuardedTools> | null = null;
    const toolsFor = (ctx: { cwd: string }) => {
      tools ??= createGuardedTools({
        policy: policyFor(ctx),
        denials: tracker,
        ...(options.withMutationQueue ? { withMutationQueue: options.withMutationQueue } : {}),
        ...(options.findGlobs ? { findGlobs: options.findGlobs } : {}),
      });
      return tools;
    };

    const templates = createGuardedTools({
      policy: createPolicy({ root: options.policyRoot ?? process.cwd(), ...agent }),
      denials: tracker,
    });
    for (const name of FILE_TOOL_NAMES) {
      const template = templates[name] as ToolDefinition;
      const delegate: ToolDefinition = {
        ...template,
        async execute(id, params, signal, onUpdate, ctx) {
          lastCtx = ctx as ExtensionContext;
          const tool = toolsFor(ctx as ExtensionContext)[name] as ToolDefinition;
          return tool.execute(id, params, signal, onUpdate, ctx);
        },
      };
      pi.registerTool(delegate as never);
    }
    for (const tool of options.hostTools ?? []) pi.registerTool(tool as never);

    const dropShell = () => {
      const active = pi.getActiveTools();
      const safe = active.filter((name) => !SHELL_TOOLS.has(name));
      if (safe.length !== active.length) pi.setActiveTools(safe);
    };
    pi.on("session_start", (_event, ctx) => {
      lastCtx = ctx;
      policyFor(ctx);
      dropShell();
    });
    pi.on("tool_call", (event, ctx) => {
      lastCtx = ctx;
      if (SHELL_TOOLS.has(event.toolName)) {
        return {
          block: true,
          reason:
            "Shell commands are disabled by the project's context policy. Use the file tools (read, grep, find, ls, write, edit) instead.",
        };
      }
      return undefined;
    });
    const fileTools = new Set<string>(FILE_TOOL_NAMES);
    pi.on("tool_result", (event, ctx) => {
      if (resultNeedsErrorFlag(event.details)) return { isError: true };
      if (fileTools.has(event.toolName)) return undefined;
      let changed = false;
      const content = event.content.map((c) => {
        if (c.type !== "text") return c;
        const filtered = filterOutput(c.text, policyFor(ctx));
        changed ||= filtered.redacted > 0;
        return { ...c, text: filtered.text };
      });
      return changed ? { content } : undefined;
    });
    pi.on("user_bash", () => ({
      result: {
        output: "Shell commands (! and !!) are disabled by the project's context policy.",
        exitCode: 1,
        cancelled: false,
        truncated: false,
      },
    }));

    return {
      filterOutput: (text, ctx) => filterOutput(text, policyFor(ctx)).text,
      requestInputs(state, ctx) {
        const loaded = loadRootGuidance(policyFor(ctx));
        const guidance = !loaded || ctx.getSystemPrompt().includes(loaded.text) ? null : loaded.projectData;
        const allowedAgain: RequestInputs["allowedAgain"] = [];
        for (const [key, denial] of Object.entries(state.denials)) {
          if (!passesNow(policyFor(ctx), denial)) continue;
          allowedAgain.push({ scope: denial.scope, rule: denial.rule });
          tracker.reset(key);
        }
        return { guidance, allowedAgain };
      },
    };
  };
}
