import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildPageModel } from "../../src/report/page-model.js";
import { renderSessionPage } from "../../src/report/render-session-page.js";
import { REQUEST_MARKS } from "../../src/report/request-status.js";
import { loadSession, loadSessionText } from "../../src/session.js";

const SAMPLES = join(import.meta.dirname, "../../evidence-samples");
const LIVE = "live-guidance-session.jsonl";
const marks = (rows: [number, number][]) => rows.map(([, mark]) => REQUEST_MARKS[mark]);

describe("the report marks each request verified / differs / not recorded", () => {
  it("given the live sample, then its four requests are verified, and the page says so before any script runs", () => {
    const model = buildPageModel(LIVE, loadSession(join(SAMPLES, LIVE)));
    expect(marks(model.requests.rows)).toEqual(["verified", "verified", "verified", "verified"]);
    const page = renderSessionPage(model);
    expect(page).toContain("requests: <b>4 verified</b>");
    expect(page).toContain("<dt>requests</dt><dd>4 verified</dd>");
    expect(page).not.toContain("Requests not verified");
  });

  it("given one byte of the last user message changed, then the request that sent it differs and is listed", () => {
    const text = readFileSync(join(SAMPLES, LIVE), "utf8");
    const tampered = text.replace('"text":"And what should change?"', '"text":"And what should chango?"');
    expect(tampered).not.toBe(text);
    const model = buildPageModel(LIVE, loadSessionText(LIVE, tampered));
    expect(marks(model.requests.rows)).toEqual(["verified", "verified", "verified", "differs"]);
    const [leaf] = model.requests.rows.at(-1) as [number, number];
    const page = renderSessionPage(model);
    expect(page).toContain("requests: <b>3 verified, 1 differs</b>");
    expect(page).toContain(`<li><code>${model.entries.ids[leaf]}</code> differs</li>`);
  });

  it("given a session without kit digests, then the request of every reply (one per leaf replied from) is not recorded", () => {
    const name = "verification-session.jsonl";
    const { tree, ...rest } = loadSession(join(SAMPLES, name));
    const model = buildPageModel(name, { tree, ...rest });
    const replies = new Set(
      tree.entries.filter((e) => e.type === "message" && e.message.role === "assistant").map((e) => e.parentId),
    ).size;
    expect(model.requests.counts).toMatchObject({ verified: 0, differs: 0, notRecorded: replies });
    expect(renderSessionPage(model)).toContain(`requests: <b>${replies} not recorded</b>`);
  });
});
