import type { Command } from "../command.js";
import { inspectCommand } from "./inspect.js";

export const COMMANDS: Command[] = [inspectCommand];
