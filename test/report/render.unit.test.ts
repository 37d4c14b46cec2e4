import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { clientScript } from "../../src/report/client-script.js";
import { escapeHtml, jsonForScript } from "../../src/report/html.js";
import { buildPageModel } from "../../src/report/page-model.js";
import { renderIndexPage } from "../../src/report/render-index-page.js";
import { embeddedModel, renderSessionPage } from "../../src/report/render-session-page.js";
import { loadSessionText } from "../../src/session.js";
import { SessionBuilder } from "../synth/session-builder.js";

const HOSTILE = '</script><script>alert(1)</script><!-- <img src=x onerror="alert(2)"> \u2028 & </SCRIPT >';

function hostileSession() {
  const b = new SessionBuilder({ cwd: "/p/<b>cwd</b>" });
  b.user(HOSTILE);
  b.assistant(`echo ${HOSTILE}`, [{ name: "read", args: { path: HOSTILE }, id: "c1" }]);
  b.toolResult("c1", "read", HOSTILE, { path: HOSTILE });
  return buildPageModel('<i>x</i>".jsonl', loadSessionText("x", b.toJsonl()));
}

/** The text of the page's JSON data element, found by its fixed opening and closing tags. */
function dataText(html: string): string {
  const open = html.indexOf('<script type="application/json" id="session-data"');
  const start = html.indexOf(">", open) + 1;
  return html.slice(start, html.indexOf("</script>", start));
}

describe("the session page's HTML", () => {
  it("embeds session text so that it cannot close the data element or run", () => {
    const model = hostileSession();
    const html = renderSessionPage(model);
    expect(html.match(/<script/gi)).toHaveLength(2);
    expect(html.match(/<\/script>/gi)).toHaveLength(2);
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<i>x</i>");
    expect(html).toContain(`<h1>${escapeHtml('<i>x</i>".jsonl')}</h1>`);
    expect(JSON.parse(dataText(html))).toEqual(JSON.parse(JSON.stringify(model)));
    expect(JSON.parse(dataText(html)).entries.previews[0]).toBe(HOSTILE.replace(/\s+/g, " ").trim());
  });

  it("escapes <, >, & and line separators in embedded JSON, and parses back to the same value", () => {
    const value = { text: HOSTILE, nested: ["<!--", "]]>", "\u2029"] };
    const text = jsonForScript(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it("loads nothing: a policy that allows only its own style and script, no URL to fetch", () => {
    const html = renderSessionPage(hostileSession());
    const policy = html.match(/http-equiv="Content-Security-Policy" content="([^"]+)"/)?.[1] ?? "";
    expect(policy).toContain("default-src &#39;none&#39;");
    const scriptHash = createHash("sha256").update(clientScript()).digest("base64");
    expect(policy).toContain(`script-src &#39;sha256-${scriptHash}&#39;`);
    expect(html).toContain(`<script>${clientScript()}</script>`);
    expect(html).not.toMatch(/\b(src|href)="(https?:)?\/\//);
    expect(html).not.toMatch(/url\(|@import/);
  });

  it("compresses a large model and keeps a small one as plain JSON", () => {
    const model = hostileSession();
    expect(embeddedModel(model).encoding).toBe("json");
    const packed = embeddedModel(model, 10);
    expect(packed.encoding).toBe("gzip+base64");
    expect(packed.text).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect(JSON.parse(gunzipSync(Buffer.from(packed.text, "base64")).toString("utf8"))).toEqual(
      JSON.parse(JSON.stringify(model)),
    );
    expect(renderSessionPage(model, { compressAbove: 10 })).toContain('data-encoding="gzip+base64"');
  });

  it("links back to the index when it has one", () => {
    const model = hostileSession();
    expect(renderSessionPage(model, { indexHref: "../index.html" })).toContain('<a href="../index.html">');
    expect(renderSessionPage(model)).not.toContain("all sessions");
  });

  it("has a client script that is valid JavaScript", () => {
    expect(() => new Function(clientScript())).not.toThrow();
  });
});

describe("the index page", () => {
  it("has one escaped row per session, linking its page, with the one-line summary", () => {
    const summary = hostileSession().summary;
    const html = renderIndexPage("sessions <dir>", [
      { file: "a/<one>.jsonl", href: "sessions/a__one.html", summary },
      { file: "b.jsonl", href: "sessions/b.html", summary: { ...summary, stallStops: 2 } },
    ]);
    expect(html).toContain("<h1>sessions &lt;dir&gt;</h1>");
    expect(html).toContain('<a href="sessions/a__one.html">a/&lt;one&gt;.jsonl</a>');
    expect(html.match(/<tr title=/g)).toHaveLength(2);
    expect(html).toContain('<td data-v="2" class="bad">2</td>');
    // One script only: the column sort, allowed by its hash; nothing is loaded.
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).toMatch(/script-src &#39;sha256-[A-Za-z0-9+/=]+&#39;/);
  });
});
