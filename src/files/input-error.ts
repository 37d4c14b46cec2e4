/** Bad input: the file cannot be read or is not what the command needs. Exit code 2. */
export class InputError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

const ERRNO_WORDS: Record<string, string> = {
  ENOENT: "no such file or folder",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "is a folder, not a file",
  ENOTDIR: "a part of the path is not a folder",
  ELOOP: "too many symbolic links",
  EMFILE: "too many open files",
  EEXIST: "a file is in the way",
  EROFS: "the file system is read-only",
  ENOSPC: "no space left on the device",
};

/** A file system error as a reader would say it, e.g. `x.jsonl: no such file or folder`. */
export function readError(error: unknown, shown: string): InputError {
  const code = (error as NodeJS.ErrnoException).code;
  const words = (code && ERRNO_WORDS[code]) ?? (code ? `cannot read (${code})` : "cannot read");
  return new InputError("E_READ", `${shown}: ${words}`);
}

/** A file system error on output as a writer would say it, e.g. `--out x/a.html: cannot write x/a.html: …`. */
export function writeError(error: unknown, what: string): InputError {
  const e = error as NodeJS.ErrnoException;
  const words = (e.code && ERRNO_WORDS[e.code]) ?? (e.code ? `failed (${e.code})` : String(e.message));
  const path = e.path ? ` ${e.path}` : "";
  return new InputError("E_WRITE", `${what}: cannot ${e.syscall ?? "write"}${path}: ${words}`);
}
