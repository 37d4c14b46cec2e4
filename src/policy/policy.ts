import type { Stats } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { packageRoot } from "../package-root.js";
import { type BoundedText, loadBoundedText } from "./bounded-text.js";
import { detectCaseInsensitive, makeFold, trueCase } from "./case-fold.js";
import { CONTROL_DIRS, MARKER_NAME } from "./constants.js";
import type { Decision, DenialKind, Denied, PolicyOp, Unresolvable, UnresolvableCode } from "./decision.js";
import { expandPathInput } from "./path-input.js";
import { childPath, partsBelow, sameNames, sameParts } from "./path-parts.js";
import { errorCode, isAbsent, lstatOrAbsent, nodePolicyFs, type PolicyFs } from "./policy-fs.js";
import { realPathOf } from "./real-path.js";

export interface PolicyOptions {
  /** The directory the session started in. */
  root: string;
  /** Where `~` points; defaults to the user's home directory. */
  home?: string;
  /** Overrides the per-root probe (tests, or hosts that know better). */
  caseInsensitive?: boolean;
  /** Folders that are never writable; defaults to the kit's own installed package folder. */
  protectedDirs?: readonly string[];
  /** The host's agent directory (extensions, skills, host capabilities): never writable when under the root. */
  agentDir?: string;
  fs?: PolicyFs;
}

export type MarkerProbe = "none" | "marker" | "unverifiable";

/** A path the file tools never write, as `decide` enforces it: a folder name at any depth, a file name, or a folder. */
export interface ControlPath {
  path: string;
  why: string;
}

export interface Policy {
  /** Canonical real path of the policy root. */
  readonly root: string;
  readonly caseInsensitive: boolean;
  readonly fs: PolicyFs;
  /** Decides one path for one operation, checking markers afresh; nothing is cached. */
  decide(input: string, op: PolicyOp): Decision;
  /** Whether `dir` itself holds a marker; used to prune walks before a directory is enumerated. */
  markerIn(dir: string): MarkerProbe;
  /** The marker file's text for a denied scope, through the bounded loader. */
  markerGuidance(scope: string): BoundedText;
  /** Real path, respelled with the stored case on case-insensitive file systems. */
  canonical(path: string): string;
  /** Every control path `decide` refuses to write, from the same constants and folders. */
  readonly control: readonly ControlPath[];
}

const PROTECTED_WHY: Record<string, string> = {
  "kit-package": "the installed pi-context-kit package",
  "agent-dir": "the host's agent directory (extensions, skills, host capabilities)",
};

export function createPolicy(options: PolicyOptions): Policy {
  const fs = options.fs ?? nodePolicyFs;
  const rootGiven = resolve(options.root);
  const rootReal = fs.realpath(rootGiven);
  const caseInsensitive = options.caseInsensitive ?? detectCaseInsensitive(rootReal, fs);
  const fold = makeFold(caseInsensitive);
  const home = options.home ?? homedir();
  const protectedDirs = [
    ...(options.protectedDirs ?? [packageRoot()]).map((dir) => ({ dir, rule: "kit-package" })),
    ...(options.agentDir === undefined ? [] : [{ dir: options.agentDir, rule: "agent-dir" }]),
  ].map(({ dir, rule }) => ({ dir: realPathOf(resolve(dir), fs), rule }));

  const canonical = (path: string): string => {
    const real = realPathOf(path, fs);
    const parts = caseInsensitive ? partsBelow(rootReal, real, fold) : undefined;
    return parts ? trueCase(rootReal, parts, fold, fs) : real;
  };

  const lstat = lstatOrAbsent(fs);
  /** Whether a marker is at `markerPath` (a directory's path joined with the marker's name). */
  const probeMarker = (markerPath: string): { probe: MarkerProbe; unresolvable?: UnresolvableCode } => {
    try {
      return { probe: lstat(markerPath) === undefined ? "none" : "marker" };
    } catch (error) {
      if (isAbsent(error)) return { probe: "none" };
      const code = errorCode(error);
      if (code === "ENAMETOOLONG") return { probe: "unverifiable", unresolvable: "PATH_TOO_LONG" };
      if (code === "ELOOP") return { probe: "unverifiable", unresolvable: "SYMLINK_LOOP" };
      return { probe: "unverifiable" };
    }
  };
  const markerIn = (dir: string): MarkerProbe => probeMarker(join(dir, MARKER_NAME)).probe;

  /**
   * The outermost marker between `base` and `base/parts…` inclusive. `finalNotDir`: the last path is known to be no
   * directory (nor a link to one), so nothing can lie inside it and its probe is skipped (it could only miss).
   */
  const markerScan = (base: string, parts: readonly string[], finalNotDir: boolean) => {
    let dir = base;
    const last = finalNotDir ? parts.length - 1 : parts.length;
    for (let i = 0; i <= last; i++) {
      if (i > 0) dir = childPath(dir, parts[i - 1] ?? "");
      const found = probeMarker(childPath(dir, MARKER_NAME));
      if (found.probe !== "none") return { dir, ...found };
    }
    return undefined;
  };

  const controlScan = (base: string, parts: readonly string[]) => {
    const at = parts.findIndex((part) => CONTROL_DIRS.some((c) => fold(part) === fold(c.name)));
    if (at >= 0) {
      const control = CONTROL_DIRS.find((c) => fold(c.name) === fold(parts[at] ?? ""));
      const scope = canonical(join(base, ...parts.slice(0, at + 1)));
      return { scope, rule: `control:${control?.rule}:${scope}` };
    }
    const last = parts.at(-1);
    if (last !== undefined && fold(last) === fold(MARKER_NAME)) {
      const scope = canonical(join(base, ...parts.slice(0, -1)));
      return { scope, rule: `control:marker-file:${join(scope, MARKER_NAME)}` };
    }
    return undefined;
  };

  const decide = (input: string, op: PolicyOp): Decision => {
    const lexical = expandPathInput(input, rootGiven, home);
    const path = canonical(lexical);
    const deny = (
      status: Denied["status"],
      kind: DenialKind,
      scope: string,
      rule: string,
      marker?: string,
    ): Denied => ({
      allowed: false,
      op,
      input,
      lexicalPath: lexical,
      status,
      kind,
      scope,
      rule,
      path,
      ...(marker === undefined ? {} : { marker }),
    });

    const lexBase = partsBelow(rootGiven, lexical, fold) ? rootGiven : rootReal;
    const lexParts = partsBelow(lexBase, lexical, fold);
    const realParts = partsBelow(rootReal, path, fold);
    if (!lexParts || !realParts) return deny("outOfScope", "outside-root", rootReal, `outside-root:${rootReal}`);

    // The final path's own entry, read once: it tells a link apart, and a plain file cannot hold a marker.
    let final: Stats | undefined;
    try {
      final = lstat(lexical);
    } catch {
      final = undefined;
    }
    const finalNotDir = lexical === path && final !== undefined && !final.isDirectory() && !final.isSymbolicLink();

    // A file error (a name too long, a symlink loop) ends a scan without a verdict: nothing lies beyond it, so it is
    // reported as that error unless the other spelling finds a marker. When both spellings are the same names under
    // the same base, one scan answers for both.
    let unresolvable: UnresolvableCode | undefined;
    const spellings: (readonly [string, readonly string[]])[] = [[rootReal, realParts]];
    if (lexBase !== rootReal || !sameNames(lexParts, realParts)) spellings.push([lexBase, lexParts]);
    for (const [base, parts] of spellings) {
      const hit = markerScan(base, parts, finalNotDir);
      if (!hit) continue;
      if (hit.unresolvable) {
        unresolvable ??= hit.unresolvable;
        continue;
      }
      const scope = canonical(hit.dir);
      const marker = join(scope, MARKER_NAME);
      const rule = hit.probe === "marker" ? `marker:${marker}` : `marker-unverifiable:${scope}`;
      return deny("excluded", "marker", scope, rule, marker);
    }

    if (op === "write") {
      const control = controlScan(rootReal, realParts) ?? controlScan(lexBase, lexParts);
      if (control) return deny("excluded", "control", control.scope, control.rule);
      for (const { dir, rule } of protectedDirs) {
        if (partsBelow(dir, path, fold) || partsBelow(dir, lexical, fold)) {
          return deny("excluded", "control", dir, `control:${rule}:${dir}`);
        }
      }
    }
    if (unresolvable) {
      const refused: Unresolvable = { allowed: false, kind: "unresolvable", op, input, code: unresolvable, path };
      return refused;
    }

    const finalLink = final?.isSymbolicLink() ?? false;
    const viaSymlink = finalLink || !sameParts(lexParts, realParts, fold);
    return { allowed: true, op, input, path, lexicalPath: lexical, viaSymlink };
  };

  return {
    root: rootReal,
    caseInsensitive,
    fs,
    decide,
    markerIn,
    markerGuidance: (scope) => loadBoundedText(join(scope, MARKER_NAME), fs),
    canonical,
    control: [
      ...CONTROL_DIRS.map((c) => ({ path: `${c.name}/ (any depth)`, why: c.label })),
      { path: `${MARKER_NAME} files`, why: "the markers that exclude their folders" },
      ...protectedDirs.map(({ dir, rule }) => ({ path: `${dir}/`, why: PROTECTED_WHY[rule] ?? rule })),
    ],
  };
}
