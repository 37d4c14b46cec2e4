import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { isStalled } from "../../../reducers/recovery.js";
import type { KitState } from "../../../reducers/state.js";
import { InputError } from "../../files/input-error.js";
import { loadInput, notASession } from "../../files/load-input.js";
import { foldTree } from "../../fold/session-fold.js";
import { describeToolLoop, recoveryMarker } from "../../kit/host-messages.js";
import { markerForLoop } from "../../kit/tool-loop-marker.js";
import { AppendRefused, appendEntries, type PrefixProof } from "../../log/append.js";
import type { SessionEntry } from "../../log/entry-types.js";
import { kitVersion } from "../../package-root.js";
import { type Command, JSON_HELP, JSON_OPTION } from "../command.js";
import { fileInUse } from "../file-in-use.js";
import { singleFile, writing } from "../inputs.js";
import { stallReason } from "./detect.js";

/** What the run did: appended a marker, would append one (`--dry-run`), found the leaf already one, or no stall. */
export type RecoverOutcome = "recovered" | "would-recover" | "already-recovered" | "not-stalled";

/** What a real run appends and where: the marker's type, the entry it follows, the backup it writes first. */
export interface RecoverPlan {
  customType: string;
  parentId: string | null;
  backup: string;
}

export interface RecoverReport {
  file: string;
  outcome: RecoverOutcome;
  recovered: boolean;
  reason: string;
  /** Set for a marker appended or, with `--dry-run`, one that would be. */
  plan: RecoverPlan | null;
  markerEntryId: string | null;
  backup: string | null;
  prefix: PrefixProof | null;
  evidence: string | null;
}

export interface RecoverOptions {
  dryRun: boolean;
  force: boolean;
  backupDir?: string;
  evidenceDir?: string;
  nowMs: number;
  pid: number;
}

/** The loop marker for a session that ends in a tool-call loop not yet marked in its request (or stopped since). */
function loopMarkerToAppend(state: KitState, leaf: string | null) {
  const t = state.toolLoop;
  if (t.markerId !== null && (t.markerId === leaf || (t.markersThisRequest > 0 && t.stopped === null))) return null;
  return markerForLoop(t, state.request.currentRequestId);
}

/** Appends the recovery marker to a stalled session, the way the seed deployment resumed one. */
export function recoverSession(
  path: string,
  shown: string,
  options: RecoverOptions,
): { exitCode: 0 | 1; report: RecoverReport } {
  const none = { plan: null, markerEntryId: null, backup: null, prefix: null, evidence: null };
  const { tree, log } = loadInput(path, shown);
  if (log.unusable) throw notASession({ tree, log, diagnostics: log.diagnostics }, shown);
  if (!log.endsWithNewline) {
    throw new InputError(
      "E_TRUNCATED_TAIL",
      `${shown}:${log.lines}: the last line is truncated; repair it before recovering`,
    );
  }
  const leaf = tree.activeLeafId;
  const state = foldTree(tree).stateAt(leaf);
  const stalled = isStalled(state.recovery);
  const loopMarker = stalled ? null : loopMarkerToAppend(state, leaf);
  if (!stalled && !loopMarker) {
    const already =
      (state.recovery.anchorId !== null && state.recovery.anchorId === leaf) ||
      (state.toolLoop.markerId !== null && state.toolLoop.markerId === leaf);
    const reason = already
      ? `already recovered: the active leaf is marker ${leaf}`
      : `not stalled: ${stallReason(state)}`;
    const outcome = already ? "already-recovered" : "not-stalled";
    return { exitCode: already ? 0 : 1, report: { file: shown, outcome, recovered: false, reason, ...none } };
  }
  const cwd = typeof log.header?.cwd === "string" ? log.header.cwd : null;
  const use = options.force ? null : fileInUse(path, options.pid, options.nowMs, cwd);
  if (use?.inUse && !options.dryRun) {
    throw new InputError(
      "E_IN_USE",
      `${shown}: the session may be in use (${use.reason}); stop the host first, or pass --force`,
    );
  }
  const promiseEntryIds = [...state.recovery.run.promiseEntryIds];
  const reason = loopMarker ? `tool-call loop: ${describeToolLoop(loopMarker.details.loop)}` : stallReason(state);
  const marker = loopMarker ?? recoveryMarker({ requestId: state.request.currentRequestId, promiseEntryIds, reason });
  const stamp = new Date(options.nowMs).toISOString().replace(/[:.]/g, "-");
  const backupDir = options.backupDir ? resolve(options.backupDir) : dirname(path);
  const backup = join(backupDir, `${basename(path)}.${stamp}.bak`);
  const plan: RecoverPlan = { customType: marker.customType, parentId: leaf, backup };
  if (options.dryRun) {
    const busy = use?.inUse ? `; in use (${use.reason}), so a real run would refuse without --force` : "";
    const report = { ...none, file: shown, outcome: "would-recover" as const, recovered: false, plan };
    return { exitCode: 0, report: { ...report, reason: `${reason}${busy}` } };
  }

  // The evidence folder is made before anything is appended: a bad --evidence leaves the session as it was.
  const evidenceDir = options.evidenceDir;
  if (evidenceDir) writing("--evidence", () => mkdirSync(evidenceDir, { recursive: true }));
  writing(options.backupDir ? "--backup-dir" : "the backup beside the session", () => {
    mkdirSync(backupDir, { recursive: true });
    copyFileSync(path, backup);
  });

  const entry = {
    type: "custom_message",
    ...marker,
    parentId: leaf,
    timestamp: new Date(options.nowMs).toISOString(),
  } as Omit<SessionEntry, "id">;
  let appended: ReturnType<typeof appendEntries>;
  try {
    appended = appendEntries(path, new Set(tree.byId.keys()), [entry]);
  } catch (error) {
    if (error instanceof AppendRefused) throw new InputError(error.code, error.message);
    throw error;
  }
  const markerEntryId = appended.ids[0] as string;
  let evidence: string | null = null;
  if (evidenceDir) {
    evidence = join(resolve(evidenceDir), "summary.json");
    const summary = {
      sessionId: log.header?.id ?? null,
      file: path,
      recordsBefore: log.entries.length + 1,
      recordsAfter: log.entries.length + 2,
      prefix: appended.prefix,
      after: appended.after,
      markerEntryId,
      promiseEntryIds,
      requestId: state.request.currentRequestId,
      backup,
      kitVersion: kitVersion(),
      at: new Date(options.nowMs).toISOString(),
    };
    const at = evidence;
    writing(`--evidence (marker ${markerEntryId} was appended)`, () =>
      writeFileSync(at, `${JSON.stringify(summary, null, 2)}\n`),
    );
  }
  return {
    exitCode: 0,
    report: {
      file: shown,
      outcome: "recovered",
      recovered: true,
      reason,
      plan,
      markerEntryId,
      backup,
      prefix: appended.prefix,
      evidence,
    },
  };
}

/** Plain `pi` ignores the marker; the kit (`pi-context`, or pi with the kit installed) builds the recovery view. */
const NEXT =
  "Next: pi-context --session FILE (or pi with the kit installed) continues from the recovery view; pi without the kit ignores the marker.";

export function formatRecover(r: RecoverReport): string {
  const next = NEXT.replace("FILE", r.file);
  const what = (plan: RecoverPlan) =>
    `a ${plan.customType} entry after entry ${plan.parentId ?? "-"} to ${r.file}, writing the backup to ${plan.backup} first`;
  switch (r.outcome) {
    case "recovered":
      return `${r.file}: recovered. Marker ${r.markerEntryId} appended; original ${r.prefix?.bytes} bytes unchanged (sha256 ${r.prefix?.sha256}); backup ${r.backup}${r.evidence ? `; evidence ${r.evidence}` : ""}.\n${next}`;
    case "would-recover":
      return `${r.file}: dry run, nothing written. Would append ${what(r.plan as RecoverPlan)}. Why: ${r.reason}.`;
    case "already-recovered":
      return `${r.file}: nothing to do, ${r.reason}.\n${next}`;
    case "not-stalled":
      return `${r.file}: nothing to recover (${r.reason}).`;
  }
}

export const recoverCommand: Command = {
  name: "recover",
  summary:
    "Append a recovery or loop marker to a stalled session (after a backup and an idle check) so the next run recovers.",
  usage: "FILE [--dry-run] [--force] [--backup-dir DIR] [--evidence DIR] [--json]",
  description:
    "For a session whose active leaf is stalled, appends one recovery marker (a visible CONTEXT_RECOVERED host message) after it, so the next run with the kit (pi-context --session FILE, or pi with the kit installed; plain pi ignores the marker) starts from the recovery view; for one that ends in a tool-call loop not yet marked in its request, appends the loop marker (REPEATED_TOOL_CALLS) instead. Checks the leaf is stalled, refuses while the session is in use, copies the file to a backup first, appends under a lock and proves the original bytes unchanged (length and SHA-256 before and after). Running it again appends nothing. Exit 0 when a marker is appended, would be (--dry-run) or already ends the branch; 1 when the session is not stalled (nothing to recover); 2 on bad input, when the file is in use, or when the backup or evidence cannot be written.",
  optionHelp: {
    "--dry-run":
      "check everything and say what would be appended, after which entry and where the backup would go, without writing anything",
    "--force":
      "append even when the session looks in use (another process has it open, or it changed in the last 10 s)",
    "--backup-dir DIR": "write the backup copy here instead of beside the session file",
    "--evidence DIR": "also write summary.json here: ids, byte counts and hashes before and after, the backup's path",
    ...JSON_HELP,
  },
  examples: [
    "context-kit recover session.jsonl --dry-run",
    "context-kit recover session.jsonl --backup-dir backups --evidence evidence/run-1",
  ],
  options: {
    ...JSON_OPTION,
    "dry-run": { type: "boolean", default: false },
    force: { type: "boolean", default: false },
    "backup-dir": { type: "string" },
    evidence: { type: "string" },
  },
  run({ values, positionals, cwd }) {
    const { path, shown } = singleFile(positionals, cwd);
    const options: RecoverOptions = {
      dryRun: values["dry-run"] === true,
      force: values.force === true,
      nowMs: Date.now(),
      pid: process.pid,
    };
    if (typeof values["backup-dir"] === "string") options.backupDir = resolve(cwd, values["backup-dir"]);
    if (typeof values.evidence === "string") options.evidenceDir = resolve(cwd, values.evidence);
    const { exitCode, report } = recoverSession(path, shown, options);
    return { exitCode, json: report, text: formatRecover(report) };
  },
};
