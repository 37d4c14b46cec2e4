import { homedir } from "node:os";
import { join } from "node:path";

/** The host's agent directory: `PI_CODING_AGENT_DIR`, else `~/.pi/agent`. */
export function agentDirFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return env.PI_CODING_AGENT_DIR || join(homedir(), ".pi", "agent");
}
