import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // One test file per core. Vitest's default (cores − 1) runs a 2-core CI machine's files one at a time, while most
    // of the suite waits on the Pi processes, browsers and worker threads it starts.
    maxWorkers: "100%",
  },
});
