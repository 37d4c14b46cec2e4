/**
 * The environment of every timed child process: this one's, without `NODE_EXTRA_CA_CERTS`. When it is set, Node
 * reads and parses that certificate bundle at every start, before any script runs (about 45 ms on the machines
 * this benchmark was written on, doubling an empty start); no timed command makes a TLS connection, so the bundle
 * only adds the machine's configuration to the kit's times. The table's header says when it was left out.
 */
export const DROPPED_ENV = ["NODE_EXTRA_CA_CERTS"] as const;

export function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of DROPPED_ENV) delete env[name];
  return env;
}

/** The variables this run left out of its children's environment (those that were set). */
export function droppedEnv(): string[] {
  return DROPPED_ENV.filter((name) => process.env[name] !== undefined);
}
