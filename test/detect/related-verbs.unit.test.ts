import { describe, expect, it } from "vitest";
import { classifyReply } from "../../src/detect/index.js";
import { stalled } from "./replies.js";

describe("inline code in a promise", () => {
  it("given prose between two code spans, then the prose is read (the spans pair left to right)", () => {
    const text = "连接池上限是 `10`，高峰期不够用。我先看一下 `db.ts` 里 `createPool` 的参数。";
    expect(classifyReply(text).kind).toBe("promise");
  });

  it("given a code span that holds Chinese prose, then it stays quoted text", () => {
    expect(classifyReply("提交信息写的是 `我来修复登录`。").kind).not.toBe("promise");
  });
});

describe("running a tool to look, and looking", () => {
  it("given run git blame and 看 git blame on one line, then the promises join", () => {
    expect(
      stalled("我看下这一行的 git blame。", "Let me run git blame on that line.", "我看下这行的 git blame。"),
    ).toBe(true);
  });

  it("given one tool named in each promise with run and inspect verbs, then they join", () => {
    expect(
      stalled(
        "我来跑 tools/lint.sh 看看哪里报错。",
        "让我用 tools/lint.sh 先扫一遍 app/ 目录。",
        "我现在来执行 tools/lint.sh 扫描 app/。",
      ),
    ).toBe(true);
  });

  it("given one file read, then edited, then tested, then it is three steps, not one promise", () => {
    expect(
      stalled(
        "Let me read parser.go first.",
        "I'll edit parser.go to handle the empty case.",
        "Then I'll run the parser.go tests.",
      ),
    ).toBe(false);
  });
});

describe("near-identical replies in a language the lexicons do not read", () => {
  it("given the same last sentence with a polite opening added once, then the replies join", () => {
    expect(
      stalled(
        "少々お待ちください、設定ファイルを確認いたします。",
        "設定ファイルを確認いたします。",
        "お待たせして申し訳ありません。設定ファイルを確認いたします。",
      ),
    ).toBe(true);
  });

  it("given different last sentences, then they do not join", () => {
    expect(stalled("設定ファイルを確認いたします。", "ログを確認いたします。", "テストを実行いたします。")).toBe(false);
  });
});

describe("a parenthetical aside", () => {
  it("given a gerund promise with an aside that holds a finite verb, then it is still a promise", () => {
    expect(classifyReply("Next step — reviewing the webpack config (the alias block is the usual suspect).").kind).toBe(
      "promise",
    );
  });

  it("given a status sentence outside the aside, then it stays a status", () => {
    expect(classifyReply("Testing is handled by Vitest (see the config).").kind).not.toBe("promise");
  });
});

describe("commands for the user", () => {
  it("given an instruction with the command (run this from …, then check with:, 在…执行：), then it is not an own promise", () => {
    const block = "\n\n```bash\nnpm ci\n```";
    expect(classifyReply(`Run this from the project root:${block}`).kind).not.toBe("promise");
    expect(classifyReply(`Then check with:${block}`).kind).not.toBe("promise");
    expect(classifyReply(`在项目根目录执行：${block}`).kind).not.toBe("promise");
  });

  it("given a bare 'Run:' before the command, then it shows what the reply would run", () => {
    expect(classifyReply("Run:\n\n```bash\nnpm ci\n```").kind).toBe("promise");
  });
});

describe("words of a reply's prose", () => {
  it("given two promises that share only their lead 我去, then they are not one renamed object", () => {
    expect(
      stalled(
        "我去查下 worker 的 Deployment。",
        "我去查下 Deployment 的 env。",
        "好，我去看下 staging 的 redis 实例状态。",
      ),
    ).toBe(false);
  });
});

describe("promises kept in the reply itself", () => {
  it("given 让我看看： and the answer after the colon, then it is a deliverable", () => {
    expect(classifyReply("让我看看：前端先发 OPTIONS 预检，你的服务器回了 405，所以预检失败。").kind).toBe(
      "deliverable",
    );
    expect(
      classifyReply("让我看看：在 Express 里加上 app.options 的处理，或者在 cors 之前不要拦 OPTIONS 请求。").kind,
    ).toBe("deliverable");
  });

  it("given 我来写一下： and the code that is not a shell command, then it hands over what it announced", () => {
    expect(classifyReply("我来写一下：\n\n```sql\nSELECT count(*) FROM users;\n```").kind).toBe("deliverable");
    expect(classifyReply("Let me write the workflow:\n\n```yaml\non: push\n```").kind).toBe("deliverable");
  });

  it("given a short list of names after the colon, then it is still a promise", () => {
    expect(classifyReply("接著檢查：scan 範圍、ddl-auto、網路逾時。").kind).toBe("promise");
  });
});

describe("names that differ only in their first part", () => {
  it("given three systemd units, then they are three things", () => {
    expect(
      stalled(
        "I'll check api.service's journal.",
        "I'll check worker.service's journal.",
        "I'll check mailer.service's journal.",
      ),
    ).toBe(false);
  });

  it("given Korean steps on different files, then they are three things", () => {
    expect(
      stalled(
        "먼저 tmp 폴더를 삭제하겠습니다.",
        "다음으로 .gitignore에 build를 추가하겠습니다.",
        "마지막으로 README를 업데이트하겠습니다.",
      ),
    ).toBe(false);
  });
});

describe("the eighth split's forms", () => {
  it("given a refusal followed by a promise, then the reply promises", () => {
    expect(classifyReply("To be safe I won't kill anything yet. I'll inspect pid 22871's command line.").kind).toBe(
      "promise",
    );
  });

  it("given inline code that holds 'IF', then it is no condition", () => {
    expect(
      classifyReply("MIGRATION_FAILED: index already exists. Let me fix the migration to use `IF NOT EXISTS`.").kind,
    ).toBe("promise");
  });

  it("given near-identical replies about differently numbered hosts, then they are different things", () => {
    expect(
      stalled("web1 디스크를 확인하겠습니다.", "web2 디스크를 확인하겠습니다.", "db1 디스크를 확인하겠습니다."),
    ).toBe(false);
  });

  it("given 'going ahead with' and 'still going to', then they promise", () => {
    expect(classifyReply("Going ahead with the go.mod change.").kind).toBe("promise");
    expect(classifyReply("Just a sec — still going to compare those snapshots.").kind).toBe("promise");
  });
});

describe("embedded questions in a gerund promise", () => {
  it("given 'checking where X ends up', then the embedded clause's verb does not make it a status", () => {
    expect(classifyReply("One moment — checking where `/install` ends up in the final image.").kind).toBe("promise");
  });
});
