export { assessHost, type Heat, type HostAssessment } from "./assess-host.js";
export { decideNode, type NodeDecision, type PlacementContext } from "./decide-node.js";
export { EXEMPT_ANNOTATION, exemptionOf, type PodMeta } from "./exemption.js";
export { filterNodes, prioritizeNodes, type FilterOutcome, type NodeScore } from "./filter-nodes.js";
export { byteSwapUuid, mapNodeToVm, vmIndexOf, type VmIndex } from "./map-node.js";
export type { ExemptPolicy, NodeMappingRule, PlacementPolicy, ThresholdPolicy } from "./policy.js";
export type { HostRef, Reason, ReasonCode, VmRef } from "./reason.js";
export { hostHeadroom, MAX_HOST_SCORE, scoreHost } from "./score-host.js";
