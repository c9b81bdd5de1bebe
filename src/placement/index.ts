export { assessHost, assessHostAlone, withVm, type Heat, type HostAssessment } from "./assess-host.js";
export { LatestPlacementIndex, PlacementIndex, type HostEntry, type NodeEntry } from "./placement-index.js";
export { decideNode, indexOf, RequestMemo, type ClusterContext, type NodeDecision, type PlacementContext } from "./decide-node.js";
export { NO_PENDING, pendingDemand, projectHost, type PendingDemand } from "./burst-guard.js";
export { hostOccupancyOf, hostsBackingNodes, type HostOccupancy } from "./host-occupancy.js";
export {
  checkSpread,
  HOST_SPREAD_ANNOTATION,
  HOST_SPREAD_MAX_SKEW_ANNOTATION,
  replicasOn,
  spreadRuleOf,
  type SpreadRule,
} from "./host-spread.js";
export { limitOvercommitReasons } from "./limit-overcommit.js";
export { checkStackedCpu, type StackedCheck } from "./stacked-overcommit.js";
export { EXEMPT_ANNOTATION, exemptionOf, namespaceMatches, type Exemption, type PodMeta } from "./exemption.js";
export { clusterViewFresh, DEFAULT_MAX_CACHE_AGE_SECONDS } from "./cluster-freshness.js";
export {
  heatText,
  nextHeatMark,
  parseHeatText,
  readHeat,
  ruleName,
  type HeatHysteresis,
  type HeatMark,
  type HeatReading,
} from "./heat-mark.js";
export { extenderPriority, filterNodes, prioritizeNodes, type FilterOutcome, type NodeScore } from "./filter-nodes.js";
export { byteSwapUuid, mapNodeToVm, vmIndexOf, type VmIndex } from "./map-node.js";
export type {
  BurstGuardPolicy,
  ExemptPolicy,
  KubernetesLayerPolicy,
  LimitsPolicy,
  NodeMappingRule,
  PlacementPolicy,
  ThresholdPolicy,
} from "./policy.js";
export type { HostRef, Reason, ReasonCode, VmRef } from "./reason.js";
export { hostHeadroom, MAX_HOST_SCORE, penalise, scoreHost } from "./score-host.js";
export { IN_FLIGHT_TTL_MS, InFlightLedger, recordAnswer, withInFlight, type InFlightPod } from "./in-flight-ledger.js";
