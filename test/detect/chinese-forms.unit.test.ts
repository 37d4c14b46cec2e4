import { describe, expect, it } from "vitest";
import { classifyReply } from "../../src/detect/index.js";
import { differentThings } from "../../src/detect/similarity.js";
import { action, kind, stalled } from "./replies.js";

describe("Cantonese and colloquial promises", () => {
  it("given 等我睇下 / 我而家睇下 / 即刻睇, then each is a promise to inspect", () => {
    expect(action("等我睇下 nginx 嘅 access log 先。")).toBe("inspect");
    expect(action("我而家睇下 /etc/nginx/nginx.conf 嘅設定。")).toBe("inspect");
    expect(action("唔好意思，等我即刻睇下 nginx 設定。")).toBe("inspect");
  });

  it("given three of them about one config, then the run stalls", () => {
    expect(
      stalled("等我睇下 nginx 嘅設定先。", "我而家睇下 nginx 設定。", "唔好意思，等我即刻睇下 nginx 嘅設定。"),
    ).toBe(true);
  });

  it("given 抓 / 拉 / 扫 / 转换 / 配, then the verbs are known", () => {
    expect(action("我来抓一下 pprof 的火焰图。")).toBe("inspect");
    expect(action("One sec — 我拉一下 CI 的完整日志。")).toBe("inspect");
    expect(action("我现在扫描一下 redis 的大 key。")).toBe("inspect");
    expect(action("我现在转换 api/openapi.json。")).toBe("edit");
    expect(action("我现在去配 HTTPS_PROXY。")).toBe("edit");
  });

  it("given a tool named with 用 before the verb, then the verb after it is the promise", () => {
    expect(action("让我用 ruff 先扫一遍 src/ 目录。")).toBe("inspect");
  });

  it("given a sentence opening with 现在 and an action verb, then it is a promise; with 了, it is not", () => {
    expect(kind("现在执行数据库迁移。")).toBe("promise");
    expect(kind("现在执行完了，迁移已经生效。")).not.toBe("promise");
  });
});

describe("Chinese sentence shapes around a promise", () => {
  it("given 是否 inside a statement, then the reply is a promise, not a question to the user", () => {
    expect(kind("我检查一下 cron 服务是否已启动。")).toBe("promise");
    expect(kind("是否需要我重启 cron 服务？")).toBe("question");
  });

  it("given 在…之前 opening the sentence, then the promise is the main clause's", () => {
    expect(action("在改 Dockerfile 之前，我会先全项目搜索 BASE_IMAGE 的用法。")).toBe("search");
  });

  it("given 让 + a thing + a verb, then it is a change to that thing", () => {
    expect(action("我会让 server.ts 读取 PORT 环境变量。")).toBe("edit");
  });

  it("given 当…时 before the promise, then it is a promise for later, not now", () => {
    expect(kind("当你下次部署时，我会按照清单检查。")).not.toBe("promise");
  });

  it("given 我按 + an order + a verb before a list, then the list is what it will check", () => {
    expect(kind("我按这个顺序排查：\n1. 看 DNS\n2. 看证书")).toBe("promise");
  });

  it("given a status code and then a promise with a short verb, then it is a promise", () => {
    expect(kind("BUILD_FAILED（缺少私有模块）。我现在去配 GOPRIVATE。")).toBe("promise");
  });
});

describe("telling files from symbols", () => {
  it("given a method call Hub.pump and the file hub.go, then they are not two different files", () => {
    expect(differentThings(["hub.pump"], ["hub.go"])).toBe(false);
  });

  it("given two files with known extensions, then they are different things", () => {
    expect(differentThings(["hub.go"], ["store.go"])).toBe(true);
    expect(differentThings(["app/build.gradle.kts"], ["settings.gradle.kts"])).toBe(true);
  });
});

describe("more Chinese promise shapes", () => {
  it("given 第一步还是先 + verb at the end of an aside, then it is a promise", () => {
    expect(kind("补充一下，缓存也可以换成 LRU。不过第一步还是先改 `cache.py` 的写入。")).toBe("promise");
  });

  it("given 要不要 inside a statement, then it is not a question to the user", () => {
    expect(kind("数据量会影响要不要分批迁移，所以我现在就去查 users 有几行。")).toBe("promise");
    expect(kind("要不要我先分批迁移？")).toBe("question");
  });

  it("given a shell block and a short promise after it, then the command is part of the promise", () => {
    const intents = classifyReply("```bash\ncargo test -p parser\n```\n跑完我们再看结果。").intents;
    expect(intents.some((i) => i.action === "run" && i.object.includes("cargo"))).toBe(true);
  });

  it("given a header that works through a list, then the list is the promise", () => {
    expect(kind("Apologies. Working through it:\n- `db.py` pool size\n- `app.py` timeout")).toBe("promise");
    expect(kind("待会逐一确认：\n- nginx 的超时\n- gunicorn 的 worker 数")).toBe("promise");
  });

  it("given 我去 + a file + a verb, or a place with 喺, then it is a promise to change that file", () => {
    expect(action("我去 webpack.config.js 加 `@` alias。")).toBe("edit");
    expect(action("我試下喺 Dockerfile 加 libpq-dev。")).toBe("edit");
  });
});

describe("the fifth split's forms", () => {
  it("given a promise with an 'OK 吧' tag, then it is a promise", () => {
    expect(kind("好嘞，我改一下 nginx.conf 里那个拼写，OK 吧？")).toBe("promise");
  });

  it("given 改过来 (a direction, not the past), then it is a promise", () => {
    expect(kind("我先把 App.vue 的 import 路径改过来，可以吧？")).toBe("promise");
  });

  it("given Cantonese 攞 and 搵, then they inspect and search", () => {
    expect(action("等我攞個 jstack thread dump 先。")).toBe("inspect");
    expect(action("我去搵下邊個 ServiceProvider 註冊咗佢。")).toBe("search");
  });

  it("given 本地 between 我 and the verb, or formal 对…进行核查, then they are promises", () => {
    expect(kind("我本地测一下这条 SQL 的耗时。")).toBe("promise");
    expect(action("现对 OrderService.pay 的加锁顺序进行核查。")).toBe("inspect");
  });

  it("given a heading that names the next step, then the line after it is the promise", () => {
    expect(kind("### 下一步\n\n**检查 `deploy.yaml` 的 env 注入**。")).toBe("promise");
  });

  it("given X 的扫描设定, then 扫描 stays part of the object", () => {
    expect(classifyReply("我来看 Application.java 的扫描设定。").intents[0]?.object).toContain("扫描");
  });
});

describe("Japanese promises about three different files", () => {
  it("given the same verb on three different files, then the grammar they share does not join them", () => {
    expect(
      stalled("Dockerfile を確認します。", ".dockerignore を確認します。", "docker-compose.yml を確認します。"),
    ).toBe(false);
  });
});

describe("own trials and ordered lists", () => {
  it("given 再/重新 + verb and 看看 or 试试 after it, then it is an own trial", () => {
    expect(kind("再触发一次这个 job 看看结果。")).toBe("promise");
    expect(kind("重新跑一遍试试。")).toBe("promise");
  });

  it("given 先/再 + verb as steps for the user, then it is not a promise", () => {
    expect(kind("先运行 npm ci，再运行 npm test。")).not.toBe("promise");
  });

  it("given a header that works through a list in order (依序, checklist), then it announces the list", () => {
    expect(kind("好的，依序處理：\n- 改 App.vue 的 import\n- 搜尋舊路徑")).toBe("promise");
  });
});

describe("the sixth split's forms", () => {
  it("given 那先 + verb with a tag asking for agreement, then it is a promise", () => {
    expect(kind("那先跑 2to3，可以吧？")).toBe("promise");
  });

  it("given counting, consulting and auditing verbs (统计, 查阅, 审计, 比对), then they inspect", () => {
    expect(action("我统计一下 session:* 的 key 数量。")).toBe("inspect");
    expect(action("我会即时翻查备份日志的最新内容。")).toBe("inspect");
    expect(action("现在开始对 src/auth 目录下的代码进行安全审计。")).toBe("inspect");
  });

  it("given 搞一下 / 弄一下 on a file, then it is a change to it", () => {
    expect(action("得嘞，我这就把 bump.sh 弄一下。")).toBe("edit");
  });
});

describe("status codes that are not blockers", () => {
  it("given STATUS: IN_PROGRESS and a promise, then it is a promise", () => {
    expect(kind("STATUS: IN_PROGRESS. Fixing the F401 and E722 findings next.")).toBe("promise");
  });
});

describe("switches, openers and formal prepositions", () => {
  it("given 把 X 打开 on a setting, then it is a change; on a file to read, it is a look", () => {
    expect(action("我来把 hot 打开。")).toBe("edit");
    expect(action("我把 src/dates.py 打开看看。")).toBe("inspect");
  });

  it("given 所以我 + verb after a conditional sentence, then the promise stands", () => {
    expect(kind("如果走的是内网 DNS，解析超时也会这样。所以我还是先去查连接建立的耗时。")).toBe("promise");
  });

  it("given 以下将针对 X 进行检查, then it is a promise to inspect", () => {
    expect(action("以下將針對所有資料庫存取點進行全面檢查。")).toBe("inspect");
  });
});

describe("the seventh split's forms", () => {
  it("given a request to wait before a bare 我 + verb, then the verb is what is waited for", () => {
    expect(kind("麻煩等我一下，我看 CORS 中介層的設定。")).toBe("promise");
  });

  it("given 请您稍候, then it asks the user to wait, not to act", () => {
    expect(kind("不好意思再請您稍候，正在確認 certbot 續期排程。")).toBe("promise");
  });

  it("given an English verb after 正在 or a strong Chinese lead, then it is a promise", () => {
    expect(kind("正在 retry main 上的 pipeline……")).toBe("promise");
    expect(kind("我现在就 perf record 一下 normalize_tags。")).toBe("promise");
  });

  it("given Cantonese tags (得唔得, 好冇), then the promise stays a promise", () => {
    expect(kind("我 restart 個 consumer service 先，得唔得？")).toBe("promise");
  });

  it("given 继续： and a phrase with its verb, then it is a promise; 继续观察中 is a status", () => {
    expect(kind("继续：为 billing.py 补充单元测试。")).toBe("promise");
    expect(kind("没有操作，继续观察中～")).not.toBe("promise");
  });

  it("given a verb that describes a noun (涉及更新的代码), then the main verb is read", () => {
    expect(action("接下来将对涉及 orders 更新的两段业务代码逐一核查。")).toBe("inspect");
  });

  it("given a further step of another kind (然后 …), then it does not join the step before it", () => {
    expect(
      stalled(
        "我先备份一下 nginx.conf。",
        "然后我把 nginx.conf 里的 client_max_body_size 改成 50m。",
        "改完之后我会 nginx -t 校验。",
      ),
    ).toBe(false);
  });
});

describe("Japanese objects in katakana", () => {
  it("given three steps on different things named in katakana, then they are three things", () => {
    expect(
      stalled("CHANGELOG を更新します。", "バージョンタグを作成します。", "リリースノートの下書きを書きます。"),
    ).toBe(false);
  });
});

describe("verbs inside words", () => {
  it("given 装 inside 安装步骤, then the verb is the one after the phrase", () => {
    expect(action("我这就把安装步骤换成 uv。")).toBe("edit");
  });

  it("given a verb glued to 里 by the segmenter (里加), then it is still the verb", () => {
    expect(action("马上去 Dockerfile 里加 apt-get install libpq-dev。")).toBe("edit");
  });
});

describe("the ninth split's forms", () => {
  it("given an acknowledgement and a sentence that opens with an action verb, then it is the reply's own step", () => {
    expect(kind("好的，查询 orders 表已有的索引。")).toBe("promise");
    expect(kind("好的，运行 npm test 即可。")).not.toBe("promise");
  });

  it("given a mixed sentence that opens with a verb and says now or 马上, then it is a promise", () => {
    expect(kind("删除 duplicate 的 applyCoupon now.")).toBe("promise");
    expect(kind("Patch retry loop 的条件 now，马上。")).toBe("promise");
  });

  it("given 先 + verb with an English tag, then it is a promise", () => {
    expect(kind("好的，先跑全量 mypy, right?")).toBe("promise");
  });
});

describe("the tenth split's forms", () => {
  it("given 升到 and an English verb with 到 in a 把 phrase, then they change the thing", () => {
    expect(action("我來把 ci.yml 的 Node 升到 20。")).toBe("edit");
    expect(action("我去把 node-version bump 到 20。")).toBe("edit");
  });

  it("given a short sentence of a verb with 下 and its object, then it is the reply's own step", () => {
    expect(kind("查下索引。")).toBe("promise");
  });

  it("given 让我再核对： and a worked answer, then the check is done in the reply", () => {
    expect(kind("讓我再核對：對，就是這兩個 +1 疊在一起。")).toBe("deliverable");
    expect(kind("讓我再檢查一次：Retries=3 → maxRetries=4 → 共 5 次。")).toBe("deliverable");
  });

  it("given 我来建索引： and the SQL it would run, then it is a promise; 我来写一个： and a script, a deliverable", () => {
    expect(kind("我來建索引：\n\n```sql\nCREATE INDEX idx ON orders (created_at);\n```")).toBe("promise");
    expect(kind("我来写一个：\n\n```bash\nss -ltn | grep -q :8080\n```")).toBe("deliverable");
  });
});

describe("the eleventh split's forms", () => {
  it("given 我将 X 改成 Y, then 将 is the preposition and the verb is 改成", () => {
    expect(action("我將 before hook 改成 async function。")).toBe("edit");
  });

  it("given Cantonese 先 at the end and 行一次 (run), then they are promises", () => {
    expect(kind("我改 before hook 做 async 先。")).toBe("promise");
    expect(action("而家再行一次 test/db.test.js。")).toBe("run");
  });

  it("given an acknowledgement and 先 + a place phrase + verb, then it is the reply's own step", () => {
    expect(kind("好，先在从库上查下 1042 这条数据。")).toBe("promise");
  });
});
