import { describe, expect, it } from "vitest";
import {
  advanceRun,
  detectStall,
  EMPTY_RUN,
  type PromiseRun,
  type RunEvent,
  readsAsPromise,
  STALL_RUN_LENGTH,
  STALL_WINDOW,
} from "../../src/detect/index.js";
import {
  advanceRunByRules,
  answersQuestion,
  answersWait,
  endsWithIntroducedList,
  rulesVeto,
  saysEnough,
} from "../../src/detect/promise-run.js";
import { classifyReply } from "../../src/detect/reply-classifier.js";
import {
  confirmThreshold,
  overruleThreshold,
  promiseProbability,
  promiseThreshold,
  samePromiseProbability,
} from "../../src/detect/stall-model.js";
import { ENGLISH_RECAPS } from "./replies.js";

let seq = 0;
function reply(text: string, options: { toolCalls?: number; stopReason?: string; id?: string } = {}): RunEvent {
  seq++;
  return {
    type: "assistant",
    entryId: options.id ?? `a${seq}`,
    text,
    toolCalls: options.toolCalls ?? 0,
    stopReason: options.stopReason ?? (options.toolCalls ? "toolUse" : "stop"),
  };
}
const promise = (id: string) => reply("Let me check the compiler errors.", { id });
const TOOL_RESULT: RunEvent = { type: "toolResult" };
const USER: RunEvent = { type: "user" };
const HOST: RunEvent = { type: "host" };
const ANCHOR: RunEvent = { type: "anchor" };

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function given(...events: RunEvent[]) {
  const before = deepFreeze(events.reduce(advanceRun, EMPTY_RUN));
  return {
    when(...more: RunEvent[]) {
      const after = more.map(deepFreeze).reduce(advanceRun, before);
      return {
        thenStalled(ids: string[]) {
          expect(after.stalled).toBe(true);
          expect(after.promiseEntryIds).toEqual(ids);
          expect(detectStall([...events, ...more]).stalled).toBe(true);
        },
        thenNotStalled(ids: string[] = []) {
          expect(after.stalled).toBe(false);
          expect(after.promiseEntryIds).toEqual(ids);
          expect(detectStall([...events, ...more]).stalled).toBe(false);
        },
        thenUnchanged() {
          expect(after).toBe(before);
        },
      };
    },
  };
}

describe("advanceRun / detectStall", () => {
  it(`given ${STALL_RUN_LENGTH - 1} similar promises, when a third arrives, then the run stalls`, () => {
    given(promise("p1"), promise("p2"))
      .when(reply("I'll look at the compiler errors again.", { id: "p3" }))
      .thenStalled(["p1", "p2", "p3"]);
  });

  it("given two promises, when nothing else happens, then there is no stall yet", () => {
    given(promise("p1")).when(promise("p2")).thenNotStalled(["p1", "p2"]);
  });

  it("given a Chinese loop, when the third similar promise arrives, then the run stalls", () => {
    given(reply("我来检查一下编译错误。", { id: "z1" }), reply("让我先看一下编译错误。", { id: "z2" }))
      .when(reply("我来检查编译错误。", { id: "z3" }))
      .thenStalled(["z1", "z2", "z3"]);
  });

  describe("resets", () => {
    it("given two promises, when a reply makes a tool call, then the run resets", () => {
      given(promise("p1"), promise("p2"))
        .when(reply("Let me check.", { toolCalls: 1 }), promise("p3"))
        .thenNotStalled();
    });

    it("given two promises, when a tool result arrives, then the run resets", () => {
      given(promise("p1"), promise("p2")).when(TOOL_RESULT, promise("p3")).thenNotStalled();
    });

    it("given two promises, when a recovery anchor arrives, then counting starts again after it", () => {
      given(promise("p1"), promise("p2")).when(ANCHOR, promise("p3"), promise("p4")).thenNotStalled(["p3", "p4"]);
      given(promise("p1"), promise("p2"), ANCHOR)
        .when(promise("p3"), promise("p4"), promise("p5"))
        .thenStalled(["p3", "p4", "p5"]);
    });

    it("given a stalled run, when a tool result arrives, then the stall is cleared", () => {
      given(promise("p1"), promise("p2"), promise("p3")).when(TOOL_RESULT).thenNotStalled();
    });
  });

  describe("pass-through events", () => {
    it("given two promises, when user and host messages come between, then the third still stalls", () => {
      given(promise("p1"), USER, promise("p2"), HOST).when(USER, promise("p3")).thenStalled(["p1", "p2", "p3"]);
    });

    it.each(["error", "aborted", "length"])(
      "given two promises, when a %s reply arrives, then it neither counts nor resets",
      (stopReason) => {
        given(promise("p1"), promise("p2"))
          .when(reply("Let me check the compiler errors.", { stopReason }))
          .thenUnchanged();
        given(promise("p1"), promise("p2"))
          .when(reply("", { stopReason, toolCalls: 1 }))
          .thenUnchanged();
      },
    );

    it("given any run, when a user or host message arrives, then the same object comes back", () => {
      given(promise("p1")).when(USER).thenUnchanged();
      given(promise("p1")).when(HOST).thenUnchanged();
      given().when(TOOL_RESULT, ANCHOR).thenUnchanged();
    });
  });

  describe("exclusions", () => {
    it.each([
      ["a factual answer repeated word for word", "The build has 3 errors in src/app.ts."],
      ["a deliverable", "Fix:\n```ts\nimport { x } from './x.js';\n```"],
      ["a question", "Should I look at the compiler errors or the scenarios?"],
      ["a refusal", "I can't help with files outside the project."],
      ["a blocker code", "BLOCKED: models/ is excluded; let me check the compiler errors."],
      ["an upper-snake blocker", "STALLED_NO_TOOL_PROGRESS"],
    ])("given %s three times, then there is no stall", (_name, text) => {
      given(reply(text, { id: "x1" }), reply(text, { id: "x2" }))
        .when(reply(text, { id: "x3" }))
        .thenNotStalled();
    });
  });

  describe("similarity and the window", () => {
    it("given two promises, when a dissimilar promise arrives, then it does not join them", () => {
      const byRules = [promise("p1"), promise("p2"), reply("Let me run the unit tests.", { id: "q1" })].reduce(
        advanceRunByRules,
        EMPTY_RUN,
      );
      expect(byRules.stalled).toBe(false);
      expect(byRules.promiseEntryIds).toEqual(["p1", "p2"]);
      const more = [
        reply("I'll run the unit tests now.", { id: "q2" }),
        reply("Running the unit tests.", { id: "q3" }),
      ];
      const after = more.reduce(advanceRunByRules, byRules);
      expect(after.stalled).toBe(true);
      expect(after.promiseEntryIds).toEqual(["q1", "q2", "q3"]);
    });

    it("given promises in different words and languages about one action on one object, then they stall", () => {
      given(
        reply("I'm going to go ahead and take a closer look at the compiler errors.", { id: "v1" }),
        reply("我看看编译错误。", { id: "v2" }),
      )
        .when(reply("讓我再檢查一次編譯錯誤", { id: "v3" }))
        .thenStalled(["v1", "v2", "v3"]);
    });

    it("given a run, when a promise similar to an earlier member (not the latest) arrives, then it joins", () => {
      given(
        reply("Let me check the compiler errors.", { id: "p1" }),
        reply("I'll check the compiler errors in app.ts again.", { id: "p2" }),
      )
        .when(reply("Let me look at the compiler errors.", { id: "p3" }))
        .thenStalled(["p1", "p2", "p3"]);
    });

    it("given non-promise replies between promises, then they do not reset but use up the window", () => {
      const filler = (n: number) => Array.from({ length: n }, (_, i) => reply(`The answer is ${i}.`));
      given(promise("p1"), ...filler(STALL_WINDOW - 3), promise("p2"))
        .when(promise("p3"))
        .thenStalled(["p1", "p2", "p3"]);
      given(promise("p1"), ...filler(STALL_WINDOW - 2), promise("p2"))
        .when(promise("p3"))
        .thenNotStalled(["p2", "p3"]);
    });

    it("given a run that outgrows the window, when more non-promise replies arrive, then it is dropped", () => {
      const filler = Array.from({ length: STALL_WINDOW }, (_, i) => reply(`Fact ${i}.`));
      given(promise("p1"))
        .when(...filler)
        .thenNotStalled();
    });

    it("given a stalled run, when a dissimilar promise or a factual reply arrives, then it stays stalled", () => {
      given(promise("p1"), promise("p2"), promise("p3"))
        .when(reply("Let me run the tests.", { id: "q1" }))
        .thenStalled(["p1", "p2", "p3"]);
      given(promise("p1"), promise("p2"), promise("p3"))
        .when(reply("Still checking the compiler errors.", { id: "p4" }))
        .thenStalled(["p1", "p2", "p3", "p4"]);
      given(promise("p1"), promise("p2"), promise("p3"))
        .when(reply("The build has errors."))
        .thenStalled(["p1", "p2", "p3"]);
    });
  });

  it("given a stall, then detectStall names the promises and gives a reason", () => {
    const verdict = detectStall([promise("p1"), promise("p2"), promise("p3")]);
    expect(verdict).toMatchObject({ stalled: true, promiseEntryIds: ["p1", "p2", "p3"] });
    expect(verdict.reason).toMatch(/3 action-promise replies about the same action/);
    expect(detectStall([]).reason).toMatch(/no open/);
  });

  it("given the empty run, then it is frozen and unchanged by resets", () => {
    const run: PromiseRun = EMPTY_RUN;
    expect(Object.isFrozen(run)).toBe(true);
    expect(advanceRun(run, TOOL_RESULT)).toBe(run);
    expect(advanceRun(run, ANCHOR)).toBe(run);
    expect(advanceRun(run, reply("x", { toolCalls: 2 }))).toBe(run);
  });
});

describe("the trained models beside the rules", () => {
  /** Replies answering "continue" after a request, as a path of events; the run at its end. */
  function runOf(texts: readonly string[], nudge: string): PromiseRun {
    const events: RunEvent[] = [{ type: "user", text: "Fix the production build, please." }];
    texts.forEach((text, i) => {
      if (i > 0) events.push({ type: "user", text: nudge });
      events.push(reply(text, { id: `r${i + 1}` }));
    });
    return events.reduce(advanceRun, EMPTY_RUN);
  }

  // In a language the rules do not read, their "deliverable" is the reply's shape; in Japanese and Korean their past
  // reading takes any sentence's past ending: neither vetoes the models.
  it.each([
    {
      what: "Spanish recaps closing on a promise",
      nudge: "sigue",
      texts: [
        "Resumen de lo que vi en el log:\n\n- el fallo aparece al compilar `src/env.ts`\n- la variable `VITE_API_URL` llega vacía\n\nAhora reviso la configuración de Vite para ver de dónde sale.",
        "Vale. Lo que sabemos hasta ahora:\n\n- `VITE_API_URL` está vacía en producción\n- en local sí tiene valor\n\nVoy a revisar `vite.config.ts` para entender por qué pasa.",
        "Entendido, sigo con eso:\n\n- el problema sigue siendo `VITE_API_URL`\n- hay que mirar cómo se carga el entorno\n\nReviso ahora mismo la configuración de Vite.",
      ],
    },
    {
      what: "Japanese reports in the past closing on a next step",
      nudge: "続けて",
      texts: [
        "原因の候補は 2 つに絞れました。\n\n次: `vite.config.ts` の env 設定の確認",
        "ローカルでは値が入っていました。\n\n## 次\n\n`vite.config.ts` の env 設定の確認",
        "本番だけ空になっていました。\n\n**次:** `vite.config.ts` の env 設定の確認",
      ],
    },
  ])("given $what, then the models' reader stalls where the rules' does not", ({ texts, nudge }) => {
    const run = runOf(texts, nudge);
    expect(run.readers.rules.stalled).toBe(false);
    expect(run.readers.models.stalled).toBe(true);
    expect(run.promiseEntryIds).toEqual(["r1", "r2", "r3"]);
  });

  it("given questions the user asks, when each reply answers and then defers to the same next step, then no stall", () => {
    const next = " Als Nächstes schaue ich mir den flakigen Retry-Test an.";
    const exchanges: [string, string][] = [
      [
        "Warum gehen im Fan-out Nachrichten verloren?",
        `Der Writer hängt nach Unlock() noch an den Slice an, während ein Leser über das alte Array iteriert; deshalb fehlen einzelne Elemente.${next}`,
      ],
      [
        "Und wie teuer wäre eine Kopie pro Empfänger?",
        `Etwa 40 ns pro Nachricht bei der üblichen Größe, das liegt deutlich im Budget, das du genannt hast.${next}`,
      ],
      [
        "Betrifft das auch den Replay-Pfad?",
        `Nein, der Replay-Pfad liest aus einem eigenen Puffer und hält die Sperre die ganze Zeit.${next}`,
      ],
    ];
    const events = exchanges.flatMap(([user, text], i): RunEvent[] => [
      { type: "user", text: user },
      reply(text, { id: `r${i + 1}` }),
    ]);
    expect(events.reduce(advanceRun, EMPTY_RUN).stalled).toBe(false);
  });

  it("given the user's questions, when the rules read each answer's closing deferral as a promise, then the promise model's reading of the question decides", () => {
    const exchanges: [string, string][] = [
      [
        "Why didn't the tests catch it earlier?",
        "`ListingTest#test_slug_is_unique_per_seller` was added recently and wasn't part of the required checks, so the failure didn't block the merge. I'll search the codebase for that identifier now.",
      ],
      [
        "Remind me of the error?",
        "`ActiveRecord::RecordInvalid: Validation failed: Slug has already been taken`, raised while running `bin/rails test test/models/listing_test.rb`. I'll find every usage of `set_slug` now.",
      ],
      [
        "Should we revert the last merge?",
        "A revert would hide the symptom but not fix `app/models/listing.rb`; I'd rather keep the merge and fix the code. I'll track down where `set_slug` is used now.",
      ],
    ];
    const events = exchanges.flatMap(([user, text], i): RunEvent[] => [
      { type: "user", text: user },
      reply(text, { id: `q${i + 1}` }),
    ]);
    // The rules alone read three promises of one action; answers to questions, they count none of them.
    expect(events.reduce(advanceRunByRules, EMPTY_RUN).stalled).toBe(true);
    for (const [user, text] of exchanges) expect(readsAsPromise({ text, user }).rules).toBe(false);
    expect(events.reduce(advanceRun, EMPTY_RUN).stalled).toBe(false);
  });

  it("given two promises, when the user asks a question between them and the reply answers it, then the answer ends both readers' runs", () => {
    const events: RunEvent[] = [
      { type: "user", text: "The importer slows down after an hour. Look at worker/pool.py." },
      reply("I'll check `worker/pool.py` for leaked connections.", { id: "p1" }),
      { type: "user", text: "ok" },
      reply("Let me check `worker/pool.py` for leaked connections.", { id: "p2" }),
      { type: "user", text: "hold on, how big is the pool by default?" },
      reply(
        "Ten connections, set in `settings.py`, and the importer opens one per batch. I'll check `worker/pool.py` for leaked connections next.",
        { id: "p3" },
      ),
      { type: "user", text: "go" },
      reply("Checking `worker/pool.py` for leaked connections now.", { id: "p4" }),
    ];
    const run = events.reduce(advanceRun, EMPTY_RUN);
    expect(run.readers.rules.stalled).toBe(false);
    expect(run.readers.models.stalled).toBe(false);
    // The rules alone, which do not read the question, see one loop of four.
    expect(events.reduce(advanceRunByRules, EMPTY_RUN).promiseEntryIds).toEqual(["p1", "p2", "p3", "p4"]);
  });

  it("given the user's question, when the reply is one sentence of promise, then it answers nothing and counts", () => {
    const text = "Let me check the gateway logs for the failed delivery.";
    const user = "Why did the message not arrive at the customer?";
    expect(readsAsPromise({ text, user }).rules).toBe(true);
    const answered = `The gateway timed out after 30 s. ${text}`;
    expect(readsAsPromise({ text: answered, user }).rules).toBe(false);
  });

  it("given an impatient question between promises, when the promise model reads the reply as a promise, then it counts", () => {
    const events: RunEvent[] = [
      { type: "user", text: "Get ruff clean on the repo." },
      reply("I'll run ruff across the repo.", { id: "n1" }),
      { type: "user", text: "run it then" },
      reply("Running ruff on the project now.", { id: "n2" }),
      { type: "user", text: "why do you keep saying that without running anything??" },
      reply("You're right, I'm sorry. I'll run `ruff check .` right away.", { id: "n3" }),
    ];
    const run = events.reduce(advanceRun, EMPTY_RUN);
    expect(run.stalled).toBe(true);
    expect(run.promiseEntryIds).toEqual(["n1", "n2", "n3"]);
  });

  it("given the same shape in English, which the rules read, then what they call a deliverable stands unless the promise model overrules it", () => {
    const english = ENGLISH_RECAPS;
    for (const text of english) expect(classifyReply(text).kind).toBe("deliverable");
    const run = runOf(english, "continue");
    expect(run.readers.rules.stalled).toBe(false);
    const overruled = english.every((text) => promiseProbability(text, "continue") >= overruleThreshold());
    expect(run.readers.models.stalled).toBe(overruled);
  });

  it("given replies that close by asking the user, then the models do not read them as promises", () => {
    const asking = [
      "Reviso `vite.config.ts` y la carga del entorno. ¿Quieres que lo haga ahora?",
      "Puedo revisar `vite.config.ts` para ver de dónde sale `VITE_API_URL`. **¿Sigo con eso?**",
      "Lo siguiente sería revisar `vite.config.ts`. ¿Prefieres que lo mire yo o lo miras tú?",
    ];
    for (const text of asking) expect(readsAsPromise({ text, user: "sigue" }).models).toBe(false);
    expect(runOf(asking, "sigue").stalled).toBe(false);
  });

  it.each([
    {
      lang: "Spanish",
      nudge: "vale",
      texts: [
        "Primero saco el plan de la consulta de pedidos con `EXPLAIN ANALYZE`, ¿vale?",
        "Lanzo el `EXPLAIN ANALYZE` de la consulta de pedidos, ¿ok?",
        "Saco ahora el plan de la consulta de pedidos con `EXPLAIN ANALYZE`, ¿te parece?",
      ],
    },
    {
      lang: "German",
      nudge: "ja",
      texts: [
        "Ich schaue mir zuerst die `docker-compose.yml` an, oder?",
        "Dann prüfe ich jetzt die `docker-compose.yml`, okay?",
        "Ich gehe die `docker-compose.yml` jetzt durch, passt das?",
      ],
    },
  ])(
    "given $lang promises closed by a tag question and answered by nudges, then the models stall",
    ({ texts, nudge }) => {
      const run = runOf(texts, nudge);
      expect(run.readers.models.stalled).toBe(true);
      expect(run.promiseEntryIds).toEqual(["r1", "r2", "r3"]);
    },
  );

  it("given a run of promises only the rules read and ones only the model reads, then the models' reader holds all three", () => {
    const texts = [
      "I need to check how errors are surfaced in the CLI.",
      "Next up: the error handling in `cli/main.py` will be reviewed.",
      "Let me look into how errors are surfaced in the CLI.",
    ];
    // Neither reading alone holds three: the model's probability of the first and last is under its threshold (but
    // not under the one at which it denies the rules' promise), and the rules read the second as a statement.
    const [first, second, third] = texts.map((text) => ({
      model: promiseProbability(text),
      rules: classifyReply(text).kind,
    }));
    expect([first?.model, third?.model].every((p) => p !== undefined && p < promiseThreshold())).toBe(true);
    expect([first?.model, third?.model].every((p) => p !== undefined && p >= (confirmThreshold() ?? 0))).toBe(true);
    expect([first?.rules, second?.rules, third?.rules]).toEqual(["promise", "factual", "promise"]);
    const run = runOf(texts, "go on");
    expect(run.readers.rules.stalled).toBe(false);
    expect(run.readers.models.stalled).toBe(true);
    expect(run.promiseEntryIds).toEqual(["r1", "r2", "r3"]);
  });

  it("given a progress report that goes on with the step, then the rules' status reading does not veto the models", () => {
    const text = "Going through `nginx.conf` now, the upstream block is the part I still need to read.";
    expect(classifyReply(text).kind).toBe("status");
    expect(promiseProbability(text)).toBeGreaterThanOrEqual(promiseThreshold());
    expect(readsAsPromise({ text, user: "continue" }).models).toBe(true);
  });

  it.each([
    ["为什么本地不会卡住？", true],
    ["ctx 是从哪里传进来的？", true],
    ["왜 로컬에서는 안 멈춰요?", true],
    ["why does CI hang here?", true],
    ["继续？", false],
    ["好了吗？", false],
    ["まだですか？", false],
    ["and?", false],
  ])("given the user wrote %j, then a reply answers a question: %s", (user, question) => {
    expect(answersQuestion({ user })).toBe(question);
  });

  it("given a passive promise the rules read as a statement and the promise model reads at the overrule threshold, then it counts", () => {
    const text = "`nginx.conf` 的 upstream 設定接下來會被檢查。";
    expect(classifyReply(text)).toMatchObject({ kind: "factual", readable: true });
    expect(promiseProbability(text)).toBeGreaterThanOrEqual(overruleThreshold());
    expect(rulesVeto(text, overruleThreshold() - 0.01)).toBe(true);
    expect(readsAsPromise({ text, user: "繼續" }).models).toBe(true);
  });

  it("given a checklist opener the rules read as a deliverable, then the promise model's reading stands alone", () => {
    const text =
      "Found it, the pool is exhausted. Before changing anything, here is my plan:\n- re-read `db/pool.ts`\n- compare `max` with the load test\n- look at `acquire` retries";
    const probability = promiseProbability(text, "continue");
    expect(classifyReply(text)).toMatchObject({ kind: "deliverable", readable: true });
    expect(probability).toBeGreaterThanOrEqual(promiseThreshold());
    expect(probability).toBeLessThan(overruleThreshold());
    expect(rulesVeto(text, probability)).toBe(false);
    expect(readsAsPromise({ text, user: "continue" }).models).toBe(true);
    // The same findings handed over in prose keep the rules' reading.
    const prose =
      "Found it, the pool is exhausted. Here is my plan: re-read `db/pool.ts` and compare `max` with the load test.";
    expect(endsWithIntroducedList(prose)).toBe(false);
  });

  it.each([
    ["Things to check:\n- `max`\n- the idle timeout", true],
    ["我先检查这几项：\n1. `max`\n2. 空闲超时", true],
    ["**Next:**\n\n* re-read `db/pool.ts`", true],
    ["Checked:\n- `max` is 10\n\nAll fine.", false],
    ["- `max` is 10\n- the idle timeout is 30 s", false],
    ["The list:\n```\n- a\n```", false],
    ["Timings so far:\n1.5 s on a warm cache", false],
    ["Checked the sizes:\ne.g. the bundle is 2 MB", false],
  ])("given %j, then it ends with a list it introduces: %s", (text, introduced) => {
    expect(endsWithIntroducedList(text)).toBe(introduced);
  });

  describe("given three promises about one setup that the pair model does not join", () => {
    const texts = [
      "Reviso la sección `compilerOptions`.",
      "Reviso `moduleResolution` y `paths` en la configuración.",
      "Reviso el `package.json` del workspace.",
    ];
    const run = (nudges: string[]) =>
      texts.flatMap((text, i): RunEvent[] => [
        ...(i > 0 ? [{ type: "user", text: nudges[i - 1] } as RunEvent] : []),
        reply(text, { id: `w${i}` }),
      ]);

    it("when the user asks only whether anything is happening between them, then they are one stall", () => {
      for (const [a, b] of [
        [0, 1],
        [1, 2],
        [0, 2],
      ] as const) {
        expect(samePromiseProbability(texts[a] as string, texts[b] as string)).toBeLessThan(0.1);
      }
      given()
        .when(...run(["¿?", "?"]))
        .thenStalled(["w0", "w1", "w2"]);
    });

    it("when the user acknowledges each one, then they stay different steps", () => {
      given()
        .when(...run(["vale", "sigue"]))
        .thenNotStalled([]);
    });
  });

  it.each([
    ["?", true],
    ["¿y?", true],
    ["好了吗？", true],
    ["continue", false],
    ["Why does the build read the prod config at all?", false],
    [null, false],
  ])("given the user wrote %j, then a reply answers a wait: %s", (user, wait) => {
    expect(answersWait({ user })).toBe(wait);
  });

  it("given a question inside a reply that goes on to promise, then the promise still counts", () => {
    const text = "日志里为什么是空的？我现在去检查 `vite.config.ts` 的环境变量配置。";
    expect(readsAsPromise({ text, user: "继续" }).models).toBe(true);
  });

  it("given replies too short to tell their language, then they are read as English", () => {
    const headings = [
      "### Removed\n- Legacy v1 API",
      "### Security\n- Upgrade jsonwebtoken to 9.0.2",
      "### Deprecated\n- `/v2/report` endpoint",
    ];
    expect(runOf(headings, "next").stalled).toBe(false);
  });

  it.each([
    "One sec.",
    "Un momento.",
    "Une seconde.",
    "Still here.",
    "Un segundo.",
    "Vâng.",
    "稍等。",
    "お待ちを。",
    "   ",
  ])("given the filler %j, then it says too little to be a promise the models join", (text) => {
    expect(saysEnough(text)).toBe(false);
  });

  it.each([
    "Xem digest.log.",
    "Checking `vite.config.ts`.",
    "Going to look at the Playwright trace.",
    "我去检查一下构建配置。",
    "로그를 다시 확인하겠습니다 지금.",
  ])("given the promise %j, then it says enough: three words, six CJK characters or a named object", (text) => {
    expect(saysEnough(text)).toBe(true);
  });

  it("given a loop whose promises are spread over seven replies by fillers the promise model reads as promises, then no stall", () => {
    const texts = [
      "Je vais regarder la config `.stylelintrc`.",
      "Un instant.",
      "Pardon.",
      "Me revoilà.",
      "Une seconde.",
      "Je regarde `.stylelintrc`.",
      "J'ouvre la config Stylelint.",
    ];
    const run = runOf(texts, "et ?");
    expect(run.readers.models.stalled).toBe(false);
    const without = runOf([texts[0] as string, texts[5] as string, texts[6] as string], "et ?");
    expect(without.readers.models.stalled).toBe(true);
  });

  describe("a reply longer than a filler that promises nothing ends the run", () => {
    const loop = [
      "I'll check the compose file for the port mapping.",
      "Checking the compose file for the port mapping now.",
      "Let me check the compose file's port mapping.",
    ];
    const answer =
      "The API listens on 8080 inside the container, but the compose file maps host port 3000 to container port 80, so nothing reaches it.";
    const blocker = "Blocked: the registry rejects my pull of the base image (403), so I cannot start the stack here.";

    it.each([
      { after: "an answer", text: answer },
      { after: "a blocker report", text: blocker },
    ])("given a stall, when $after follows, then the run no longer reaches the leaf", ({ text }) => {
      expect(runOf(loop, "continue").stalled).toBe(true);
      const run = runOf([...loop, text], "continue");
      expect(run.stalled).toBe(false);
      expect(run.readers.rules.stalled).toBe(false);
      expect(run.readers.models.stalled).toBe(false);
    });

    it("given the same report between promises, then the promises after it start a new run", () => {
      const [first, second, third] = loop as [string, string, string];
      expect(runOf([first, second, answer, third], "continue").stalled).toBe(false);
    });

    it("given a filler between promises, then the run goes on", () => {
      const [first, second, third] = loop as [string, string, string];
      const run = runOf([first, second, "Sorry about that, one moment.", third], "continue");
      expect(run.stalled).toBe(true);
      expect(run.promiseEntryIds).toEqual(["r1", "r2", "r4"]);
    });

    it("given a Chinese report of 45 characters, then it counts as long as an English one of 90", () => {
      const zh = "编译失败的原因已经找到：`tsconfig.json` 里的 paths 配置指向了旧的 src 目录，所以模块解析不到。";
      expect([...zh].length).toBeLessThan(80);
      const run = runOf([...loop, zh], "continue");
      expect(run.stalled).toBe(false);
    });
  });

  describe("Chinese and Japanese sentences end at their full stop", () => {
    const deferral = "下一步我会看那个不稳定的重试测试。";
    const asked = (pairs: [string, string][]) =>
      pairs.flatMap(([user, text], i): RunEvent[] => [{ type: "user", text: user }, reply(text, { id: `q${i + 1}` })]);

    it("given three questions, when each answer closes on the same deferral with no space after its full stop, then no stall", () => {
      const events = asked([
        [
          "为什么 `pool.go` 会在高并发下死锁？",
          `因为切片在 \`Unlock()\` 之后还在共享底层数组，两个 goroutine 同时写入。${deferral}`,
        ],
        [
          "CI 为什么一直没有发现这个问题呢？",
          `CI 里 pool 包的测试没有开 \`-race\`，所以这个写冲突不会被报告出来。${deferral}`,
        ],
        ["这个修复会影响现有的调用方吗？", `不会，\`Get()\` 的签名不变，只是内部改成先拷贝再返回给调用方。${deferral}`],
      ]);
      expect(events.reduce(advanceRun, EMPTY_RUN).stalled).toBe(false);
    });

    it("given an impatient question, when the reply only apologises before its promise, then the promise counts", () => {
      const events: RunEvent[] = [
        { type: "user", text: "GitLab CI 的 build stage 一直卡住。" },
        reply("我來查一下 docker-large 這個 runner 的狀態。", { id: "z1" }),
        { type: "user", text: "繼續" },
        reply("好的，我去確認 docker-large runner 是否在線。", { id: "z2" }),
        { type: "user", text: "你到底有沒有在做這件事情啊？" },
        reply("抱歉！我現在就查 docker-large runner 的狀態。", { id: "z3" }),
      ];
      const run = events.reduce(advanceRun, EMPTY_RUN);
      expect(run.stalled).toBe(true);
      expect(run.promiseEntryIds).toEqual(["z1", "z2", "z3"]);
    });
  });
});
