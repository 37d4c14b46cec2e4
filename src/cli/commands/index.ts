import type { Command } from "../command.js";
import { checkCommand } from "./check.js";
import { detectCommand } from "./detect.js";
import { exportCommand } from "./export.js";
import { indexCommand } from "./fleet-index.js";
import { inspectCommand } from "./inspect.js";
import { policyCommand } from "./policy.js";
import { recoverCommand } from "./recover.js";
import { replayCommand } from "./replay.js";
import { reportCommand } from "./report.js";
import { statsCommand } from "./stats.js";
import { viewCommand } from "./view.js";

export const COMMANDS: Command[] = [
  inspectCommand,
  replayCommand,
  viewCommand,
  checkCommand,
  detectCommand,
  recoverCommand,
  reportCommand,
  policyCommand,
  indexCommand,
  exportCommand,
  statsCommand,
];
