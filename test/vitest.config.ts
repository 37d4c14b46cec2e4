import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * A test file that loads Pi in-process (Pi keeps its agent folder from the first import), mocks a module or sets the
 * environment gets a process of its own; the others share their worker's loaded modules, since loading them again
 * for each file cost more than many of the tests.
 */
const OWN_PROCESS =
  /helpers\/faux-(env|sdk)|vi\.(mock|doMock|resetModules)\(|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|process\.chdir\(/;

function testFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

const ownProcess = testFiles("test").filter((path) => OWN_PROCESS.test(readFileSync(join(root, path), "utf8")));

const shared = { root, testTimeout: 60_000, hookTimeout: 60_000, pool: "forks" as const };

export default defineConfig({
  test: {
    ...shared,
    globalSetup: ["test/global-setup.ts"],
    // One test file per core. Vitest's default (cores − 1) runs a 2-core CI machine's files one at a time, while most
    // of the suite waits on the Pi processes, browsers and worker threads it starts.
    maxWorkers: "100%",
    projects: [
      {
        test: {
          ...shared,
          name: "shared",
          include: ["test/**/*.test.ts"],
          exclude: ownProcess,
          isolate: false,
          // Fails a file that leaves the environment or the working directory changed for the next one.
          setupFiles: ["test/helpers/shared-process-guard.ts"],
        },
      },
      { test: { ...shared, name: "own-process", include: ownProcess } },
    ],
  },
});
