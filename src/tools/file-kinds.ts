import type { Stats } from "node:fs";

const IMAGE_SIGNATURES: { mimeType: string; test: (b: Buffer) => boolean }[] = [
  { mimeType: "image/png", test: (b) => b.subarray(0, 8).equals(Buffer.from("89504e470d0a1a0a", "hex")) },
  { mimeType: "image/jpeg", test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mimeType: "image/gif", test: (b) => ["GIF87a", "GIF89a"].includes(b.subarray(0, 6).toString("latin1")) },
  {
    mimeType: "image/webp",
    test: (b) => b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP",
  },
];

const BINARY_SIGNATURES: { name: string; magic: Buffer }[] = [
  { name: "an ELF executable", magic: Buffer.from("7f454c46", "hex") },
  { name: "a Mach-O executable", magic: Buffer.from("cffaedfe", "hex") },
  { name: "a WebAssembly module", magic: Buffer.from("0061736d", "hex") },
  { name: "a PDF document", magic: Buffer.from("%PDF-", "latin1") },
  { name: "a ZIP archive", magic: Buffer.from("504b0304", "hex") },
  { name: "a gzip archive", magic: Buffer.from("1f8b", "hex") },
];

export function imageMimeType(header: Buffer): string | undefined {
  return IMAGE_SIGNATURES.find((s) => s.test(header))?.mimeType;
}

/** A known binary format named by its signature, if any. */
export function binaryFormat(header: Buffer): string | undefined {
  return BINARY_SIGNATURES.find((s) => header.subarray(0, s.magic.length).equals(s.magic))?.name;
}

export function describeNonFile(stat: Stats): string {
  if (stat.isDirectory()) return "a directory";
  if (stat.isFIFO()) return "a named pipe (FIFO)";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}
