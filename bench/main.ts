#!/usr/bin/env node
/**
 * The benchmark harness (`npm run bench`): the kit against the host and the parse floor. It runs from a checkout
 * (its session generators live in test/synth) and is not part of the published package.
 */
import { runCommand } from "../src/cli/run.js";
import { benchCommand } from "./command.js";

const output = await runCommand(benchCommand, process.argv.slice(2), {
  cwd: process.cwd(),
  progress: process.stderr.isTTY ? (line) => process.stderr.write(`\r${line}\x1b[K`) : () => {},
  stdout: (chunk) => process.stdout.write(chunk),
});
if (output.stdout) process.stdout.write(output.stdout);
if (output.stderr) process.stderr.write(output.stderr);
process.exitCode = output.exitCode;
