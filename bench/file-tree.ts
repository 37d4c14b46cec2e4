import { copyFileSync, linkSync, mkdirSync, readdirSync, readlinkSync, symlinkSync } from "node:fs";
import { join } from "node:path";

export interface FileTree {
  root: string;
  files: number;
  dirs: number;
}

/**
 * A large project tree for the file-tool rows, the same on every run of one checkout: the kit's own installed
 * dependencies under `deps/` (hard-linked, so nothing is copied) and its sources under `src/`. Folders named
 * `node_modules` or `.git` are renamed on the way, because the kit's tools skip those names and the host's do not.
 * `budget` bounds the files taken (the quick run takes few).
 */
export function writeFileTree(root: string, packageRoot: string, budget: number): FileTree {
  const tree: FileTree = { root, files: 0, dirs: 0 };
  const copy = (from: string, to: string) => {
    mkdirSync(to, { recursive: true });
    tree.dirs++;
    const entries = readdirSync(from, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (tree.files >= budget) return;
      const name =
        entry.name === "node_modules" || entry.name === ".git" ? `${entry.name.replace(".", "")}-copy` : entry.name;
      const source = join(from, entry.name);
      const target = join(to, name);
      if (entry.isDirectory()) copy(source, target);
      else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
      else if (entry.isFile()) {
        try {
          linkSync(source, target);
        } catch {
          copyFileSync(source, target);
        }
        tree.files++;
      }
    }
  };
  copy(join(packageRoot, "src"), join(root, "src"));
  copy(join(packageRoot, "node_modules"), join(root, "deps"));
  return tree;
}
