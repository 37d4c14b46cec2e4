import { describe, expect, it } from "vitest";
import { classifyReply, isPromiseReply, type ReplyKind } from "../../src/detect/index.js";

function given(text: string) {
  return {
    thenKindIs(kind: ReplyKind) {
      const result = classifyReply(text);
      expect(result.kind, `${JSON.stringify(text)} -> ${result.reason}`).toBe(kind);
      expect(result.reason.length).toBeGreaterThan(0);
    },
    thenIntentIs(action: string, object: string[]) {
      const result = classifyReply(text);
      expect(result.kind, `${JSON.stringify(text)} -> ${result.reason}`).toBe("promise");
      expect(result.intents.map((i) => i.action)).toContain(action);
      const objects = result.intents.flatMap((i) => i.object);
      for (const o of object) expect(objects, JSON.stringify(result.intents)).toContain(o);
    },
  };
}

describe("classifyReply: action promises however they are phrased", () => {
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
    "I'm checking the compiler errors.",
    "Going to check the compiler errors.",
    "Still checking the compiler errors...",
    "Give me a moment to look through the build log.",
    "Bear with me while I trace the request handler.",
    "I'm going to go ahead and take a closer look at the compiler errors.",
    "Let me step through refresh() once more.",
    "I'll run the suite first, okay?",
    "Let me check two things:\n- the import path\n- the tsconfig paths",
    "I'll run the build:\n```bash\nnpm run build\n```",
    "BUILD_FAILED: the import is missing. Let me fix the import.",
    "Hold on, patching the constructor now.",
  ])("given the English reply %j, then it is a promise", (text) => given(text).thenKindIs("promise"));

  it.each([
    "我来检查一下编译错误。",
    "让我先看一下这个文件。",
    "接下来我会确认错误信息。",
    "好的，我先排查一下构建失败的原因。",
    "正在检查编译错误……",
    "我马上修复这个问题。",
    "我看看编译错误。",
    "稍等，我检查一下编译错误。",
    "我去查下",
    "我这就去看",
    "我先把 width 改成 max-width，好吗？",
    "我去日志里看看 500 前后的请求。",
  ])("given the Chinese reply %j, then it is a promise", (text) => given(text).thenKindIs("promise"));

  it.each(["讓我再檢查一次", "我來看一下", "我正在更新 docs/api.md。", "好，我現在改 width，好嗎？"])(
    "given the Traditional Chinese reply %j, then it is a promise",
    (text) => given(text).thenKindIs("promise"),
  );

  it.each([
    "Let me 检查一下 the compiler errors.",
    "我来 check 一下 build output。",
    "好的，let me look at 这个文件。",
    "我去 NewLRU 里 init 一下 map。",
  ])("given the mixed reply %j, then it is a promise", (text) => given(text).thenKindIs("promise"));
});

describe("classifyReply: the action and object a promise names", () => {
  it("given synonyms and scripts, then the action and object fold to one intent", () => {
    given("Let me check the compiler errors.").thenIntentIs("inspect", ["build", "error"]);
    given("我检查一下编译错误。").thenIntentIs("inspect", ["build", "error"]);
    given("讓我再檢查一次編譯錯誤").thenIntentIs("inspect", ["build", "error"]);
    given("I'll dig into refresh() again.").thenIntentIs("inspect", ["refresh"]);
    given("Let me rebuild.").thenIntentIs("run", ["build"]);
    given("I'll move the helper into src/billing/dates.ts.").thenIntentIs("edit", ["helper", "dates.ts"]);
  });

  it("given a promise that shows its command in a code block, then the command is a run intent", () => {
    given("Let me run:\n```bash\ncargo test -p core\n```").thenIntentIs("run", ["cargo", "core"]);
  });
});

describe("classifyReply: not promises", () => {
  it.each([
    ["", "empty"],
    ["   \n ", "empty"],
    ["The file has 3 compiler errors, all in src/app.ts.", "factual"],
    ["编译错误已经全部修复，构建通过。", "factual"],
    ["I checked the file; it compiles cleanly.", "factual"],
    ["我检查了编译错误，没有问题。", "past"],
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
    ["业务场景：\n1、学生选课\n2、教师排课\n3、成绩录入", "deliverable"],
    ["Let me explain how the fold works.", "deliverable"],
    ["Give it another try — if it still fails, I'll look into why.", "question"],
    ["If the build still fails after that, I'll look into the linker flags.", "conditional"],
    ["如果没有，我再查一下原因。", "conditional"],
    ["Testing is handled by Vitest.", "status"],
    ["正在运行，PID 是 4312。", "status"],
    ["正在运行的进程是 pi。", "status"],
    ['You wrote "let me check the logs" in the ticket title.', "factual"],
    ["代码里的 TODO 是：“我来修一下取整”。", "factual"],
    ["빌드 결과를 확인했습니다.", "past"],
    ["15 입니다.", "factual"],
    ["1,843,207개입니다.", "factual"],
    ["先にテストスイート全体を実行しますね、いいですか？", "promise"],
    ["0042 마이그레이션에 CREATE TYPE 을 추가할게요, 괜찮죠?", "promise"],
    ["テストのコードを確認いたします。", "promise"],
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
    given("我会说明原因：路径写错了。").thenKindIs("deliverable");
  });
});

describe("isPromiseReply", () => {
  it("agrees with classifyReply, and a second call returns the memoised result", () => {
    expect(isPromiseReply("Let me check the file.")).toBe(true);
    expect(isPromiseReply("The file is fine.")).toBe(false);
    expect(classifyReply("Let me check the file.")).toBe(classifyReply("Let me check the file."));
  });
});
