import { FleetDb } from "./db.js";

/** The fleet summary `stats` prints: the questions an auditor asks first, answered from the index. */
export interface FleetStats {
  db: string;
  sessions: {
    total: number;
    ok: number;
    errors: number;
    unreadable: number;
    first: string | null;
    last: string | null;
  };
  /** Per model of the active branch: sessions, and how many end stalled or in a tool-call loop. */
  byModel: { model: string; sessions: number; stalled: number; looping: number; stallRate: number; loopRate: number }[];
  topDeniedScopes: { scope: string; denials: number; sessions: number }[];
  verification: { check: string; status: string; branches: number }[];
  incompleteVerification: number;
  requests: { total: number; verified: number; differs: number; otherVersion: number; notRecorded: number };
  /** Requests whose recorded digest the recomputed view does not reproduce. */
  notReproducible: { file: string; requestId: string; status: string }[];
}

const rate = (n: number, of: number) => (of === 0 ? 0 : Math.round((n / of) * 1000) / 1000);

export async function fleetStats(path: string, shown = path, top = 10): Promise<FleetStats> {
  const db = await FleetDb.open(path, { readOnly: true });
  try {
    const num = (v: unknown) => Number(v ?? 0);
    const [s] = await db.query(
      `SELECT count(*) AS total, count(*) FILTER (status = 'ok') AS ok, count(*) FILTER (status = 'errors') AS errors,
       count(*) FILTER (status = 'unreadable') AS unreadable,
       strftime(min(started_at), '%Y-%m-%dT%H:%M:%SZ') AS first, strftime(max(started_at), '%Y-%m-%dT%H:%M:%SZ') AS last
       FROM sessions`,
    );
    const byModel = await db.query(
      `SELECT coalesce(model, '(none)') AS model, count(*) AS sessions, count(*) FILTER (stalled) AS stalled,
       count(*) FILTER (tool_loop_kind IS NOT NULL) AS looping
       FROM branches WHERE active GROUP BY 1 ORDER BY sessions DESC, model`,
    );
    const scopes = await db.query(
      `SELECT scope, count(*) AS denials, count(DISTINCT file) AS sessions FROM denials
       GROUP BY scope ORDER BY denials DESC, scope LIMIT ${top}`,
    );
    const verification = await db.query(
      `SELECT "check", status, count(*) AS branches FROM verification GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    const [incomplete] = await db.query("SELECT count(*) AS n FROM branches WHERE verification_incomplete");
    const [r] = await db.query(
      `SELECT count(*) AS total, count(*) FILTER (digest_status = 'verified') AS verified,
       count(*) FILTER (digest_status = 'differs') AS differs, count(*) FILTER (digest_status = 'other-version') AS other,
       count(*) FILTER (digest_status = 'not-recorded') AS not_recorded FROM requests`,
    );
    const bad = await db.query(
      `SELECT file, request_id, digest_status FROM requests WHERE digest_status IN ('differs', 'other-version')
       ORDER BY file, request_id LIMIT 100`,
    );
    return {
      db: shown,
      sessions: {
        total: num(s?.total),
        ok: num(s?.ok),
        errors: num(s?.errors),
        unreadable: num(s?.unreadable),
        first: (s?.first as string | null) ?? null,
        last: (s?.last as string | null) ?? null,
      },
      byModel: byModel.map((m) => ({
        model: String(m.model),
        sessions: num(m.sessions),
        stalled: num(m.stalled),
        looping: num(m.looping),
        stallRate: rate(num(m.stalled), num(m.sessions)),
        loopRate: rate(num(m.looping), num(m.sessions)),
      })),
      topDeniedScopes: scopes.map((d) => ({
        scope: String(d.scope),
        denials: num(d.denials),
        sessions: num(d.sessions),
      })),
      verification: verification.map((v) => ({
        check: String(v.check),
        status: String(v.status),
        branches: num(v.branches),
      })),
      incompleteVerification: num(incomplete?.n),
      requests: {
        total: num(r?.total),
        verified: num(r?.verified),
        differs: num(r?.differs),
        otherVersion: num(r?.other),
        notRecorded: num(r?.not_recorded),
      },
      notReproducible: bad.map((b) => ({
        file: String(b.file),
        requestId: String(b.request_id),
        status: String(b.digest_status),
      })),
    };
  } finally {
    db.close();
  }
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function formatStats(s: FleetStats): string {
  const lines = [
    `${s.db}: ${s.sessions.total} sessions (${s.sessions.ok} ok, ${s.sessions.errors} with errors, ${s.sessions.unreadable} unreadable)${
      s.sessions.first ? `, started ${s.sessions.first} .. ${s.sessions.last}` : ""
    }`,
    "",
  ];
  const width = Math.max(24, ...s.byModel.map((m) => m.model.length));
  lines.push(`  ${"model (active branch)".padEnd(width)} sessions  stalled        looping`);
  for (const m of s.byModel) {
    lines.push(
      `  ${m.model.padEnd(width)} ${String(m.sessions).padStart(8)}  ${`${m.stalled} (${pct(m.stallRate)})`.padEnd(14)} ${m.looping} (${pct(m.loopRate)})`,
    );
  }
  lines.push("", "top denied scopes");
  if (s.topDeniedScopes.length === 0) lines.push("  none");
  for (const d of s.topDeniedScopes)
    lines.push(`  ${String(d.denials).padStart(6)}  ${d.scope}  (${d.sessions} sessions)`);
  lines.push("", "verification (per branch)");
  if (s.verification.length === 0) lines.push("  none");
  for (const v of s.verification) lines.push(`  ${v.check} ${v.status}: ${v.branches}`);
  lines.push(`  incomplete: ${s.incompleteVerification}`);
  const r = s.requests;
  lines.push(
    "",
    `requests: ${r.total} (${r.verified} reproduced, ${r.differs} differ, ${r.otherVersion} from another kit version, ${r.notRecorded} not recorded)`,
  );
  for (const b of s.notReproducible.slice(0, 20))
    lines.push(`  not reproducible: ${b.file} ${b.requestId} (${b.status})`);
  return lines.join("\n");
}
