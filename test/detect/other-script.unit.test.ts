import { describe, expect, it } from "vitest";
import { classifyReply, isSimilarReply } from "../../src/detect/index.js";

describe("classifyReply: Japanese and Korean sentence endings", () => {
  it.each([
    ["型エラーを確認します。", "inspect"],
    ["もう一度テストを実行してみます。", "run"],
    ["벤치마크를 다시 돌려 볼게요.", "run"],
    ["UserService.kt 를 수정하겠습니다.", "fix"],
  ])("given the promise %j, then it is a promise to %s", (text, action) => {
    const c = classifyReply(text);
    expect(c.kind, c.reason).toBe("promise");
    expect(c.intents[0]?.action).toBe(action);
  });

  it.each([
    ["client.ts を確認しました。", "past"],
    ["쿼리를 확인했습니다.", "past"],
    ["인덱스를 추가하는 마이그레이션을 실행할까요?", "question"],
    ["はい、失敗したら出力を貼ってください。調べます。", "question"],
    ["まだ失敗するようなら原因を調べます。", "conditional"],
    ["PostgreSQL 15 를 씁니다.", "unknown-language"],
  ])("given %j, then it is %s", (text, kind) => expect(classifyReply(text).kind).toBe(kind));

  it("given the same promise in Japanese and English, then they are similar", () => {
    expect(isSimilarReply("client.ts の型エラーを見てみます。", "Let me check the type error in client.ts.")).toBe(
      true,
    );
    expect(isSimilarReply("型エラーを確認します。", "もう一度テストを実行してみます。")).toBe(false);
  });
});
