import { describe, expect, it } from "vitest";
import { classifyReply } from "../../src/detect/index.js";
import { differentThings } from "../../src/detect/similarity.js";
import { runScore, stalled, stalledByRules } from "./replies.js";

describe("consecutive promises of one action with the object renamed", () => {
  it("given an object that points back (that, 这个), then the run holds", () => {
    expect(
      stalled(
        "I'll patch the retry loop in fetcher.py.",
        "I'll patch that code right away.",
        "Let me patch this part now.",
      ),
    ).toBe(true);
    expect(stalled("我修一下重试的逻辑。", "我这就修这个地方。", "我来修复那段代码。")).toBe(true);
  });

  it("given replies that share a name, then a renamed object still joins", () => {
    expect(
      stalled(
        "The upload dies at 10 MB. I'll raise the proxy body limit.",
        "Let me bump the upload cap on the proxy.",
        "Adjusting the proxy's size limit now.",
      ),
    ).toBe(true);
  });

  it("given replies that each name part of an earlier promise's object, then they join through it", () => {
    expect(
      stalled(
        "稍等，我改一下 Makefile 的发布目标。",
        "马上改 Makefile。",
        "不好意思，我这就把发布目标换成 goreleaser。",
      ),
    ).toBe(true);
    expect(
      stalled(
        "Let me update the nginx upstream timeout.",
        "One sec, updating the proxy settings.",
        "Updating the upstream timeout now.",
      ),
    ).toBe(true);
  });

  it("given a reply in between that names its own file, then it does not join through an earlier promise", () => {
    expect(stalled("我看一下连接池的配置。", "我看一下 store.LoadUser 的实现。", "我看一下 gateway 的超时配置。")).toBe(
      false,
    );
  });

  it("given two different files, then consecutive promises of one action do not join", () => {
    expect(
      stalled(
        "Let me check fetcher.py for the timeout.",
        "I'll check the tokenizer in parser.py.",
        "Checking how router.py registers handlers.",
      ),
    ).toBe(false);
    expect(differentThings(["fetcher.py"], ["parser.py"])).toBe(true);
    expect(differentThings(["src/fetcher.py"], ["fetcher.py", "retry"])).toBe(false);
    expect(differentThings(["jobs.send_mail"], ["send_mail"])).toBe(false);
    expect(differentThings(["jobs.send_mail"], ["jobs.send_sms"])).toBe(true);
  });

  it("given replies that open as further steps, then they are a plan, not a loop", () => {
    expect(
      stalled(
        "I'll add a retry counter to the fetcher.",
        "Then I'll add a CLI flag for it.",
        "Finally I'll add a changelog entry.",
      ),
    ).toBe(false);
  });

  it("given the same verb on unrelated objects with nothing shared, then they do not join", () => {
    expect(
      stalled("Let me check the queue depth.", "Let me check the cron schedule.", "Let me check the TLS cert."),
    ).toBe(false);
  });
});

describe("a reply that only shows a shell command", () => {
  it("given a bash block with at most a short note, then it promises to run that command", () => {
    const c = classifyReply("```bash\ncargo test -p parser -- --nocapture\n```");
    expect(c.kind).toBe("promise");
    expect(c.intents[0]?.action).toBe("run");
    expect(c.intents[0]?.object).toContain("cargo");
    expect(
      stalled(
        "```sh\ncargo test -p parser\n```",
        "Once more:\n```bash\ncargo test -p parser -- --nocapture\n```",
        "```bash\ncargo test -p parser\n```",
      ),
    ).toBe(true);
  });

  it("given a command for the user, code in another language or a report, then it is not a promise", () => {
    expect(
      classifyReply("Please run this in your terminal:\n```bash\nsudo systemctl restart nginx\n```").kind,
    ).not.toBe("promise");
    expect(classifyReply("请在终端里执行：\n```bash\nbrew install jq\n```").kind).not.toBe("promise");
    expect(classifyReply("```ts\nexport const retries = 3;\n```").kind).not.toBe("promise");
    expect(classifyReply("```bash\nmake deploy\n```\nThen open the dashboard and log in.").kind).not.toBe("promise");
  });
});

describe("a verb the lexicons do not know", () => {
  it("given an unmistakable lead, then the unknown verb is an 'act' promise", () => {
    expect(classifyReply("I'll vendor the protobuf headers.").intents[0]?.action).toBe("act");
    expect(classifyReply("Let me memoize the selector.").kind).toBe("promise");
    expect(classifyReply("我来精简一下这个镜像。").kind).toBe("promise");
    expect(classifyReply("Vendoring the protobuf headers now.").kind).toBe("promise");
  });

  it("given a lead that introduces content, a habit or a modal, then it is not a promise", () => {
    expect(classifyReply("Let me summarize: the cache is cold.").kind).not.toBe("promise");
    expect(classifyReply("Let me be clear about the cache.").kind).not.toBe("promise");
    expect(classifyReply("Let me outline it:\n\n## Cache\n- ttl: 300").kind).not.toBe("promise");
    expect(classifyReply("我会注意不再自动提交。").kind).not.toBe("promise");
  });
});

describe("Chinese forms", () => {
  it("given a bare 我 with a two-character verb and its object, then it is a promise", () => {
    expect(classifyReply("我查看 worker 队列的长度。").kind).toBe("promise");
    expect(classifyReply("我检查那台机器的磁盘。").kind).toBe("promise");
  });

  it("given a bare 我 with a finding or a past verb, then it is not a promise", () => {
    expect(classifyReply("我检查的时候发现磁盘满了。").kind).not.toBe("promise");
    expect(classifyReply("我查看了队列，长度是 0。").kind).not.toBe("promise");
  });

  it("given a gerund whose purpose clause has its own verb, then it is still a promise", () => {
    expect(classifyReply("One sec — fixing the cron entry so it doesn't run twice.").kind).toBe("promise");
    expect(classifyReply("Fixing the loader is what broke the build.").kind).not.toBe("promise");
    expect(classifyReply("Moving a row to the top of an array is O(n) here.").kind).not.toBe("promise");
  });
});

describe("a list of steps the reply announces", () => {
  it("given a header that announces steps and short items, then the items are the promise's object", () => {
    const c = classifyReply("Items to verify:\n- the cron spec\n- the worker's TZ variable\n- the last run time");
    expect(c.kind).toBe("promise");
    expect(c.intents[0]?.object).toEqual(expect.arrayContaining(["cron", "tz"]));
    expect(classifyReply("I'll go through this plan:\n1. Inspect the cron spec\n2. Inspect the worker TZ").kind).toBe(
      "promise",
    );
    expect(classifyReply("我打算依次核对：\n- cron 表达式\n- worker 的时区").kind).toBe("promise");
  });

  it("given a summary, a past-tense header or a header without a plan, then a list is not a promise", () => {
    expect(classifyReply("Changes:\n- Add the TZ variable\n- Fix the cron spec").kind).not.toBe("promise");
    expect(classifyReply("Here is what I fixed:\n- the cron spec\n- the TZ variable").kind).not.toBe("promise");
    expect(classifyReply("今日任务：\n- 检查 cron\n- 更新时区").kind).not.toBe("promise");
    // A plan presented as such (asked for, or 计划如下) is what the reply delivers.
    expect(classifyReply("Plan:\n1. Inspect the cron spec\n2. Inspect the worker TZ").kind).not.toBe("promise");
    expect(classifyReply("计划如下：\n1. 检查 cron 表达式\n2. 更新 worker 的时区").kind).not.toBe("promise");
  });
});

describe("running a tool and changing code on one object", () => {
  it("given run and fix promises about the same named thing, then they are one promise", () => {
    expect(
      stalled(
        "BUILD_WARNINGS: 12. I'll apply the clippy suggestions.",
        "Running the clippy suggestions fix now.",
        "Let me fix the clippy suggestions.",
      ),
    ).toBe(true);
  });

  it("given run and edit promises about different things, then the rules keep them apart and the scorer ranks them lower", () => {
    const apart = ["I'll edit the Makefile.", "Let me run the smoke tests.", "I'll edit the Makefile target."];
    const together = ["I'll edit the Makefile.", "Let me edit the Makefile again.", "I'll edit the Makefile target."];
    expect(stalledByRules(...apart)).toBe(false);
    expect(stalledByRules(...together)).toBe(true);
    // The learned scorer sits near its threshold on two like promises and one other: it weighs, it does not rule.
    expect(runScore(...apart)).toBeLessThan(runScore(...together));
  });
});
