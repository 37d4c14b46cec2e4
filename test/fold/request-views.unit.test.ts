import { describe, expect, it } from "vitest";
import { foldTree } from "../../src/fold/session-fold.js";
import { SessionTree } from "../../src/tree/session-tree.js";
import { viewOfLeaf } from "../../src/view/leaf-view.js";
import { recordedRequests, verifyRequest } from "../../src/view/recorded-requests.js";
import { requestDigest } from "../../src/view/request-digest.js";
import { RequestViews } from "../../src/view/request-views.js";
import { liveSession } from "../synth/live-session.js";
import { Random } from "../synth/random.js";
import { randomSession } from "../synth/random-tree.js";
import type { SessionBuilder } from "../synth/session-builder.js";

/** Some 1.x content on the current branch: a context edit of an earlier entry, a system message. */
function withOneX(b: SessionBuilder, rnd: Random): void {
  const messages = b.entries.filter((e) => e.type === "message");
  const target = rnd.pick(messages);
  b.append({ type: "context_edit", targetId: target.id, replacement: rnd.chance(0.5) ? null : { content: "edited" } });
  if (rnd.chance(0.5)) b.message({ role: "system", content: "system prompt", timestamp: 1 } as never);
  b.user("after 1.x content");
}

/** Leaves in file order (how `check` takes requests), then in a random order with repeats (any order is allowed). */
function leafOrder(tree: SessionTree, rnd: Random): string[] {
  const ids = [...tree.byId.keys()];
  const shuffled = Array.from({ length: 60 }, () => rnd.pick(ids));
  return [...ids, ...shuffled];
}

describe("views built along a branch equal views built from scratch", () => {
  it.each(Array.from({ length: 60 }, (_, i) => 500 + i))("random tree %i: every entry as a leaf", (seed) => {
    const rnd = new Random(seed);
    const b = randomSession(seed, 50);
    if (seed % 3 === 0) withOneX(b, rnd);
    for (let i = 0; i < 10; i++) b.user(`tail ${i}`);
    const tree = new SessionTree(b.entries);
    const views = new RequestViews(tree, foldTree(tree));
    const fresh = foldTree(tree);
    for (const leaf of leafOrder(tree, rnd)) {
      const incremental = [...views.messagesAt(leaf)];
      const scratch = viewOfLeaf(tree, fresh, leaf).messages;
      expect(incremental).toEqual(scratch);
      expect(views.digest(incremental)).toBe(requestDigest(scratch));
    }
  });

  it.each(Array.from({ length: 20 }, (_, i) => 900 + i))("live session %i: every recorded request", (seed) => {
    const tree = new SessionTree(liveSession({ requests: 150, seed, branch: 0.1 }).entries);
    const fold = foldTree(tree);
    const views = new RequestViews(tree, fold);
    const requests = recordedRequests(tree);
    expect(requests.length).toBe(150);
    for (const request of requests) {
      const incremental = views.verify(request, "0.0.0-synth");
      const scratch = verifyRequest(tree, foldTree(tree), request, "0.0.0-synth");
      expect(incremental).toEqual(scratch);
    }
  });
});
