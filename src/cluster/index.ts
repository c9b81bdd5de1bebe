export {
  ClusterInformer,
  ClusterSyncError,
  BOOKMARK_PERIOD_SECONDS,
  DEFAULT_WATCH_IDLE_SECONDS,
  type ClusterInformerOptions,
  type ClusterInformerStatus,
} from "./cluster-informer.js";
export { createClusterMetrics, type ClusterMetrics } from "./cluster-metrics.js";
export { kubeConfigFromConfig, resolveOwnNamespace, KubeConfigError, type KubeAccess } from "./kube-config-from-config.js";
export { LeaseElector, NODE_LABELLER_LEASE, type LeaseElectorOptions } from "./lease-elector.js";
export {
  NodeLabeller,
  ESXI_HOST_LABEL,
  HOST_HEAT_ANNOTATION,
  DEFAULT_HEAT_HYSTERESIS,
  type DesiredNodeMarks,
  type LabelRound,
  type NodeLabellerOptions,
} from "./node-labeller.js";
export { makeTimedApiClient, KubeRequestTimeoutError, DEFAULT_REQUEST_TIMEOUT_MS } from "./timed-api-client.js";
export { GuardedWatch, WatchIdleError } from "./guarded-watch.js";
export { sanitizeLabelValue } from "./sanitize-label-value.js";
export { toMicroTime } from "./micro-time.js";
export { toNodeView } from "./to-node-view.js";
export { toPodView, ownerKeyOf } from "./to-pod-view.js";
export { Rebalancer, REBALANCER_LEASE, type RebalancerOptions, type RebalanceOutcome } from "./rebalancer.js";
export { accessReviewer } from "./access-reviewer.js";
