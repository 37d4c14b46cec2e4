import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPolicy, type Decision, nodePolicyFs, type Policy } from "../../src/policy/index.js";
import { makeProject } from "./fixture.js";

type Project = ReturnType<typeof makeProject>;
let f: Project;
let root: string;
let policy: Policy;

beforeEach(() => {
  f = makeProject();
  root = realpathSync(f.root);
  policy = createPolicy({ root: f.root, home: f.base, protectedDirs: [f.kitDir] });
});
afterEach(() => f.cleanup());

function denied(d: Decision) {
  if (d.allowed || d.kind === "unresolvable") throw new Error(`expected a denial, got ${JSON.stringify(d)}`);
  return d;
}

describe("decide", () => {
  it("given a plain project file, when decided, then it is allowed at its canonical path", () => {
    const d = policy.decide("src/app.ts", "read");
    expect(d).toMatchObject({ allowed: true, path: join(root, "src", "app.ts"), viaSymlink: false });
  });

  it("given an alias of an excluded directory, when decided, then the scope is the marker's canonical directory", () => {
    for (const input of ["private/hidden-a.txt", "private-alias/hidden-a.txt", "links/to-private-file", "@./private"]) {
      expect(denied(policy.decide(input, "read"))).toMatchObject({
        status: "excluded",
        kind: "marker",
        scope: join(root, "private"),
        rule: `marker:${join(root, "private", ".context-exclude")}`,
      });
    }
  });

  it("given a path outside the root, then it is outOfScope with the root as scope", () => {
    expect(denied(policy.decide("../outside/outside-secret.txt", "read"))).toMatchObject({
      status: "outOfScope",
      kind: "outside-root",
      scope: root,
      rule: `outside-root:${root}`,
      path: join(realpathSync(f.outside), "outside-secret.txt"),
    });
  });

  it("given nested markers, then the outermost marker names the scope", () => {
    writeFileSync(join(f.root, "private", "hidden-nested", ".context-exclude"), "inner");
    expect(denied(policy.decide("private/hidden-nested/hidden-deep.txt", "read")).scope).toBe(join(root, "private"));
  });

  it("given a marker added and then removed, then each call sees the current state (nothing cached)", () => {
    expect(policy.decide("src/app.ts", "read").allowed).toBe(true);
    writeFileSync(join(f.root, "src", ".context-exclude"), "");
    expect(denied(policy.decide("src/app.ts", "read")).scope).toBe(join(root, "src"));
    rmSync(join(f.root, "src", ".context-exclude"));
    expect(policy.decide("src/app.ts", "read").allowed).toBe(true);
  });

  it("given a marker at the root, then the whole project is excluded", () => {
    writeFileSync(join(f.root, ".context-exclude"), "");
    expect(denied(policy.decide("README.md", "read")).scope).toBe(root);
    expect(denied(policy.decide(".", "list")).scope).toBe(root);
  });

  it("given control files, then reads are allowed and writes are denied", () => {
    expect(policy.decide(".pi/settings.json", "read").allowed).toBe(true);
    expect(denied(policy.decide(".pi/settings.json", "write"))).toMatchObject({
      kind: "control",
      scope: join(root, ".pi"),
      rule: `control:pi-dir:${join(root, ".pi")}`,
    });
    expect(denied(policy.decide("src/deeper/.pi", "write")).kind).toBe("control");
    expect(denied(policy.decide("src/.context-exclude", "write")).rule).toBe(
      `control:marker-file:${join(root, "src", ".context-exclude")}`,
    );
    expect(denied(policy.decide("vendor/kit/index.js", "write")).rule).toBe(
      `control:kit-package:${join(root, "vendor", "kit")}`,
    );
    expect(policy.decide("vendor/kit/index.js", "read").allowed).toBe(true);
    expect(policy.decide("src/new.ts", "write").allowed).toBe(true);
  });

  it("defaults the protected folder to the kit's own package", () => {
    const kit = createPolicy({ root: join(import.meta.dirname, "..", "..") });
    expect(denied(kit.decide("src/policy/policy.ts", "write")).rule).toMatch(/^control:kit-package:/);
    expect(kit.decide("src/policy/policy.ts", "read").allowed).toBe(true);
  });

  it("given symlinks inside the root, then allowed links are marked viaSymlink", () => {
    expect(policy.decide("links/to-readme", "read")).toMatchObject({
      allowed: true,
      path: join(root, "README.md"),
      viaSymlink: true,
    });
    mkdirSync(join(f.root, "real-dir"));
    symlinkSync("real-dir", join(f.root, "dir-link"));
    expect(policy.decide("dir-link/new.txt", "write")).toMatchObject({ allowed: true, viaSymlink: true });
  });

  it("given a root reached through a symlink, then both spellings resolve inside it", () => {
    symlinkSync(f.root, join(f.base, "root-link"));
    const viaLink = createPolicy({ root: join(f.base, "root-link"), protectedDirs: [] });
    expect(viaLink.root).toBe(root);
    expect(viaLink.decide(join(f.base, "root-link", "README.md"), "read")).toMatchObject({
      allowed: true,
      viaSymlink: false,
    });
    expect(viaLink.decide(join(root, "README.md"), "read").allowed).toBe(true);
    expect(denied(viaLink.decide(join(f.base, "root-link", "private", "x"), "read")).scope).toBe(join(root, "private"));
  });

  it("given ~ and @ spellings, then they expand like the host's", () => {
    expect(policy.decide("~/project/README.md", "read")).toMatchObject({
      allowed: true,
      path: join(root, "README.md"),
    });
    expect(policy.decide("@README.md", "read")).toMatchObject({ allowed: true, path: join(root, "README.md") });
    expect(denied(policy.decide("~", "list")).status).toBe("outOfScope");
  });

  it("given a marker that cannot be checked, then the directory counts as excluded", () => {
    const failing = createPolicy({
      root: f.root,
      protectedDirs: [],
      fs: {
        ...nodePolicyFs,
        lstat(path) {
          if (path === join(root, "src", ".context-exclude"))
            throw Object.assign(new Error("denied"), { code: "EACCES" });
          return nodePolicyFs.lstat(path);
        },
      },
    });
    expect(denied(failing.decide("src/app.ts", "read")).rule).toBe(`marker-unverifiable:${join(root, "src")}`);
  });
});

describe("the default file system's probes", () => {
  it("given paths of every kind, when decided through the non-throwing lstat, then they match the throwing one", () => {
    // An injected copy of the node file system goes through its own (throwing) lstat.
    const injected = createPolicy({ root: f.root, home: f.base, protectedDirs: [f.kitDir], fs: { ...nodePolicyFs } });
    const dirs = ["", "private", "docs/internal", "docs", "README.md", "nope", "links/to-private", "links/to-readme"];
    for (const dir of dirs) expect(policy.markerIn(join(root, dir))).toBe(injected.markerIn(join(root, dir)));
    expect(policy.markerIn(join(root, "private"))).toBe("marker");
    expect(policy.markerIn(join(root, "README.md"))).toBe("none");
    const inputs = [...dirs, "README.md/x", "nope/deeper", "links/dangling-private", "private-alias/hidden-a.txt"];
    for (const input of inputs) {
      for (const op of ["read", "list", "write"] as const) {
        expect(policy.decide(input, op)).toEqual(injected.decide(input, op));
      }
    }
    expect(policy.decide("links/to-readme", "read")).toMatchObject({ allowed: true, viaSymlink: true });
  });
});

describe("case handling", () => {
  it("detects this file system's case sensitivity by probing", () => {
    mkdirSync(join(f.root, "Mixed"));
    const probe = createPolicy({ root: f.root, protectedDirs: [] });
    let caseInsensitive = false;
    try {
      caseInsensitive = realpathSync(join(f.root, "MIXED")) !== "";
    } catch {
      caseInsensitive = false;
    }
    expect(probe.caseInsensitive).toBe(caseInsensitive);
  });

  it.skipIf(createPolicy({ root: import.meta.dirname, protectedDirs: [] }).caseInsensitive)(
    "on a case-sensitive file system, names are exact: a differently cased sibling is a different directory",
    () => {
      mkdirSync(join(f.root, "Private"));
      writeFileSync(join(f.root, "Private", "open.txt"), "fine");
      expect(policy.decide("Private/open.txt", "read").allowed).toBe(true);
      expect(policy.decide("private/hidden-a.txt", "read").allowed).toBe(false);
      expect(policy.decide(".PI/settings.json", "write").allowed).toBe(true);
    },
  );

  it("with case folding, variants of excluded and control names are denied under the stored spelling", () => {
    const folded = createPolicy({ root: f.root, home: f.base, protectedDirs: [f.kitDir], caseInsensitive: true });
    expect(denied(folded.decide("PRIVATE/Hidden-A.txt", "read")).scope).toBe(join(root, "private"));
    expect(denied(folded.decide("DOCS/Internal", "list")).scope).toBe(join(root, "docs", "internal"));
    expect(denied(folded.decide(".PI/settings.json", "write")).kind).toBe("control");
    expect(denied(folded.decide("src/.Context-Exclude", "write")).kind).toBe("control");
    expect(denied(folded.decide("VENDOR/KIT/index.js", "write")).kind).toBe("control");
    expect(folded.decide("SRC/app.ts", "write")).toMatchObject({ allowed: true, viaSymlink: false });
  });
});
