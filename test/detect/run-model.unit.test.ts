import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { classifyReply, detectStall, EMPTY_RUN, type RunEvent } from "../../src/detect/index.js";
import model from "../../src/detect/model/run-model.json" with { type: "json" };
import { advanceRun, advanceRunByRules } from "../../src/detect/promise-run.js";
import { toCandidate } from "../../src/detect/run-features.js";
import { FEATURE_NAMES, RUN_MODEL_THRESHOLD, runTriples, scoreRun } from "../../src/detect/run-model.js";
import { reply, stalled, USER } from "./replies.js";

const STALL_SET = join(import.meta.dirname, "../eval/stall-set");
const events = (...texts: string[]): RunEvent[] => texts.flatMap((t) => [USER, reply(t)]);
const window = (...texts: string[]) => texts.map((text) => ({ text, cls: classifyReply(text) }));

const INIT = [
  "Give me a moment to look at commands/__init__.py.",
  "Bear with me while I go through commands/__init__.py.",
  "One sec — checking the commands package init now.",
];

describe("the learned run scorer", () => {
  it("given one file promised three ways, the last as a status the rules do not read, then it joins the three", () => {
    expect(events(...INIT).reduce(advanceRunByRules, EMPTY_RUN).stalled).toBe(false);
    const run = events(...INIT).reduce(advanceRun, EMPTY_RUN);
    expect(run.stalled).toBe(true);
    expect(run.learnedScore).toBeGreaterThanOrEqual(RUN_MODEL_THRESHOLD);
    expect(run.promiseEntryIds).toHaveLength(3);
    expect(detectStall(events(...INIT)).reason).toContain("learned run scorer");
  });

  it("given a fact stated between two promises, then the fact is no candidate and no run forms", () => {
    for (const fact of ["The build has 3 errors.", "The build uses tsc 5.6.", "构建用的是 tsc 5.6。"]) {
      expect(toCandidate(fact, classifyReply(fact), 1), fact).toBeNull();
      expect(stalled("Let me check the compiler errors.", fact, "Let me check the compiler errors."), fact).toBe(false);
    }
    expect(toCandidate("Checking the logs now.", classifyReply("Checking the logs now."), 1)).not.toBeNull();
  });

  it("given three different changes announced one after another, then it stays under its threshold", () => {
    const texts = [
      "Let me add an index on items.title.",
      "I'll rewrite the query to filter in SQL.",
      "I'll update scripts/bench_search.py to take a --runs flag.",
    ];
    expect(scoreRun(window(...texts)).score).toBeLessThan(RUN_MODEL_THRESHOLD);
    expect(stalled(...texts)).toBe(false);
  });

  it("given a further step ('Then I'll …'), then it scores lower than the same replies without it", () => {
    const same = window(
      "I'll update the version in Cargo.toml.",
      "I'll bump the Cargo.toml version.",
      "I'll regenerate the docs.",
    );
    const further = window(
      "I'll update the version in Cargo.toml.",
      "I'll bump the Cargo.toml version.",
      "Then I'll regenerate the docs.",
    );
    expect(scoreRun(further).score).toBeLessThan(scoreRun(same).score);
  });

  it("given fewer than two replies the rules read as promises, then it has no triple to score", () => {
    expect(runTriples(window("It's running, PID is 4312.", "正在运行，PID 是 4312。", "Yes, tests pass."))).toEqual([]);
  });

  it("given a deliverable (the content is in the reply), then it is never a member of a run", () => {
    const text = "我来写，内容如下：\n```ts\nexport default {}\n```";
    expect(classifyReply(text).kind).toBe("deliverable");
    expect(toCandidate(text, classifyReply(text), 0)).toBeNull();
  });

  it("has a weight for every feature, a threshold between 0 and 1, and was trained on dev folders only", () => {
    expect(Object.keys(model.features).sort()).toEqual([...FEATURE_NAMES].sort());
    expect(RUN_MODEL_THRESHOLD).toBeGreaterThan(0.5);
    expect(RUN_MODEL_THRESHOLD).toBeLessThan(1);
    expect(model.trainedOn.length).toBeGreaterThan(0);
    for (const folder of model.trainedOn) expect(existsSync(join(STALL_SET, folder, "labels.jsonl"))).toBe(true);
    // Every dev folder, and only those: a split folded into dev is trained on (run scripts/train-run-model.mjs).
    const devFolders = readdirSync(STALL_SET).filter((n) => /^dev(-[a-z])?$/.test(n));
    expect([...model.trainedOn].sort()).toEqual(devFolders.sort());
  });
});

describe("one file name in different folders", () => {
  it("given auth/health.go, cart/health.go and search/health.go, then three things, no stall", () => {
    expect(
      stalled("Let me check auth/health.go.", "Let me check cart/health.go.", "Let me check search/health.go."),
    ).toBe(false);
  });

  it("given one path named the same way three times, then it is still a stall", () => {
    expect(
      stalled(
        "Let me check auth/health.go.",
        "I'll look at auth/health.go.",
        "Checking auth/health.go now — let me open it.",
      ),
    ).toBe(true);
  });
});
