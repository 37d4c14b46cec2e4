const SPECIAL = /[.+^${}()|[\]\\*?]/g;

function closing(glob: string, from: number, open: string, close: string): number {
  let depth = 0;
  for (let i = from; i < glob.length; i++) {
    const ch = glob[i];
    if (ch === "\\") i++;
    else if (ch === open) depth++;
    else if (ch === close && --depth === 0) return i;
  }
  return -1;
}

function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === "\\") i++;
    else if (ch === "{") depth++;
    else if (ch === "}") depth--;
    else if (ch === "," && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

function translate(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] ?? "";
    if (ch === "\\" && i + 1 < glob.length) {
      out += (glob[++i] ?? "").replace(SPECIAL, "\\$&");
    } else if (ch === "*" && glob[i + 1] === "*") {
      i++;
      if (glob[i + 1] === "/") {
        i++;
        out += "(?:.*/)?";
      } else out += ".*";
    } else if (ch === "*") out += "[^/]*";
    else if (ch === "?") out += "[^/]";
    else if (ch === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) out += "\\[";
      else {
        let body = glob.slice(i + 1, end).replace(/\\/g, "\\\\");
        if (body.startsWith("!") || body.startsWith("^")) body = `^${body.slice(1)}`;
        out += `[${body}]`;
        i = end;
      }
    } else if (ch === "{") {
      const end = closing(glob, i, "{", "}");
      if (end < 0) out += "\\{";
      else {
        out += `(?:${splitTopLevel(glob.slice(i + 1, end))
          .map(translate)
          .join("|")})`;
        i = end;
      }
    } else out += ch.replace(SPECIAL, "\\$&");
  }
  return out;
}

/** A glob as an anchored regular expression: `*`, `?`, `**`, `[...]`, `{a,b}`, `\` escapes; `/` separates. */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${translate(glob)}$`);
}

function posix(path: string): string {
  return path.replace(/\\/g, "/");
}

/**
 * The host's `find` semantics (fd --glob): a pattern without `/` matches the entry's name at any depth. One with `/`
 * matches, up to Pi 1.5, the entry's absolute path with a leading any-depth segment added unless the pattern starts
 * with one or with `/`; from Pi 1.6, the path relative to the search directory (a leading `./` dropped).
 */
export function findMatcher(
  pattern: string,
  globs: "anywhere" | "relative" = "anywhere",
): (absPath: string, name: string, relPath: string) => boolean {
  if (!pattern.includes("/")) {
    const re = globToRegExp(pattern);
    return (_abs, name) => re.test(name);
  }
  if (globs === "relative") {
    const re = globToRegExp(pattern.replace(/^(?:\.\/)+/, ""));
    return (_abs, _name, rel) => re.test(posix(rel));
  }
  const anchored = pattern.startsWith("/") || pattern.startsWith("**/") || pattern === "**" ? pattern : `**/${pattern}`;
  const re = globToRegExp(anchored);
  return (abs) => re.test(posix(abs));
}

/**
 * The host's `grep --glob` semantics (ripgrep): a glob without `/` matches the file name at any depth, one with `/`
 * matches the path relative to the search directory; a leading `!` excludes.
 */
export function grepGlobMatcher(glob: string | undefined): (relPath: string, name: string) => boolean {
  if (glob === undefined || glob === "") return () => true;
  const negate = glob.startsWith("!");
  const body = negate ? glob.slice(1) : glob;
  const re = globToRegExp(body.replace(/^\/+/, ""));
  const byName = !body.includes("/");
  return (rel, name) => re.test(byName ? name : posix(rel)) !== negate;
}
