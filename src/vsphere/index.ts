export { AutomationClient, type ClusterSummary, type HostSummary, type VmSummary } from "./automation-client.js";
export { backoffDelayMs } from "./backoff-delay.js";
export { createLimiter, type Limiter } from "./concurrency-limiter.js";
export { buildCounterIndex, counterName, HOST_COUNTER_NAMES, VM_COUNTER_NAMES, type CounterIndex } from "./counter-catalogue.js";
export {
  decodeMemState,
  deriveHostMetrics,
  deriveVmMetrics,
  fixedPointPercent,
  kbToMiB,
  overcommitRatios,
  readyPercentPerVcpu,
  type HostDerivationInput,
  type HostVmInput,
  type MemStateScale,
  type RawHostSample,
  type RawVmSample,
} from "./derive-metrics.js";
export { errorKind } from "./error-kind.js";
export { buildPerfBatches, MAX_QUERY_METRICS, REALTIME_INTERVAL_ID } from "./perf-batches.js";
export { createPollerMetrics, type PollerMetrics } from "./poller-metrics.js";
export type { VcenterApi, VcenterErrorKind } from "./vcenter-api.js";
export { VcenterAuthError } from "./vcenter-auth-error.js";
export { VcenterConfigError } from "./vcenter-config-error.js";
export { VcenterHttpError } from "./vcenter-http-error.js";
export { VcenterNetworkError } from "./vcenter-network-error.js";
export { VcenterPoller, type VcenterPollerOptions } from "./vcenter-poller.js";
export { VcenterResponseError } from "./vcenter-response-error.js";
export { VijsonClient } from "./vijson-client.js";
export { MultiVcenterSource, type NamedSource } from "./multi-vcenter-source.js";
