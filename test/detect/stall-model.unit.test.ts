import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isStalled } from "../../reducers/recovery.js";
import { explainPath } from "../../src/detect/explain.js";
import { EMPTY_RUN, type RunEvent } from "../../src/detect/index.js";
import { objectsOf, PAIR_FEATURE_NAMES, pairFeatures, pairSide } from "../../src/detect/pair-features.js";
import { advanceRun, handsTurnBack, modelDenies, readsAsPromise, rulesVeto } from "../../src/detect/promise-run.js";
import { classifyReply } from "../../src/detect/reply-classifier.js";
import {
  closingOf,
  FEATURE_BITS,
  foldText,
  leadWidth,
  replyFeatures,
  textWidth,
} from "../../src/detect/reply-features.js";
import {
  confirmThreshold,
  endsTurn,
  isModelPromise,
  promiseProbability,
  promiseThreshold,
  type StallModel,
  samePromiseProbability,
  turnProbability,
  useStallModel,
} from "../../src/detect/stall-model.js";
import { given } from "../helpers/given.js";
import { ENGLISH_RECAPS, reply, USER } from "./replies.js";

const SHIPPED = join(import.meta.dirname, "../../src/detect/model/stall-model.json");
const shipped = (): StallModel => JSON.parse(readFileSync(SHIPPED, "utf8")) as StallModel;
const events = (...texts: string[]): RunEvent[] => texts.flatMap((t) => [USER, reply(t)]);

const GERMAN_RUN = [
  "Ich prüfe jetzt die Datei `src/cache/key.ts`.",
  "Sekunde, ich schaue mir die Datei `src/cache/key.ts` gleich genauer durch.",
  "Bin dran – ich lese die Datei `src/cache/key.ts` als Nächstes.",
];

afterEach(() => useStallModel(shipped()));

describe("reply features", () => {
  it("end a Chinese or Japanese sentence at its full stop, with or without a space after it", () => {
    const cause = "因为切片在 `Unlock()` 之后还在共享底层数组，所以会卡住。";
    expect(leadWidth(`${cause}下一步我会看那个不稳定的重试测试。`)).toBe(textWidth(cause));
    expect(leadWidth("設定を確認しました。次に `vite.config.ts` を読みます。")).toBe(textWidth("設定を確認しました。"));
    expect(leadWidth("Checked the config. Next I'll read `vite.config.ts`.")).toBe("Checked the config.".length);
    expect(leadWidth("版本是 1.2.3，没有问题")).toBe(0);
  });

  it("fold NFKC, case, digits and code, and keep the closing sentences", () => {
    expect(foldText("Ｒｕｎ `npm test` 42 times\n```bash\nls\n```")).toBe("run ⟦id⟧ 0 times\n ⟦code⟧");
    const long = `${"the first sentence is long and tells what was found in the logs. ".repeat(8)}i will read the log now.`;
    expect(closingOf(long)).toContain("i will read the log now.");
    expect(closingOf(long).length).toBeLessThan(long.length / 2);
  });

  it("are sparse slots below 2^bits, each block at its weight's length, and the same for the same text", () => {
    const a = replyFeatures("Ich prüfe jetzt `src/cache/key.ts`.");
    const squared = (f: { values: number[] }) => f.values.reduce((sum, v) => sum + v * v, 0);
    expect(a.slots.every((s) => s >= 0 && s < 2 ** FEATURE_BITS)).toBe(true);
    // Closing 1, last sentence 1, the reply's end 0.5, indicators 0.5; the user's message 0.5 more.
    expect(squared(a)).toBeCloseTo(2.5, 6);
    expect(squared(replyFeatures("Ich prüfe jetzt `src/cache/key.ts`.", "weiter?"))).toBeCloseTo(2.75, 6);
    // A long reply's n-grams do not drown its closing ones: the closing and last-sentence blocks keep their length.
    const long = replyFeatures(
      `${"Die Konfiguration wurde gelesen und verglichen. ".repeat(40)}Ich prüfe jetzt \`src/cache/key.ts\`.`,
    );
    expect(squared(long)).toBeCloseTo(2.5, 1);
    expect(replyFeatures("Ich prüfe jetzt `src/cache/key.ts`.")).toEqual(a);
    expect(replyFeatures("Ich prüfe jetzt `src/other.ts`.")).toEqual(a);
    expect(replyFeatures("Ich habe `src/cache/key.ts` geprüft.")).not.toEqual(a);
  });

  it("read the last code block: a shell's or not, where it stands, its command, its lines, what comes before it", () => {
    const shapes = (text: string) => {
      const names = new Map<number, string>();
      replyFeatures(text, null, names);
      return [...names.values()].filter((name) => name.startsWith("shape code"));
    };
    expect(shapes("Ich frage den Lag auf der Replica ab:\n```bash\n$ psql -h replica -c 'select 1'\n```")).toEqual([
      "shape code:last",
      "shape codelang:shell",
      "shape codelang:shell|end",
      "shape codecmd:psql",
      "shape codelines:1",
      "shape code-before::|shell",
    ]);
    expect(
      shapes(
        "The fix:\n```ts\nconst a = 1;\nconst c = 3;\nconst b = 2;\nexport { a, b };\nlog(a);\n```\nThat closes the leak.",
      ),
    ).toEqual([
      "shape code",
      "shape codelang:other",
      "shape codelang:other|mid",
      "shape codecmd:const",
      "shape codelines:many",
      "shape code-before::|other",
    ]);
    expect(shapes("Running it.\n```\nnpm test\nnpm run lint\n```")).toContain("shape code-before:.|none");
    expect(shapes("No code here.")).toEqual([]);
  });
});

describe("pair features", () => {
  it("name the objects a reply mentions and tell shared objects from disjoint ones", () => {
    expect([...objectsOf("Ich lese `src/cache/key.ts` und parse_config, dann v2Handler.")].sort()).toEqual([
      "parse_config",
      "src/cache/key.ts",
      "v2handler",
    ]);
    const [a, b, c] = ["Ich prüfe `src/a.ts`.", "Ich schaue mir `src/a.ts` an.", "Ich prüfe `src/b.ts`."].map(pairSide);
    const shared = pairFeatures(a as never, b as never);
    const disjoint = pairFeatures(a as never, c as never);
    const at = (name: (typeof PAIR_FEATURE_NAMES)[number]) => PAIR_FEATURE_NAMES.indexOf(name);
    expect(shared[at("objects-shared")]).toBe(1);
    expect(shared[at("objects-disjoint")]).toBe(0);
    expect(disjoint[at("objects-disjoint")]).toBe(1);
    expect(disjoint[at("closing-trigrams")]).toBeGreaterThan(shared[at("closing-trigrams")] as number);
  });

  it("see an object renamed in prose by the words of its name", () => {
    const at = PAIR_FEATURE_NAMES.indexOf("object-words-mentioned");
    const file = pairSide("Vou olhar o `src/vite.config.ts` agora.");
    const prose = pairSide("Vou conferir o `build.rollupOptions` na config do Vite.");
    const other = pairSide("Vou conferir o `tsconfig.json` do projeto.");
    // vite and config: every word of the file's name is in the prose (its directory and extension do not count).
    expect(pairFeatures(file as never, prose as never)[at]).toBe(1);
    expect(pairFeatures(file as never, other as never)[at]).toBe(0);
    // Short stems name nothing: two files that differ only there share no word.
    expect(pairFeatures(pairSide("Reading `src/a.ts`.") as never, pairSide("Reading `src/b.ts`.") as never)[at]).toBe(
      0,
    );
  });
});

/** Thresholds at which the models read every reply as a promise and every pair as the same (no turn ends a run). */
function readsEverything(): StallModel {
  const model = shipped();
  return {
    ...model,
    threshold: 0,
    pair: { ...model.pair, threshold: 0 },
    ...(model.turn ? { turn: { ...model.turn, threshold: 1.01 } } : {}),
  };
}

describe("the trained stall model", () => {
  it("reads promises apart from reports in a language the rules do not read", () => {
    expect(promiseProbability("Ich prüfe jetzt `src/cache/key.ts`.")).toBeGreaterThan(
      promiseProbability("Ich habe `src/cache/key.ts` geprüft: der Schlüssel enthält die Version nicht."),
    );
    expect(promiseProbability("Je vais relancer `npm test` maintenant.")).toBeGreaterThan(0.5);
  });

  it("reads a shell command shown after a colon as a promise, more surely than another language's code there", () => {
    const lead = "Ich frage den Lag auf der Replica ab:";
    const shell = promiseProbability(`${lead}\n\`\`\`bash\npsql -h replica -c "select now()"\n\`\`\``, "weiter");
    const sql = promiseProbability(`${lead}\n\`\`\`sql\nselect now();\n\`\`\``, "weiter");
    expect(shell).toBeGreaterThanOrEqual(shipped().threshold);
    expect(shell).toBeGreaterThan(sql);
    const answer = "So sieht die Abfrage aus:\n```sql\nselect now();\n```\nDamit siehst du den Lag.";
    expect(promiseProbability(answer, "weiter")).toBeLessThan(0.5);
  });

  it("rejects a model built for other features", () => {
    expect(() => useStallModel({ ...shipped(), bits: FEATURE_BITS + 1 })).toThrow(/feature bits/);
    expect(() => useStallModel({ ...shipped(), pair: { ...shipped().pair, names: ["x"] } })).toThrow(/pair/);
  });

  it("overrules the rules' reading of a reply as no promise only at the model's overrule threshold", () => {
    const text = "`nginx.conf` 的 upstream 設定接下來會被檢查。";
    const probability = promiseProbability(text, "繼續");
    expect(probability).toBeGreaterThanOrEqual(shipped().threshold);
    useStallModel({ ...shipped(), overrule: probability });
    expect(rulesVeto(text, probability)).toBe(false);
    expect(readsAsPromise({ text, user: "繼續" }).models).toBe(true);
    useStallModel({ ...shipped(), overrule: 1.01 });
    expect(rulesVeto(text, probability)).toBe(true);
    expect(readsAsPromise({ text, user: "繼續" }).models).toBe(false);
  });

  it("decides a run in a language the rules do not read only where its thresholds let it", () => {
    // The shipped thresholds are the trainer's choice; below them the models join the German run.
    useStallModel({ ...shipped(), threshold: 0.3, pair: { ...shipped().pair, threshold: 0.3 } });
    expect(GERMAN_RUN.every((t) => isModelPromise(t))).toBe(true);
    expect(samePromiseProbability(GERMAN_RUN[0] as string, GERMAN_RUN[1] as string)).toBeGreaterThanOrEqual(0.3);
    expect(events(...GERMAN_RUN).reduce(advanceRun, EMPTY_RUN).stalled).toBe(true);
    useStallModel({ ...shipped(), threshold: 1.01 });
    expect(events(...GERMAN_RUN).reduce(advanceRun, EMPTY_RUN).stalled).toBe(false);
  });

  it("joins a reply read between the support and the reply threshold to two promises of its own, and not a fact", () => {
    const strong1 = "Controllo subito `internal/stream/fanout.go`.";
    const strong2 = "Ora apro `internal/stream/fanout.go` e lo controllo.";
    const weak = "Resta da guardare `fanout.go`.";
    const [p1, p2, p3] = [strong1, strong2, weak].map((t) => promiseProbability(t)) as [number, number, number];
    expect(p3).toBeLessThan(Math.min(p1, p2));
    // Thresholds around the weak reply's reading: the two strong replies are promises, the weak one is not.
    const threshold = (p3 + Math.min(p1, p2)) / 2;
    const pairs = [samePromiseProbability(strong1, weak), samePromiseProbability(strong2, weak)];
    const model = { ...shipped(), threshold, pair: { ...shipped().pair, threshold: Math.min(...pairs) } };
    const run = events(strong1, weak, strong2);
    useStallModel({ ...model, support: null });
    expect(run.reduce(advanceRun, EMPTY_RUN).stalled).toBe(false);
    useStallModel({ ...model, support: p3 });
    const supported = run.reduce(advanceRun, EMPTY_RUN);
    expect(supported.stalled).toBe(true);
    expect(supported.promiseEntryIds).toHaveLength(3);
    // The explanation names the join rather than calling the weak reply no promise.
    const weakStep = explainPath(run).steps.find((step) => step.excerpt.startsWith("Resta da guardare"));
    expect(weakStep).toMatchObject({ label: "supporting promise", inRun: true });
    expect(weakStep?.reason).toMatch(/support threshold .* joins them as their weaker wording/);
    // A statement of fact the rules read never joins, however low the thresholds.
    useStallModel({ ...model, support: 0, pair: { ...model.pair, threshold: 0 } });
    expect(events(strong1, "The build uses tsc 5.6.", strong2).reduce(advanceRun, EMPTY_RUN).stalled).toBe(false);
    expect(events(strong1, weak, strong2).reduce(advanceRun, EMPTY_RUN).stalled).toBe(true);
  });

  it("with the shipped thresholds, finds the German run and not the same replies broken by a tool result", () => {
    expect(events(...GERMAN_RUN).reduce(advanceRun, EMPTY_RUN).stalled).toBe(true);
    const broken: RunEvent[] = [
      ...events(...GERMAN_RUN.slice(0, 2)),
      { type: "toolResult" },
      ...events(GERMAN_RUN[2] as string),
    ];
    expect(broken.reduce(advanceRun, EMPTY_RUN).stalled).toBe(false);
  });

  it("ends the run where the user answered the agent's question, or the agent answered the user's", () => {
    const asked: RunEvent[] = [
      ...events(...GERMAN_RUN.slice(0, 2)),
      reply("Soll ich lieber den schnellen Fix nehmen oder die Datei sauber umbauen?"),
      { type: "user", text: "der schnelle Fix reicht völlig" },
      reply(GERMAN_RUN[2] as string),
    ];
    expect(asked.reduce(advanceRun, EMPTY_RUN).stalled).toBe(false);
    const answered: RunEvent[] = [
      ...events(...GERMAN_RUN.slice(0, 2)),
      { type: "user", text: "Wird die Funktion load() noch woanders aufgerufen?" },
      reply("Nein, sie wird nur beim Start aufgerufen, und der Cache wird danach nicht mehr gelesen."),
      ...events(GERMAN_RUN[2] as string),
    ];
    expect(answered.reduce(advanceRun, EMPTY_RUN).stalled).toBe(false);
    // A nudge is no question: the run goes on.
    const nudged: RunEvent[] = [
      ...events(...GERMAN_RUN.slice(0, 2)),
      { type: "user", text: "und?" },
      reply(GERMAN_RUN[2] as string),
    ];
    expect(nudged.reduce(advanceRun, EMPTY_RUN).stalled).toBe(true);
  });

  it("ends the run where the user answered a question asked before the reply's last sentence, whatever the turn model reads", () => {
    const turn = shipped().turn;
    if (!turn) throw new Error("the shipped model has a turn model");
    useStallModel({ ...shipped(), turn: { ...turn, threshold: 1.01 } });
    const around = (short: string): RunEvent[] => [
      ...events(GERMAN_RUN[0] as string),
      reply(short),
      { type: "user", text: "bis zu 4" },
      ...events(...GERMAN_RUN.slice(1)),
    ];
    const stalled = (short: string) => around(short).reduce(advanceRun, EMPTY_RUN).stalled;
    expect(stalled("Wie viele Worker parallel? Sag mir das Limit.")).toBe(false);
    expect(stalled("Sag mir das Limit: wie viele Worker parallel?")).toBe(false);
    // A short statement there asks nothing: the user's message is a nudge and the run goes on.
    expect(stalled("Vier Worker laufen parallel. Das Limit ist bekannt.")).toBe(true);
  });

  it("ends the run at a reply that hands the turn back, and only where the turn model's threshold lets it", () => {
    const handback = "Den Ordner `/var/backups` fasse ich nicht an; ich kläre das vorher mit dir.";
    const run: RunEvent[] = [...events(...GERMAN_RUN.slice(0, 2)), reply(handback), ...events(GERMAN_RUN[2] as string)];
    const turn = shipped().turn;
    expect(turn).toBeDefined();
    if (!turn) return;
    expect(turnProbability(handback)).toBeGreaterThan(turnProbability(GERMAN_RUN[2] as string));
    expect(turnProbability(handback)).toBeGreaterThanOrEqual(turn.threshold);
    expect(run.reduce(advanceRun, EMPTY_RUN).stalled).toBe(false);
    useStallModel({ ...shipped(), turn: { ...turn, threshold: 1.01 } });
    expect(endsTurn(handback)).toBe(false);
    expect(run.reduce(advanceRun, EMPTY_RUN).stalled).toBe(true);
    // A model trained before the turn model never ends a run this way.
    const { turn: _, ...older } = shipped();
    useStallModel(older);
    expect(turnProbability(handback)).toBe(0);
  });

  it("take no promise the rules read where the turn model reads a hand-back more surely", () => {
    const handback =
      "Dropping that slot on the primary could break the standby. I'll check with you before I touch anything there.";
    const promises = ["I'll check the replication slots on the primary now.", "Checking the replication slots next."];
    const run = events(...promises, handback);
    expect(classifyReply(handback).kind).toBe("promise");
    expect(turnProbability(handback, null)).toBeGreaterThan(promiseProbability(handback, null));
    expect(handsTurnBack({ text: handback, user: null })).toBe(true);
    expect(readsAsPromise({ text: handback, user: null })).toEqual({ rules: false, models: false });
    expect(run.reduce(advanceRun, EMPTY_RUN).stalled).toBe(false);
    // Where the turn model reads no hand-back (and the promise model does not deny it), the rules' promise counts and
    // the run stalls.
    const turn = shipped().turn;
    if (!turn) throw new Error("the shipped model has a turn model");
    useStallModel({ ...shipped(), turn: { ...turn, threshold: 1.01 }, confirm: null });
    expect(handsTurnBack({ text: handback, user: null })).toBe(false);
    expect(readsAsPromise({ text: handback, user: null }).rules).toBe(true);
    expect(run.reduce(advanceRun, EMPTY_RUN).stalled).toBe(true);
  });

  it("let a deliverable the rules read stand against the promise model below the trained overrule probability", () => {
    const recaps = ENGLISH_RECAPS;
    for (const text of recaps) expect(classifyReply(text).kind).toBe("deliverable");
    const least = Math.min(...recaps.map((text) => promiseProbability(text, null)));
    expect(least).toBeGreaterThanOrEqual(promiseThreshold());
    useStallModel({ ...shipped(), overrule: least + 0.001 });
    expect(events(...recaps).reduce(advanceRun, EMPTY_RUN).stalled).toBe(false);
    useStallModel({ ...shipped(), overrule: least });
    expect(events(...recaps).reduce(advanceRun, EMPTY_RUN).stalled).toBe(true);
  });

  it("take no promise the rules read where the promise model reads none, below the trained confirm threshold", () => {
    // The turn model off: what is tested is the promise model's denial, not a hand-back.
    const turn = shipped().turn;
    if (!turn) throw new Error("the shipped model has a turn model");
    const noTurn = { ...shipped(), turn: { ...turn, threshold: 1.01 } };
    useStallModel(noTurn);
    const careful =
      "Careful — `shared-maven-cache` is on that list and the release job mounts it. I'll check with you before removing anything.";
    const run = events(
      "I will run `docker volume prune` on the CI host now.",
      "Pruning the dangling volumes on the CI host now.",
      careful,
      "Running `docker volume prune` on the CI host next.",
    );
    const confirm = confirmThreshold();
    expect(confirm).not.toBeNull();
    expect(classifyReply(careful).kind).toBe("promise");
    expect(promiseProbability(careful, null)).toBeLessThan(confirm ?? 0);
    expect(handsTurnBack({ text: careful, user: null })).toBe(false);
    expect(modelDenies({ text: careful })).toBe(true);
    expect(readsAsPromise({ text: careful, user: null })).toEqual({ rules: false, models: false });
    // Longer than a filler and no promise: it ends the run, and the promise after it starts a new one.
    expect(run.reduce(advanceRun, EMPTY_RUN).stalled).toBe(false);
    const explained = explainPath(run).steps.find((step) => step.excerpt.startsWith("Careful"));
    expect(explained?.label).toBe("not a promise");
    expect(explained?.reason).toContain(`below ${confirm}: its reading stands`);
    // A model without the threshold, or with it under the reply's probability, lets the rules' promise count.
    useStallModel({ ...noTurn, confirm: null });
    expect(readsAsPromise({ text: careful, user: null }).rules).toBe(true);
    expect(run.reduce(advanceRun, EMPTY_RUN).stalled).toBe(true);
    useStallModel({ ...noTurn, confirm: promiseProbability(careful, null) });
    expect(modelDenies({ text: careful })).toBe(false);
  });

  it("read English replies too, beside the rules: a run either reader finds is a stall", () => {
    const english = ["The build uses tsc 5.6.", "Tests run with vitest.", "The cache key has no version."];
    useStallModel(readsEverything());
    const permissive = events(...english).reduce(advanceRun, EMPTY_RUN);
    expect(permissive.readers.rules.stalled).toBe(false);
    expect(permissive.readers.models.stalled).toBe(true);
    expect(permissive.stalled).toBe(true);
    useStallModel({ ...shipped(), threshold: 1.01 });
    expect(events(...english).reduce(advanceRun, EMPTY_RUN).stalled).toBe(false);
    // The rules' run stands without the models.
    const rules = ["Let me check the logs.", "Let me check the logs now.", "Let me check the logs again."];
    const byRules = events(...rules).reduce(advanceRun, EMPTY_RUN);
    expect(byRules.readers.rules.stalled).toBe(true);
    expect(byRules.stalled).toBe(true);
  });

  it("do not overrule a reply the rules read as no promise, nor a Chinese reply with no promise phrase", () => {
    useStallModel(readsEverything());
    const checked = "讓我再核對：對，就是這兩個 +1 疊在一起。";
    const counted = "讓我再檢查一次：Retries=3 → maxRetries=4 → 共 5 次。";
    expect(events(checked, counted, checked).reduce(advanceRun, EMPTY_RUN).readers.models.stalled).toBe(false);
    const analysis = "扩展后的模型共有十一个对象：年级、班级、教师和课程。学期结束后教师录入成绩，系统按年级汇总统计。";
    expect(events(analysis, analysis, analysis).reduce(advanceRun, EMPTY_RUN).stalled).toBe(false);
    // The same thresholds take English replies the rules find no promise in (above): the veto is the rules' verdict.
    expect(
      events("The build uses tsc 5.6.", "Tests run with vitest.", "The cache key has no version.").reduce(
        advanceRun,
        EMPTY_RUN,
      ).stalled,
    ).toBe(true);
  });

  it("reads the user's messages through the session fold: an answered question there ends the run too", () => {
    const run = (question: string) =>
      given((b) => {
        b.user("Der Cache-Test schlägt fehl, bitte reparieren.");
        b.toolRound("bash", { command: "npm test" }, "FAIL cache.spec.ts");
        b.assistant(GERMAN_RUN[0] as string);
        b.user("weiter");
        b.assistant(GERMAN_RUN[1] as string);
        b.user(question);
        b.assistant("Ja, einmal beim Start; danach liest niemand mehr den Schlüssel aus dem Cache.");
        b.user("weiter");
      }).when((b) => b.assistant(GERMAN_RUN[2] as string)).after;
    expect(isStalled(run("und?").recovery)).toBe(true);
    expect(isStalled(run("Wird die Funktion load() noch woanders aufgerufen?").recovery)).toBe(false);
  });
});
