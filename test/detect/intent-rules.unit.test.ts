import { describe, expect, it } from "vitest";
import { classifyReply, isSimilarReply, type ReplyKind } from "../../src/detect/index.js";

/** The rules added for recall on paraphrases, lists, tags and language switches; sentences written for these tests. */
function given(text: string) {
  const c = classifyReply(text);
  const why = `${JSON.stringify(text)} -> ${c.kind}: ${c.reason}`;
  const objects = c.intents.flatMap((i) => i.object);
  return {
    thenKindIs(kind: ReplyKind) {
      expect(c.kind, why).toBe(kind);
    },
    thenPromises(action: string, has: string[] = [], lacks: string[] = []) {
      expect(c.kind, why).toBe("promise");
      expect(
        c.intents.map((i) => i.action),
        why,
      ).toContain(action);
      for (const o of has) expect(objects, why).toContain(o);
      for (const o of lacks) expect(objects, why).not.toContain(o);
    },
  };
}

describe("leads and verbs", () => {
  it("given a wait phrase with a length before 'while I', then it is a promise", () => {
    given("Hang on a sec while I rebuild the bundle.").thenPromises("run", ["build"]);
    given("Please wait a moment while I reread the migration.").thenPromises("inspect", ["database"]);
  });

  it("given chown/chmod, then it is a fix of permissions", () => {
    given("我来 chmod 一下 scripts/deploy.sh。").thenPromises("fix", ["permission", "deploy.sh"]);
  });

  it("given Chinese verbs 配上, 测, 挪 and 做, then they are actions", () => {
    given("我去把端口配上。").thenPromises("edit", ["network"]);
    given("我再测一次接口耗时。").thenPromises("run", ["api", "performance"]);
    given("我先做第二步。").thenPromises("continue");
  });

  it("given a noun-verb inside a 把 phrase (配置), then the verb after it is the action and the noun is the object", () => {
    given("我把旧的日志配置挪到 logging.yml 里。").thenPromises("edit", ["log", "config", "logging.yml"]);
  });

  it("given a Korean -해 or Japanese -し link before the ending, then the verb is read", () => {
    given("로그를 분석해 볼게요.").thenPromises("inspect", ["log"]);
    given("再コンパイルしてみます。").thenPromises("run", ["build"]);
    given("型エラーを修正しますね。").thenPromises("fix", ["type", "error"]);
  });
});

describe("more verbs and leads", () => {
  it.each([
    ["Lemme take another pass at the parser.", "inspect"],
    ["I'll poke around the nginx config.", "inspect"],
    ["Let me grab the stderr from the last run.", "inspect"],
    ["I'll bisect the commits since Friday.", "search"],
    ["Let me chase down where the undefined comes from.", "search"],
    ["I'll kick the pipeline again.", "run"],
    ["Let me wire the handler into the router.", "edit"],
    ["I'll pin lodash to 4.17.21.", "edit"],
    ["I'll circle back to the flaky spec.", "continue"],
    ["Allow me a moment to skim the changelog.", "inspect"],
    ["我来瞅一眼路由表。", "inspect"],
    ["我捋一下鉴权逻辑。", "inspect"],
  ])("given %j, then it promises %s", (text, action) => given(text).thenPromises(action));

  it.each([
    ["I'll reset the fixtures, if that's ok with you?", "edit"],
    ["Going to patch the retry logic — sounds ok?", "fix"],
    ["I'll keep digging into the flaky spec.", "inspect"],
    ["我先 git pull 一下。", "inspect"],
    ["继续排查端口占用。", "inspect"],
    ["Give me a few minutes to rebuild the image.", "run"],
    ["Sit tight while I rerun the seed script.", "run"],
    ["给我几分钟，我把依赖重装一下。", "install"],
    ["我先重启一下网关，成吗？", "run"],
    ["我来改一下路径，行不？", "edit"],
  ])("given %j, then it promises %s", (text, action) => given(text).thenPromises(action));

  it("given 继续 + verb + 中, then it reports a state", () => {
    given("没有新的报错，继续观察中。").thenKindIs("status");
  });

  it("given hand-back words that name the reply's own next step, then it is a promise, not a question", () => {
    given("I'll try again with the cache cleared.").thenPromises("run");
    given("I fixed the import. Try again and let me know.").thenKindIs("question");
    given("我改好了，你再试一次。").thenKindIs("question");
  });

  it("given 'tell me when done' before the promise, then the turn goes to the user", () => {
    given("保存之后重启服务，然后告诉我，我再验证一下。").thenKindIs("question");
    given("你想让我换个库试试的话，说一声就行。").thenKindIs("question");
  });
});

describe("other people's words and state reports", () => {
  it("given words reported after 'reads:' or 标题是：, then they are not the reply's promise", () => {
    given("The ticket reads: let me rerun the nightly job.").thenKindIs("factual");
    given("工单标题是：我来重跑夜间任务。").thenKindIs("factual");
    given("Let me read:\n- src/a.ts\n- src/b.ts").thenPromises("inspect", ["a.ts"]);
  });

  it("given a participle opening followed by a finite verb, then it is a state report", () => {
    given("Looking at the trace, the null comes from parseDate.").thenKindIs("status");
  });
});

describe("conditions", () => {
  it("given 'after the' + the reply's own change, then it is a promise; a condition on the user stays a condition", () => {
    given("Let me rerun the suite after the refactor.").thenPromises("run", ["test"]);
    given("I'll rerun the suite after you push the branch.").thenKindIs("conditional");
  });
});

describe("a bare 我 with a volitional mark later in the clause", () => {
  it("given 一下 or a count of times after the object, then it is a promise", () => {
    given("我跑两遍集成测试复现一下。").thenPromises("run", ["test"]);
  });

  it("given an English verb with the mark right after it, then it is a promise", () => {
    given("我 redeploy 一下 staging。").thenPromises("run");
    given("我 deploy staging 的时候发现了这个问题。").thenKindIs("factual");
  });

  it("given a tag asking for agreement, then it is a promise", () => {
    given("那我删掉这个 fallback，行吧？").thenPromises("edit", ["fallback"]);
  });

  it("given no mark, a tag or 了 after the verb, then it is not a promise", () => {
    given("我看这个 fallback 没用。").thenKindIs("factual");
    given("我删掉了这个 fallback。").thenKindIs("past");
  });
});

describe("objects", () => {
  it("given 'to' before a destination, then the destination is part of the object; before a verb it is a purpose", () => {
    given("I'll move the retry helper to src/net/retry.ts.").thenPromises("edit", ["retry.ts"]);
    for (const text of [
      "I'll open the config to see which port it uses.",
      "I'll open the config to pick a free port.",
    ]) {
      expect(classifyReply(text).intents[0]?.object).toEqual(["config"]);
    }
  });

  it("given participles, numbers and possessives, then they are not object words", () => {
    given("Let me check the generated snapshot.").thenPromises("inspect", ["snapshot"], ["generated"]);
    given("Let me read the worker's settings.").thenPromises("inspect", ["worker", "config"], ["worker'"]);
  });

  it("given a manifest file, then it names the dependencies", () => {
    expect(isSimilarReply("Let me bump serde in Cargo.toml.", "I'll update the serde dependency.")).toBe(true);
  });

  it("given the same software noun in English, Simplified and Traditional Chinese, then the objects agree", () => {
    expect(isSimilarReply("Let me clear the cache.", "我来清一下缓存。")).toBe(true);
    expect(isSimilarReply("I'll fix the constructor.", "我來修正建構子。")).toBe(true);
    expect(isSimilarReply("Let me raise the timeout.", "我把超时调大一点。")).toBe(true);
    expect(isSimilarReply("I'll check the mobile layout.", "我看一下手機版面。")).toBe(true);
  });

  it("given a name that is also an Object.prototype key, then it is read as a word", () => {
    given("Let me check the constructor.").thenPromises("inspect", ["constructor"]);
    given("I'll open app.constructor.ts.").thenPromises("inspect", ["app.constructor.ts"]);
  });

  it("given a folder path and the folder's name, then they name the same thing", () => {
    expect(isSimilarReply("我來看一下 src/hooks 目錄。", "我來看一下 hooks 資料夾。")).toBe(true);
  });
});

describe("lists and colons", () => {
  it("given a numbered list after the promise, then the items are the object and their numbers are not", () => {
    given("Let me look at:\n1. the retry loop\n2. the timeout flag").thenPromises(
      "inspect",
      ["retry", "option"],
      ["1"],
    );
  });

  it("given a vague object (these changes, 这两项), then the listed or colon items are the object", () => {
    given("- drop the unused import\n- rename fetchAll\n\nI'll make both changes now.").thenPromises("edit", [
      "fetchall",
      "import",
    ]);
    given("我来检查这两项：端口和证书。").thenPromises("inspect", ["network", "证书"]);
  });

  it("given a header with a lead and no verb, then list items that open with a verb are its promises", () => {
    given("Steps I'll take:\n- rebuild the wasm bundle\n- rerun the smoke test").thenPromises("run", ["build"]);
    given("接下来我会：\n1. 检查 nginx 日志\n2. 重启网关").thenPromises("inspect", ["nginx", "log"]);
  });

  it("given a header about habits, then its list is not a promise", () => {
    given("From now on I will:\n- rebuild the bundle before each release\n- rerun the smoke test").thenKindIs(
      "deliverable",
    );
    given("以后我会：\n- 每天检查日志\n- 定期清理缓存").thenKindIs("deliverable");
  });

  it("given 先 + verb, then it leads only a sentence that ends in a colon (an instruction has none)", () => {
    given("先查这三处：\n- 路由表\n- 中间件\n- 网关配置").thenPromises("inspect", ["api", "config"]);
    given("先运行 npm ci，再运行 npm test。").thenKindIs("factual");
  });

  it("given a list item that asks the user, then the turn goes to the user", () => {
    given("先确认一下：\n- 你有 staging 的访问令牌吗？").thenKindIs("question");
    given("Let me check two things:\n- do you have the staging token?\n- is the VPN up?").thenKindIs("question");
  });

  it("given 写个总结 / 'write a summary', then it delivers", () => {
    expect(classifyReply("我写个总结：超时是连接池太小导致的。").kind).not.toBe("promise");
    given("我来写个总结：超时是连接池太小导致的。").thenKindIs("deliverable");
    given("Let me write a quick summary: the pool was too small.").thenKindIs("deliverable");
  });

  it("given a lead, a step and a colon, then the verb after the colon is the promise", () => {
    given("接下来一步：跑集成测试。").thenPromises("run", ["test"]);
  });

  it("given a list item that is not numbered, then '1.' inside prose still ends nothing", () => {
    given("Version 1. Let me check the changelog.").thenPromises("inspect", ["changelog"]);
  });
});

describe("similarity", () => {
  it("given a paraphrase that adds detail to the same object, then the replies are similar", () => {
    expect(
      isSimilarReply("Let me add a dark-mode rule.", "I'll add the dark-mode rule to theme.css for small screens."),
    ).toBe(true);
    expect(isSimilarReply("Let me check the redis logs.", "I'll look into the redis container's startup output.")).toBe(
      true,
    );
  });

  it("given the same fix named by its symptom and by its code, then the replies are similar", () => {
    expect(
      isSimilarReply("Let me fix the off-by-one in the pager.", "I'll correct the offset calculation in the pager."),
    ).toBe(true);
    expect(isSimilarReply("我修一下分页的偏移量。", "我来改一下 offset 的计算。")).toBe(true);
    expect(
      isSimilarReply("Let me rerun the flaky signup test.", "I'll run the signup spec again to see if it flakes."),
    ).toBe(true);
  });

  it("given 'a few more times', then time is not the object", () => {
    expect(classifyReply("I'll run the seed a few more times.").intents[0]?.object).not.toContain("performance");
  });

  it("given 我 + verb + 个 (我写个迁移), then it is a promise", () => {
    given("我写个脚本把旧数据迁过去。").thenPromises("edit", ["script"]);
  });

  it("given two replies whose last words are the same file extension, then they are not near-identical", () => {
    expect(isSimilarReply("Let me open utils.ts.", "I'll delete the tests in api.ts.")).toBe(false);
  });

  it("given an opening promise and then a long answer, then the reply is a deliverable", () => {
    const steps = Array.from({ length: 8 }, (_, i) => `第${i + 1}步需要你手动在设置页面里打开对应的开关并保存`).join(
      "。\n",
    );
    given(`我来帮你做：\n${steps}。\n最后我帮你配置。`).thenKindIs("deliverable");
  });
});

describe("rules from the seventeenth writers' split", () => {
  it("given 对 X 进行 + verb, then the verb after 进行 is the action and X the object", () => {
    given("接下来我将对 `hash.ts` 中的密码哈希实现进行检查。").thenPromises("inspect", ["hash.ts", "哈希"], ["中的"]);
    given("我会对这段代码进行重构。").thenPromises("edit", ["code"]);
    given("我已经对配置进行了检查，没有问题。").thenKindIs("factual");
  });

  it("given 瞄, 导出, 压测 and 行过, then they are actions", () => {
    given("嗯，我瞄一下 `docker-compose.yml` 的 api service 配置哈。").thenPromises("inspect", ["docker-compose.yml"]);
    given("收到。现在导出堆转储文件。").thenPromises("run", ["堆转储"]);
    given("准备用 wrk 压一下 /api/v2/search。").thenPromises("run", ["wrk"]);
    given("等我重新行過個 gradle build 先。").thenPromises("run", ["build"]);
    given("先去看 fee.go 里 CalcFee 的具体实现。").thenPromises("inspect", ["fee.go"]);
  });

  it("given a gerund clause that ends in now or next, then it is a step being taken unless a plain finite verb follows", () => {
    given("Checking the jest setup for open handles now.").thenPromises("inspect", ["setup"]);
    given("Sorry! Opening the failed traces now.").thenPromises("inspect", ["log"]);
    given("Testing is handled by Vitest now.").thenKindIs("status");
    given("Running the suite takes three minutes now.").thenKindIs("status");
    given("Deploying works fine now.").thenKindIs("status");
  });

  it("given 'still running' with a PID, then it reports the process's state", () => {
    given("Still running (PID 7781).").thenKindIs("status");
    given("Still running the tests.").thenPromises("run", ["test"]);
    given("Still checking pid 87002's transaction.").thenPromises("inspect", ["transaction"]);
  });

  it("given 'X first and Y for later', then the promise of X stands; a bare 'later' defers", () => {
    given("I'll convert `app.yaml` first and keep `db.yaml` for later, sound good?").thenPromises("edit", ["app.yaml"]);
    given("I'll check the logs later.").thenKindIs("conditional");
  });

  it("given a list headed 按顺序 + verb, then its items are what it will check", () => {
    given("好的，按顺序检查：\n- 图片\n- JS bundle\n- 字体").thenPromises("inspect", ["image", "字体"]);
  });
});

describe("rules from the eighteenth and nineteenth writers' splits", () => {
  it("given a Go package pattern ./..., then the sentence goes on past it", () => {
    given("改之前我先把 `go test ./utils/...` 跑一遍，行吗？").thenPromises("run", ["test"]);
  });

  it("given 扫一遍 and 设成 after a 把 phrase, then they are actions", () => {
    given("我先把所有 import 扫一遍。").thenPromises("inspect", ["import"]);
    given("抱歉！我這就把 strict 設成 true。").thenPromises("edit", ["strict"]);
  });

  it("given an English verb in a 把 phrase before 出来 or 掉, then it is the action", () => {
    given("我先把现有数据 dump 出来。").thenKindIs("promise");
    given("我来把这个 loop refactor 掉。").thenPromises("edit", ["loop"]);
  });
});

describe("rules from the twentieth writers' split", () => {
  it("given a status code, then a gerund promise to log in and rerun, then it is a promise", () => {
    given("DEPLOY_FAILED. Logging in to the registry and re-running the staging deploy.").thenPromises("run", [
      "deploy",
    ]);
    given("Logging is handled by pino.").thenKindIs("factual");
  });

  it("given 分一下 (sort into kinds), then it is an action", () => {
    given("我來把這 57 個 deprecated 依類型分一下。").thenPromises("inspect", ["deprecated"]);
  });
});

describe("rules from the twenty-first writers' split", () => {
  it("given a gerund with 'now' after an object that has its own clause, then it is a promise", () => {
    given("Checking the config file CI passes to Playwright now.").thenPromises("inspect", ["config", "playwright"]);
    given("Pulling the failed run logs now to diff them.").thenPromises("inspect", ["log"]);
    given("Testing is handled by Vitest now.").thenKindIs("status");
    given("Checking the logs is what takes time now.").thenKindIs("status");
  });

  it("given turn on / flip / enable, then they are edits", () => {
    given("Bear with me while I turn on new_checkout in staging.").thenPromises("edit", ["staging"]);
    given("I'll flip the flag for staging.").thenPromises("edit", ["option", "staging"]);
  });

  it("given a promise whose colon names steps joined by arrows, then it is a promise, not a worked answer", () => {
    given("OK, going through them now: threshold → table size → driver memory.").thenPromises("inspect");
    given("開始排查：連線池 → 最近部署 → 下游延遲。").thenKindIs("promise");
    given("Let me work it out: 4 KB pages → 2048 pages, which is 8 MB.").thenKindIs("deliverable");
  });

  it("given an English word for explaining, marked 一下 in Chinese, then it names a command", () => {
    given("我 describe 一下这个 pod 看 Events。").thenPromises("inspect", ["event"]);
  });

  it("given a flag as the verb with 一轮 and a tag, then it is a promise", () => {
    given("那我就先 --fix 一輪囉，OK 吧？").thenPromises("fix");
  });

  it("given a Korean status code then a promise to remove, then it is a promise", () => {
    given("LINT_FAILED: app.ts의 사용하지 않는 import를 제거하겠습니다.").thenPromises("edit", ["import"]);
  });

  it("given 'if that's fine with you?' after a promise, then it is a tag, not a question", () => {
    given("I'll update all three to `node:22`, if that's fine with you?").thenPromises("edit", ["node"]);
  });

  it("given a composing verb before a list, then the list is the answer", () => {
    given("我來補上安全性：\n- 輸入驗證\n- SQL injection\n- 權限檢查").thenKindIs("deliverable");
    given("我来检查这几处：\n- 输入验证\n- SQL injection").thenKindIs("promise");
  });
});
