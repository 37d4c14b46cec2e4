import { kitVersion } from "../package-root.js";
import { HostCapabilitiesError, loadHostCapabilities } from "../tools/index.js";
import { DEMO_FLAG, prepareDemo } from "./demo/demo.js";
import { holdPromptsUntilSettled, isHeadless } from "./headless-settle.js";
import { HostNotFound, loadHostModule, resolveHost } from "./host.js";
import { inlineFactories, type NamedFactory, nameInlineExtensions } from "./inline-names.js";
import { agentDirFromEnv, createKitExtension } from "./kit-extension.js";
import { isNewHostLine, LaunchRefused, planLaunch } from "./launcher.js";
import { hostHelpText, launcherHelp, wantsHelp } from "./launcher-help.js";
import { SettleGate } from "./settle-gate.js";

type HostMain = (args: string[], options?: { extensionFactories?: unknown[] }) => Promise<void>;

export interface LaunchOptions {
  /**
   * Factories loaded before the kit, bare or named (tests use it for an offline provider; never reachable from the
   * command line).
   */
  extraFactories?: (unknown | NamedFactory)[];
}

/**
 * `pi-context`: the native host CLI with the kit inline, discovery off and no shell. Returns the exit code; bad
 * arguments, a missing host and malformed host capabilities give 2 with a message on stderr.
 */
export async function launch(argv: string[], options: LaunchOptions = {}): Promise<number> {
  try {
    const host = resolveHost();
    if (argv.includes("--version") || argv.includes("-v")) {
      process.stdout.write(`pi-context ${kitVersion()} (pi-context-kit) on ${host.name} ${host.version}\n`);
      return 0;
    }
    const demo = argv[0] === DEMO_FLAG ? await prepareDemo(argv, host) : null;
    const plan = planLaunch(demo?.args ?? argv, host);
    if (plan.protect && wantsHelp(argv)) {
      process.stdout.write(`${launcherHelp(host, hostHelpText(host))}\n`);
      return 0;
    }
    const policyRoot = process.cwd();
    if (plan.protect) await loadHostCapabilities({ projectRoot: policyRoot, agentDir: agentDirFromEnv() });
    const module = await loadHostModule(host);
    process.title = "pi";
    process.env.PI_CODING_AGENT = "true";
    // On 0.73, print and JSON modes dispose the runtime before the kit's end-of-run work is done: hold each prompt.
    const gate = new SettleGate();
    if (plan.protect && !isNewHostLine(host) && isHeadless(plan.args, process.stdin.isTTY)) {
      holdPromptsUntilSettled(module.AgentSession, gate);
    }
    const named = isNewHostLine(host);
    if (!named) nameInlineExtensions(module);
    const kit: NamedFactory = { name: "pi-context-kit", factory: createKitExtension({ policyRoot, gate }) };
    const extensionFactories = plan.protect
      ? inlineFactories([...(options.extraFactories ?? []), ...(demo?.factories ?? []), kit], named)
      : [];
    await (module.main as HostMain)(plan.args, { extensionFactories });
    demo?.finish();
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof LaunchRefused || error instanceof HostNotFound || error instanceof HostCapabilitiesError) {
      process.stderr.write(`pi-context: ${error.code}: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
