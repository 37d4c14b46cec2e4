#!/usr/bin/env node
// Copies a writer's training folder (data/*.jsonl sessions, labels.jsonl, replies.jsonl) into the stall set as it is,
// keeping only label and reply lines whose session file is complete (a writer may still be writing).
// Usage: node scripts/import-stall-train.mjs SOURCE_DATA_DIR test/eval/stall-set/NAME
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [from, to] = process.argv.slice(2);
if (!from || !to || !existsSync(join(from, "labels.jsonl"))) {
  console.error("usage: import-stall-train.mjs SOURCE_DATA_DIR TARGET_DIR (SOURCE_DATA_DIR/labels.jsonl must exist)");
  process.exit(2);
}
const complete = (path) => {
  try {
    const text = readFileSync(path, "utf8");
    if (!text.endsWith("\n")) return false;
    for (const line of text.split("\n")) if (line.trim()) JSON.parse(line);
    return true;
  } catch {
    return false;
  }
};
rmSync(to, { recursive: true, force: true });
mkdirSync(to, { recursive: true });
const sessions = new Set();
for (const name of readdirSync(from).sort()) {
  if (!name.endsWith(".jsonl") || name === "labels.jsonl" || name === "replies.jsonl") continue;
  if (!complete(join(from, name))) continue;
  copyFileSync(join(from, name), join(to, name));
  sessions.add(name);
}
const keep = (file) =>
  readFileSync(join(from, file), "utf8")
    .split("\n")
    .filter((line) => {
      try {
        return sessions.has(JSON.parse(line).file);
      } catch {
        return false;
      }
    });
const labels = keep("labels.jsonl");
writeFileSync(join(to, "labels.jsonl"), `${labels.join("\n")}\n`);
const replies = existsSync(join(from, "replies.jsonl")) ? keep("replies.jsonl") : [];
if (replies.length) writeFileSync(join(to, "replies.jsonl"), `${replies.join("\n")}\n`);
console.log(`${to}: ${sessions.size} sessions, ${labels.length} leaf labels, ${replies.length} reply labels`);
