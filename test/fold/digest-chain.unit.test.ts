import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../src/log/entry-types.js";
import {
  CHAIN_START,
  chainDigestOf,
  chainStep,
  DigestChain,
  messageDigest,
  requestDigest,
} from "../../src/view/request-digest.js";
import { Random } from "../synth/random.js";

const user = (text: string, timestamp: number): AgentMessage => ({ role: "user", content: text, timestamp });
const digests = (messages: readonly AgentMessage[]) => messages.map(messageDigest);
/** The chain's definition, link by link: the reference every memoised digest must equal. */
const fromScratch = (messages: readonly AgentMessage[]) =>
  chainDigestOf(messages.reduce((chain, m) => chainStep(chain, messageDigest(m)), CHAIN_START));

describe("the request digest chain", () => {
  it("given requests that share prefixes, then each digest equals the chain from scratch, and only what differs is linked", () => {
    const chain = new DigestChain();
    const base = Array.from({ length: 40 }, (_, i) => user(`message ${i}`, i));
    expect(chain.of(digests(base))).toBe(fromScratch(base));
    expect(chain.linked).toBe(40);

    const longer = [...base, user("one more", 40)];
    expect(chain.of(digests(longer))).toBe(fromScratch(longer));
    expect(chain.linked).toBe(41);

    // The 11th message replaced: the first ten links are kept, the rest linked again.
    const edited = longer.map((m, i) => (i === 10 ? user("changed", 10) : m));
    expect(chain.of(digests(edited))).toBe(fromScratch(edited));
    expect(chain.linked).toBe(41 + 31);

    expect(chain.of([])).toBe(fromScratch([]));
    expect(requestDigest(edited)).toBe(fromScratch(edited));
    expect(chain.length).toBe(0);
  });

  it("given random edits, appends and cuts, then every digest equals requestDigest of the same messages", () => {
    const rnd = new Random(7);
    const chain = new DigestChain();
    let messages: AgentMessage[] = [];
    for (let step = 0; step < 200; step++) {
      const roll = rnd.int(4);
      if (roll === 0) messages = messages.slice(0, rnd.int(messages.length + 1));
      else if (roll === 1 && messages.length > 0) {
        const at = rnd.int(messages.length);
        messages = messages.map((m, i) => (i === at ? user(`edit ${step}`, step) : m));
      } else messages = [...messages, ...Array.from({ length: 1 + rnd.int(3) }, (_, k) => user(`m${step}.${k}`, step))];
      expect(chain.of(digests(messages))).toBe(fromScratch(messages));
    }
  });

  it("keep, push and an extra message give the chain of those messages", () => {
    const messages = Array.from({ length: 6 }, (_, i) => user(`m${i}`, i));
    const chain = new DigestChain();
    for (const m of messages) chain.push(messageDigest(m));
    chain.keep(4);
    expect(chain.value()).toBe(fromScratch(messages.slice(0, 4)));
    expect(chain.value(messageDigest(messages[5] as AgentMessage))).toBe(
      fromScratch([...messages.slice(0, 4), messages[5] as AgentMessage]),
    );
    expect(chain.length).toBe(4);
  });
});
