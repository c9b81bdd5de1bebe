export { ClusterInformer, ClusterSyncError, type ClusterInformerOptions, type ClusterInformerStatus } from "./cluster-informer.js";
export { createClusterMetrics, type ClusterMetrics } from "./cluster-metrics.js";
export { kubeConfigFromConfig, resolveOwnNamespace, KubeConfigError, type KubeAccess } from "./kube-config-from-config.js";
export { LeaseElector, NODE_LABELLER_LEASE, type LeaseElectorOptions } from "./lease-elector.js";
export { NodeLabeller, ESXI_HOST_LABEL, HOST_HEAT_ANNOTATION, type DesiredNodeMarks, type LabelRound, type NodeLabellerOptions } from "./node-labeller.js";
export { sanitizeLabelValue } from "./sanitize-label-value.js";
export { toMicroTime } from "./micro-time.js";
export { toNodeView } from "./to-node-view.js";
export { toPodView, ownerKeyOf } from "./to-pod-view.js";
