/**
 * Assistant entries a host appends that no model wrote: OpenClaw's `delivery-mirror` (a copy of an earlier turn's
 * text sent to a chat channel) and `gateway-injected` notices. They are never replies.
 */
export function isHostEcho(provider: string, model: string): boolean {
  return provider === "openclaw" && (model === "delivery-mirror" || model === "gateway-injected");
}
