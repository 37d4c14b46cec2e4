import { afterAll, beforeAll } from "vitest";

/**
 * Test files that share their worker's process: each must leave the environment and the working directory as it found
 * them, or the next file in that worker would run in a different world. Runs around every such file.
 */
let env: Record<string, string | undefined> = {};
let cwd = "";

beforeAll(() => {
  env = { ...process.env };
  cwd = process.cwd();
});

afterAll(() => {
  const changed = [...new Set([...Object.keys(env), ...Object.keys(process.env)])].filter(
    (key) => env[key] !== process.env[key],
  );
  if (changed.length > 0) {
    throw new Error(
      `this test file left process.env changed (${changed.join(", ")}) for the next file in its worker: restore it`,
    );
  }
  if (process.cwd() !== cwd) throw new Error(`this test file left the working directory at ${process.cwd()}`);
});
