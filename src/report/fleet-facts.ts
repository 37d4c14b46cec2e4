import type { FileIndex } from "../fleet/index-file.js";

/** What the folder's index page shows of a session besides its summary: the fleet tables' facts about it. */
export interface IndexFleetFacts {
  /** `provider/model` at the active leaf. */
  model: string | null;
  startedAt: string | null;
  /** Tool-call loops on its branches; stalled branches; denied tool results. */
  loops: number;
  stalls: number;
  denials: number;
  /** Model requests by digest status: `notRecorded` is a plain Pi session's normal case, not a warning. */
  requests: { verified: number; differs: number; otherVersion: number; notRecorded: number };
}

/** The facts of one file's index rows (see `src/fleet/tables.ts` for the columns). */
export function fleetFacts(index: FileIndex): IndexFleetFacts {
  const { rows } = index;
  const session = rows.sessions[0] ?? [];
  const active = rows.branches.find((b) => b[2] === true);
  const requests = { verified: 0, differs: 0, otherVersion: 0, notRecorded: 0 };
  for (const r of rows.requests) {
    const status = r[6];
    if (status === "verified") requests.verified++;
    else if (status === "differs") requests.differs++;
    else if (status === "other-version") requests.otherVersion++;
    else requests.notRecorded++;
  }
  return {
    model: (active?.[10] as string | null | undefined) ?? null,
    startedAt: (session[3] as string | null | undefined) ?? null,
    loops: rows.tool_loops.length,
    stalls: rows.stalls.length,
    denials: rows.denials.length,
    requests,
  };
}
