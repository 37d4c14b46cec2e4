/**
 * Names for the extensions the launcher passes inline, so the TUI's extension list says `pi-context-kit` instead of
 * `<inline:1>`. The 1.x host takes named factories (`{name, factory}`); on 0.73 each factory carries its name and the
 * host's resource loader is wrapped once to give its extensions that name after loading them.
 */
const NAME = Symbol.for("pi-context-kit.inline-name");
const WRAPPED = Symbol.for("pi-context-kit.inline-names");

export interface NamedFactory {
  name: string;
  factory: unknown;
}

type Tagged = ((...args: unknown[]) => unknown) & { [NAME]?: string };

function isNamed(entry: unknown): entry is NamedFactory {
  return typeof entry === "object" && entry !== null && "factory" in entry && "name" in entry;
}

/** The factories as the host takes them: named objects on 1.x, functions carrying their name on 0.73. */
export function inlineFactories(entries: readonly unknown[], namedHost: boolean): unknown[] {
  return entries.map((entry) => {
    if (!isNamed(entry)) return entry;
    if (namedHost) return entry;
    const factory = entry.factory as Tagged;
    factory[NAME] = entry.name;
    return factory;
  });
}

interface LoadedExtension {
  path: string;
  sourceInfo?: { path?: string };
}

/** On 0.73: extensions loaded from a named factory get `<inline:NAME>` for `<inline:N>`. */
export function nameInlineExtensions(host: Record<string, unknown>): void {
  const loader = host.DefaultResourceLoader as { prototype?: Record<PropertyKey, unknown> } | undefined;
  const proto = loader?.prototype;
  const original = proto?.loadExtensionFactories;
  if (!proto || typeof original !== "function" || proto[WRAPPED]) return;
  proto[WRAPPED] = true;
  proto.loadExtensionFactories = async function (this: { extensionFactories?: Tagged[] }, ...args: unknown[]) {
    const result = (await original.apply(this, args)) as { extensions?: LoadedExtension[] };
    for (const extension of result?.extensions ?? []) {
      const index = /^<inline:(\d+)>$/.exec(extension.path)?.[1];
      const name = index === undefined ? undefined : this.extensionFactories?.[Number(index) - 1]?.[NAME];
      if (name === undefined) continue;
      const renamed = `<inline:${name}>`;
      if (extension.sourceInfo?.path === extension.path) extension.sourceInfo.path = renamed;
      extension.path = renamed;
    }
    return result;
  };
}
