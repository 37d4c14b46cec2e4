import { it } from "vitest";
import { writeFileSync } from "node:fs";
import { scanCorpus } from "./loop-corpus.js";
it("scan", () => {
  const s = scanCorpus();
  writeFileSync(process.env.SCAN_OUT ?? "/tmp/loops/scan.json", JSON.stringify(s, null, 1));
  console.log(s?.files, s?.leaves, s?.toolCalls, s?.episodes.length);
}, 600000);
