import type { Stats } from "node:fs";
import type { FileIssueCode } from "../../reducers/contract/tool-details.js";
import { errorCode } from "../policy/policy-fs.js";
import { decodeText } from "../policy/utf8.js";
import { binaryFormat, describeNonFile, imageMimeType } from "./file-kinds.js";
import { type ReadHandle, readExactly, type ToolFileOperations } from "./file-ops.js";

export interface ReadLimits {
  /** Text files larger than this are refused without loading their body. */
  maxTextBytes: number;
  /** Images larger than this are refused without loading their body. */
  maxImageBytes: number;
  /** Bytes inspected at the start of a file to tell text, image and binary apart. */
  headerBytes: number;
}

export const DEFAULT_READ_LIMITS: ReadLimits = {
  maxTextBytes: 10 * 1024 * 1024,
  maxImageBytes: 5 * 1024 * 1024,
  headerBytes: 8192,
};

interface Meta {
  size: number;
  mtimeMs: number;
}

export type LoadedFile =
  | ({ kind: "text"; text: string } & Meta)
  | ({ kind: "image"; mimeType: string; data: Buffer } & Meta)
  | { kind: "issue"; code: FileIssueCode; detail: string; meta?: Meta };

function issue(code: FileIssueCode, detail: string, stat?: Stats): LoadedFile {
  return stat
    ? { kind: "issue", code, detail, meta: { size: stat.size, mtimeMs: stat.mtimeMs } }
    : { kind: "issue", code, detail };
}

function fromError(error: unknown): LoadedFile {
  const code = errorCode(error);
  if (code === "EACCES" || code === "EPERM") return issue("READ_ACCESS_DENIED", code);
  if (code === "ENOENT" || code === "ENOTDIR") return issue("FILE_NOT_FOUND", code);
  if (code === "ENAMETOOLONG") return issue("PATH_TOO_LONG", code);
  if (code === "ELOOP") return issue("SYMLINK_LOOP", code);
  throw error;
}

/**
 * Metadata first, then a bounded header: directories, devices, sockets and FIFOs are refused before opening, bodies
 * larger than the limits are never loaded, binary headers are never returned. Images load only when `allowImage`.
 */
export async function loadFile(
  path: string,
  ops: ToolFileOperations,
  limits: ReadLimits,
  allowImage: boolean,
): Promise<LoadedFile> {
  let stat: Stats;
  try {
    stat = await ops.stat(path);
  } catch (error) {
    return fromError(error);
  }
  if (!stat.isFile()) return issue("UNSUPPORTED_FILE_TYPE", describeNonFile(stat), stat);
  let handle: ReadHandle;
  try {
    handle = await ops.openRead(path);
  } catch (error) {
    const result = fromError(error);
    return result.kind === "issue" ? { ...result, meta: { size: stat.size, mtimeMs: stat.mtimeMs } } : result;
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) return issue("UNSUPPORTED_FILE_TYPE", describeNonFile(opened), opened);
    const meta = { size: opened.size, mtimeMs: opened.mtimeMs };
    const header = await readExactly(handle, Math.min(limits.headerBytes, opened.size));
    const mimeType = imageMimeType(header);
    if (mimeType) {
      if (!allowImage) return issue("UNSUPPORTED_BINARY", `an image (${mimeType})`, opened);
      if (opened.size > limits.maxImageBytes)
        return issue("FILE_TOO_LARGE", `${limits.maxImageBytes}-byte image limit`, opened);
      const data = await readExactly(handle, opened.size);
      return { kind: "image", mimeType, data, ...meta };
    }
    const format = binaryFormat(header);
    const partial = opened.size > header.length;
    if (format || decodeText(header, partial) === undefined)
      return issue("UNSUPPORTED_BINARY", format ?? "binary data", opened);
    if (opened.size > limits.maxTextBytes)
      return issue("FILE_TOO_LARGE", `${limits.maxTextBytes}-byte text limit`, opened);
    const body = await readExactly(handle, opened.size);
    return { kind: "text", text: body.toString("utf8"), ...meta };
  } finally {
    await handle.close();
  }
}

/** loadFile for callers that need text: images count as binary. */
export async function loadTextFile(
  path: string,
  ops: ToolFileOperations,
  limits: ReadLimits,
): Promise<Exclude<LoadedFile, { kind: "image" }>> {
  const loaded = await loadFile(path, ops, limits, false);
  return loaded.kind === "image"
    ? { kind: "issue", code: "UNSUPPORTED_BINARY", detail: `an image (${loaded.mimeType})` }
    : loaded;
}
