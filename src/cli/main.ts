#!/usr/bin/env node
import { runCli } from "./run.js";

// A reader that stops early (`| head`) closes stdout: end quietly with the command's own exit code.
let exitCode = 0;
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(exitCode);
    throw error;
  });
}

const output = await runCli(process.argv.slice(2), {
  cwd: process.cwd(),
  progress: process.stderr.isTTY ? (line) => process.stderr.write(`\r${line}\x1b[K`) : () => {},
  stdout: (chunk) => process.stdout.write(chunk),
});
exitCode = output.exitCode;
if (output.stdout) process.stdout.write(output.stdout);
if (output.stderr) process.stderr.write(output.stderr);
process.exitCode = output.exitCode;
