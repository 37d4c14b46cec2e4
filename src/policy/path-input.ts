import { isAbsolute, resolve } from "node:path";

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/**
 * Turns a tool's path argument into a normalised absolute path the way the host spells it: one leading `@` is dropped,
 * unicode spaces become plain spaces, `~` and `~/` expand to the home directory, relative paths resolve against the
 * policy root, and `..`, `.` and repeated separators collapse. The result is lexical: symlinks are not followed here.
 */
export function expandPathInput(input: string, root: string, home: string): string {
  let path = input.startsWith("@") ? input.slice(1) : input;
  path = path.replace(UNICODE_SPACES, " ");
  if (path === "~") path = home;
  else if (path.startsWith("~/")) path = home + path.slice(1);
  if (path === "") path = ".";
  return isAbsolute(path) ? resolve(path) : resolve(root, path);
}
