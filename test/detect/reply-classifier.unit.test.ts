import { describe, expect, it } from "vitest";
import { classifyReply, isPromiseReply, type ReplyKind } from "../../src/detect/index.js";

function given(text: string) {
  return {
    thenKindIs(kind: ReplyKind) {
      const result = classifyReply(text);
      expect(result.kind, `${JSON.stringify(text)} -> ${result.reason}`).toBe(kind);
      expect(result.reason.length).toBeGreaterThan(0);
    },
  };
}

describe("classifyReply: action promises", () => {
  it.each([
    "Let me check the file.",
    "I'll look at the compiler errors first.",
    "Now I will review the build output.",
    "I’m going to inspect the failing test.",
    "OK, I'll go ahead and check the logs.",
    "Let me first take a quick look at the config.",
    "Checking the compiler errors now.",
    "The build failed. Let me check why.",
    "We'll verify the migration next.",
  ])("given the English reply %j, then it is a promise", (text) => given(text).thenKindIs("promise"));

  it.each([
    "我来检查一下编译错误。",
    "让我先看一下这个文件。",
    "接下来我会确认错误信息。",
    "好的，我先排查一下构建失败的原因。",
    "正在检查编译错误……",
    "我马上修复这个问题。",
  ])("given the Chinese reply %j, then it is a promise", (text) => given(text).thenKindIs("promise"));

  it.each([
    "Let me 检查一下 the compiler errors.",
    "我来 check 一下 build output。",
    "好的，let me look at 这个文件。",
  ])("given the mixed reply %j, then it is a promise", (text) => given(text).thenKindIs("promise"));
});

describe("classifyReply: not promises", () => {
  it.each([
    ["", "empty"],
    ["   \n ", "empty"],
    ["The file has 3 compiler errors, all in src/app.ts.", "factual"],
    ["编译错误已经全部修复，构建通过。", "factual"],
    ["I checked the file; it compiles cleanly.", "factual"],
    ["Let me know if you want the details.", "question"],
    ["Which of the two models should I use?", "question"],
    ["Should I check the old compiler errors or start on the scenarios", "question"],
    ["需要我继续检查编译错误吗？", "question"],
    ["I can't help with reading files outside the project.", "refusal"],
    ["抱歉，我无法访问这个目录。", "refusal"],
    ["BLOCKED: the models directory is excluded. I'll wait for access.", "blocker"],
    ["CONTEXT_ACCESS_DENIED — let me check another path.", "blocker"],
    ["VERIFICATION_INCOMPLETE: app_test was not run.", "blocker"],
    ["STALLED_NO_TOOL_PROGRESS", "blocker"],
    ["MODEL_SERVER_UNAVAILABLE: I will retry later.", "blocker"],
    ["阻塞：READ_ACCESS_DENIED，我来确认一下权限。", "blocker"],
    ["Here is the fix:\n```ts\nconst x = 1;\n```", "deliverable"],
    ["| entity | count |\n| --- | --- |\n| grade | 3 |", "deliverable"],
    ["Let me check:\n- the config\n- the build output", "deliverable"],
    ["业务场景：\n1、学生选课\n2、教师排课\n3、成绩录入", "deliverable"],
  ] as const)("given %j, then it is %s", (text, kind) => given(text).thenKindIs(kind));

  it("given a long analysis that ends with a promise, then it is a deliverable", () => {
    const analysis = "The enrollment model links students, classes and courses through an enrollment status. ".repeat(
      6,
    );
    given(`${analysis} Let me check the teacher model next.`).thenKindIs("deliverable");
  });

  it("given an upper-snake code mentioned inside a sentence, then the promise still counts", () => {
    given("Let me check where the MODULE_NOT_FOUND error comes from.").thenKindIs("promise");
    given("Let me check NODE_ENV first.").thenKindIs("promise");
  });

  it("given a lead without an action verb nearby, then it is not a promise", () => {
    given("I'll be brief: the import path is wrong.").thenKindIs("factual");
    given("我会说明原因：路径写错了。").thenKindIs("factual");
  });
});

describe("isPromiseReply", () => {
  it("agrees with classifyReply", () => {
    expect(isPromiseReply("Let me check the file.")).toBe(true);
    expect(isPromiseReply("The file is fine.")).toBe(false);
  });
});

describe("classifyReply: near misses", () => {
  it("given a Chinese verb used as an attribute, then it is not a promise", () => {
    given("正在运行的进程是 pi。").thenKindIs("factual");
  });

  it("given a lead with the verb five words later, then it is still a promise", () => {
    given("Let me first take a quick look at the config.").thenKindIs("promise");
  });
});
