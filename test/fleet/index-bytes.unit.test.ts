import { describe, expect, it } from "vitest";
import { csvParts, type FileIndexCsv, packParts } from "../../src/fleet/index-bytes.js";
import type { TableName } from "../../src/fleet/tables.js";

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("a file's index bytes", () => {
  const texts: [TableName, string][] = [
    ["sessions", '0,"a.jsonl","s1"\n'],
    ["requests", '0,"r1","模型","naïve ✓"\n0,"r2","🧪",\n'],
    ["tool_calls", '0,"e1","bash","say ""hi"""\n'],
  ];

  it("hold each table's text and the memo in order, with nothing left over, in multi-byte text too", () => {
    const memo = new TextEncoder().encode('{"v":1,"states":{"ü":1}}');
    const packed = packParts(texts, memo);
    const result: FileIndexCsv = { file: "a.jsonl", how: "indexed", ...packed };
    const parts = [...csvParts(result)].map(([name, bytes]) => [name, decode(bytes)]);
    expect(parts).toEqual([...texts, ["memo", decode(memo)]]);
    expect(packed.bytes.byteLength).toBe(Buffer.byteLength(texts.map(([, t]) => t).join("")) + memo.byteLength);
  });

  it("without a memo hold the tables alone", () => {
    const result: FileIndexCsv = { file: "a.jsonl", how: "unreadable", ...packParts(texts.slice(0, 1), undefined) };
    expect([...csvParts(result)].map(([name, bytes]) => [name, decode(bytes)])).toEqual(texts.slice(0, 1));
  });

  it("own their whole buffer, so that the worker moves it rather than copying it", () => {
    const { bytes } = packParts(texts, undefined);
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
  });
});
