import type { OutgoingView } from "../../projections/outgoing-view.js";
import { KIT, type RequestDigestData } from "../../reducers/contract/kit-entries.js";
import type { KitState } from "../../reducers/state.js";
import type { AgentMessage } from "../log/entry-types.js";
import type { RequestInputs } from "./kit-hooks.js";
import type { LiveDigests } from "./live-digests.js";
import { liveRequest } from "./live-request.js";
import type { LiveState, SessionView } from "./live-state.js";

export interface ContextRequest {
  session: SessionView;
  live: LiveState;
  digests: Pick<LiveDigests, "digest">;
  kitVersion: string;
  /** The host's messages for the request (the `context` event's). */
  messages: readonly AgentMessage[];
  /** Reads the request inputs from outside the log, given the state at the current leaf. */
  inputs(state: KitState): RequestInputs[];
  /** Appends a kit `custom` entry at once (the host's `appendEntry`). */
  append(customType: string, data: unknown): void;
  /** Records the request's digest; default: appended at once (a host with system messages adds their part later). */
  record?(digest: RequestDigestData): void;
}

/**
 * One live request, synchronously: record the inputs that changed, compute the view from the log as it now stands
 * (plus the messages the host has not persisted yet), and record the view's digest. The entries land before the
 * pending messages, which is where `check` looks for them.
 */
export function handleContextRequest(request: ContextRequest): OutgoingView {
  const { session, live, append } = request;
  const before = live.atLeaf(session);
  for (const inputs of request.inputs(before)) {
    for (const allowed of inputs.allowedAgain) append(KIT.policyAllowed, allowed);
    if (inputs.guidance !== before.inputs.guidance) append(KIT.rootGuidance, { text: inputs.guidance });
  }
  const { view, pending } = liveRequest(session, live.atLeaf(session), request.messages);
  const digest: RequestDigestData = {
    digest: request.digests.digest(session, request.messages, view),
    kitVersion: request.kitVersion,
    pending,
    messages: view.messages.length,
  };
  if (request.record) request.record(digest);
  else append(KIT.requestDigest, digest);
  return view;
}
