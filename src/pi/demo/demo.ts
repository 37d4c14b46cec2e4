import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { readSessionFile } from "../../log/read-session.js";
import type { HostPackage } from "../host.js";
import { LaunchRefused } from "../launcher.js";
import { demoProvider, loadHostAi } from "./demo-provider.js";
import { DEMO_FILES, DEMO_MODEL_ID, DEMO_PROMPTS, DEMO_PROVIDER } from "./demo-script.js";
import { demoTranscript } from "./demo-transcript.js";

export const DEMO_FLAG = "--demo";

export interface DemoRun {
  /** The host arguments: the scripted model, the demo's session file, print mode and the prompts. */
  args: string[];
  /** Loaded before the kit: the scripted model. */
  factories: unknown[];
  /** Prints the session, read back from its file, and what to try next. */
  finish(): void;
}

/**
 * `pi-context --demo`: a scripted session on Pi's offline faux provider, in a fresh folder under the system's
 * temporary directory (its own project and agent directory, so the user's Pi settings and sessions are never read or
 * written). Changes the process's working directory and agent directory to the demo's.
 */
export async function prepareDemo(argv: readonly string[], host: HostPackage): Promise<DemoRun> {
  if (argv.length > 1)
    throw new LaunchRefused(`${DEMO_FLAG} takes no other arguments (got ${argv.slice(1).join(" ")}).`);
  const root = mkdtempSync(join(tmpdir(), "pi-context-demo-"));
  const project = join(root, "project");
  const agentDir = join(root, "agent");
  for (const [path, text] of Object.entries(DEMO_FILES)) {
    mkdirSync(dirname(join(project, path)), { recursive: true });
    writeFileSync(join(project, path), text);
  }
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(join(agentDir, "settings.json"), `${JSON.stringify({ compaction: { enabled: false } }, null, 2)}\n`);
  process.env.PI_CODING_AGENT_DIR = agentDir;
  process.env.PI_OFFLINE = "1";
  process.chdir(project);
  const session = join(root, "demo-session.jsonl");
  const ai = await loadHostAi(host);
  const write = process.stdout.write.bind(process.stdout);
  write(
    [
      `pi-context demo: ${host.name} ${host.version} with pi-context-kit, on a scripted offline model (no API key).`,
      `Project: ${project} (a .context-exclude marker excludes secrets/)`,
      "Pi's answer, as `pi -p` prints it:",
      "",
    ].join("\n"),
  );
  return {
    args: ["--model", `${DEMO_PROVIDER}/${DEMO_MODEL_ID}`, "--session", session, "-p", ...DEMO_PROMPTS],
    factories: [demoProvider(ai)],
    finish() {
      if (!existsSync(session)) {
        write(`\nPi wrote no session file (${session}); its messages above say why.\n`);
        return;
      }
      const lines = demoTranscript(readSessionFile(session).entries);
      write(
        [
          "",
          `What happened, read back from the session file ${session}:`,
          ...lines,
          "",
          "Look at it offline:",
          `  context-kit inspect ${session}`,
          `  context-kit view ${session}`,
          `  context-kit report ${session} --out demo-report.html`,
          "",
        ].join("\n"),
      );
    },
  };
}
