export { type BoundedText, labelProjectData, loadBoundedText } from "./bounded-text.js";
export { CONTROL_DIRS, GUIDANCE_MAX_BYTES, MARKER_NAME, PI_CONTROL_DIR, ROOT_GUIDANCE_FILES } from "./constants.js";
export type {
  Allowed,
  Decision,
  DenialKind,
  Denied,
  PolicyOp,
  Refused,
  Unresolvable,
  UnresolvableCode,
} from "./decision.js";
export { type FilteredOutput, filterOutput } from "./output-filter.js";
export { type ControlPath, createPolicy, type MarkerProbe, type Policy, type PolicyOptions } from "./policy.js";
export { type FileHead, nodePolicyFs, type PolicyFs } from "./policy-fs.js";
export { loadRootGuidance, type RootGuidance } from "./root-guidance.js";
export { decodeText, wholeCharacters } from "./utf8.js";
