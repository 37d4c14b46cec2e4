/**
 * What an entry contributes to the model's context, in the low three bits of its flags: the client computes the
 * projection of any leaf from these codes alone (see client/data.ts).
 */
export const MSG = { none: 0, user: 1, assistant: 2, toolResult: 3, customKept: 4, custom: 5, other: 6 } as const;
export const MSG_MASK = 7;

export const FLAG = {
  /** A kit host entry that validates against its schema. */
  kit: 8,
  /** Carries a kit `customType` but fails its schema: ignored by the reducers. */
  kitInvalid: 16,
  /** A failed tool result or an assistant reply that ended in an error. */
  error: 32,
  /** A tool result that records a denial (`details.code`). */
  denial: 64,
  /** A root only because its parent is missing or its parent link was cut. */
  orphan: 128,
  compaction: 256,
  /** A call or result in a tool-loop episode on some branch. */
  loop: 512,
  /** An assistant entry the host appended (OpenClaw `delivery-mirror`, `gateway-injected`): never a reply. */
  hostEcho: 1024,
} as const;
