import type { Command } from "../command.js";
import { inspectCommand } from "./inspect.js";
import { replayCommand } from "./replay.js";

export const COMMANDS: Command[] = [inspectCommand, replayCommand];
