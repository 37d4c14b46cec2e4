import { createHash } from "node:crypto";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createPolicy, type Policy } from "../../src/policy/index.js";
import { createMemoryDenialTracker, type MemoryDenialTracker } from "../../src/tools/denial-tracker.js";
import type { ToolFileOperations } from "../../src/tools/file-ops.js";
import { nodeToolFileOperations } from "../../src/tools/file-ops.js";
import { createGuardedTools, type GuardedTools } from "../../src/tools/guarded-tools.js";

export const EXCLUDED_TOKEN = "EXCLUDED_TOKEN_7f3a";
export const OUTSIDE_TOKEN = "OUTSIDE_TOKEN_91c2";
export const HIDDEN_NAMES = [
  "hidden-a.txt",
  "hidden-deep.txt",
  "hidden-notes.md",
  "hidden-nested",
  "outside-secret.txt",
];
export const PRIVATE_GUIDANCE = "These are customer records. Ask the user for summaries instead.";

/** A real project tree in a fresh temp dir: `base/project` is the root, `base/outside` lies beyond it. */
export interface Fixture {
  base: string;
  root: string;
  outside: string;
  kitDir: string;
  policy: Policy;
  denials: MemoryDenialTracker;
  tools: GuardedTools;
  /** Every path the tools handed to the file system. */
  touched: { op: string; path: string }[];
  cleanup(): void;
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

export function makeProject(): Omit<Fixture, "policy" | "denials" | "tools" | "touched"> {
  const base = mkdtempSync(join(tmpdir(), "ctx-policy-"));
  const root = join(base, "project");
  const outside = join(base, "outside");
  const kitDir = join(root, "vendor", "kit");
  write(join(outside, "outside-secret.txt"), `${OUTSIDE_TOKEN} needle\n`);
  write(join(root, "README.md"), "# Project\npublic readme needle\n");
  write(join(root, "AGENTS.md"), "Use tabs.\n");
  write(join(root, "src", "app.ts"), "export const app = 1; // needle\n");
  write(join(root, "src", "util.ts"), "export const util = 2;\n");
  write(join(root, "private", ".context-exclude"), `${PRIVATE_GUIDANCE}\n`);
  write(join(root, "private", "hidden-a.txt"), `${EXCLUDED_TOKEN} needle\n`);
  write(join(root, "private", "hidden-nested", "hidden-deep.txt"), `${EXCLUDED_TOKEN} needle deep\n`);
  write(join(root, "docs", "public.md"), "public docs needle\n");
  write(join(root, "docs", "internal", ".context-exclude"), "");
  write(join(root, "docs", "internal", "hidden-notes.md"), `${EXCLUDED_TOKEN} needle notes\n`);
  write(join(root, ".pi", "settings.json"), "{}\n");
  write(join(kitDir, "index.js"), "export {};\n");
  mkdirSync(join(root, "links"));
  symlinkSync("../private", join(root, "links", "to-private"));
  symlinkSync("../private/hidden-a.txt", join(root, "links", "to-private-file"));
  symlinkSync("../../outside", join(root, "links", "to-outside"));
  symlinkSync("../../outside/outside-secret.txt", join(root, "links", "to-outside-file"));
  symlinkSync("../README.md", join(root, "links", "to-readme"));
  symlinkSync("../../outside/new.txt", join(root, "links", "dangling-out"));
  symlinkSync("../private/new.txt", join(root, "links", "dangling-private"));
  symlinkSync("private", join(root, "private-alias"));
  symlinkSync("../README.md", join(root, "private", "escape-to-readme"));
  return { base, root, outside, kitDir, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/** The real operations, with every path they are handed written down. */
export function recording(touched: { op: string; path: string }[]): ToolFileOperations {
  const ops = nodeToolFileOperations;
  const note = (op: string, path: string) => {
    touched.push({ op, path });
  };
  return {
    stat: (p) => {
      note("stat", p);
      return ops.stat(p);
    },
    lstat: (p) => {
      note("lstat", p);
      return ops.lstat(p);
    },
    readdir: (p) => {
      note("readdir", p);
      return ops.readdir(p);
    },
    openRead: (p) => {
      note("openRead", p);
      return ops.openRead(p);
    },
    writeFile: (p, d) => {
      note("writeFile", p);
      return ops.writeFile(p, d);
    },
  };
}

export function makeFixture(): Fixture {
  const project = makeProject();
  const policy = createPolicy({ root: project.root, home: project.base, protectedDirs: [project.kitDir] });
  const denials = createMemoryDenialTracker();
  const touched: Fixture["touched"] = [];
  const tools = createGuardedTools({ policy, denials, operations: recording(touched) });
  return { ...project, policy, denials, tools, touched };
}

/** Every entry below `dir` with its type and content hash (symlinks by target), for before/after comparisons. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (path: string, rel: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) out[rel] = `link:${readlinkSync(path)}`;
    else if (stat.isDirectory()) {
      out[rel] = "dir";
      for (const name of readdirSync(path).sort()) visit(join(path, name), rel ? `${rel}/${name}` : name);
    } else out[rel] = `file:${createHash("sha256").update(readFileSync(path)).digest("hex")}`;
  };
  visit(dir, "");
  return out;
}
