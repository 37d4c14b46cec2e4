/** Host messages before a recovery marker that stay in the recovery view: the kit's policy context. */
export function keepsBeforeMarker(customType: string): boolean {
  return customType.startsWith("context-kit/policy");
}
