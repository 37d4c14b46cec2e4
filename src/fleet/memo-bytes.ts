import { inflateRawSync } from "node:zlib";

/** The memo as JSON bytes (deflating them cost the index more than the database's writing them). */
export function packMemo(value: unknown): Uint8Array {
  return Buffer.from(JSON.stringify(value));
}

/** A memo written by `packMemo`, or deflated, as an earlier version wrote it. */
export function unpackMemo<T>(bytes: Uint8Array): T {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    return JSON.parse(data.toString("utf8")) as T;
  } catch {
    return JSON.parse(inflateRawSync(data).toString("utf8")) as T;
  }
}
