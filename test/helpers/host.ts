import * as host from "@mariozechner/pi-coding-agent";

/** The host's own offline reading, as a read-only oracle: parse, migrate in memory, build the context. */
export function hostRead(text: string) {
  const all = host.parseSessionEntries(text) as unknown as Record<string, unknown>[];
  host.migrateSessionEntries(all as never);
  const entries = all.filter((e) => e.type !== "session");
  return { all, entries };
}

export function hostContext(entries: Record<string, unknown>[], leafId: string | null | undefined) {
  return host.buildSessionContext(entries as never, leafId);
}

export { host };
