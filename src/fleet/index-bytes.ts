import type { TableName } from "./tables.js";

/** How a file was indexed: whole, by its new tail only, not again (unchanged), or not at all (unreadable). */
export type IndexHow = "indexed" | "appended" | "unchanged" | "unreadable";

/**
 * A file's index as bytes (what a pool worker posts back): each table's rows as CSV, then the memo, one after another
 * in one buffer, which moves to the main thread in one piece rather than one per table.
 */
export interface FileIndexCsv {
  file: string;
  how: IndexHow;
  bytes: Uint8Array;
  /** The parts of `bytes` in order, each with the offset it ends at. */
  parts: [part: TableName | "memo", end: number][];
}

const utf8 = new TextEncoder();

/** The tables' CSV texts and the memo in one buffer, and where each ends. */
export function packParts(
  texts: readonly [TableName, string][],
  memo: Uint8Array | undefined,
): Pick<FileIndexCsv, "bytes" | "parts"> {
  let size = memo?.byteLength ?? 0;
  for (const [, text] of texts) size += Buffer.byteLength(text);
  const bytes = new Uint8Array(size);
  const parts: FileIndexCsv["parts"] = [];
  let end = 0;
  for (const [name, text] of texts) {
    end += utf8.encodeInto(text, bytes.subarray(end)).written;
    parts.push([name, end]);
  }
  if (memo) {
    bytes.set(memo, end);
    parts.push(["memo", end + memo.byteLength]);
  }
  return { bytes, parts };
}

/** Each part of a file's index bytes, as a view into them. */
export function* csvParts(result: FileIndexCsv): Generator<[TableName | "memo", Uint8Array]> {
  let start = 0;
  for (const [part, end] of result.parts) {
    yield [part, result.bytes.subarray(start, end)];
    start = end;
  }
}
