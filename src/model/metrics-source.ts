import type { InventoryView } from "./inventory.js";

/** Read port for the vSphere view. `latest()` never awaits the network. */
export interface MetricsSource {
  latest(): InventoryView;
}

/** Health of the metrics source, for /debug, /metrics and logs. */
export interface SourceStatus {
  /** Which source this is (`vcenter`, `prometheus/telegraf`, `prometheus/vmware_exporter`); absent: vcenter. */
  readonly source?: string;
  readonly lastSuccessMs?: number;
  readonly lastAttemptMs?: number;
  readonly lastError?: string;
  readonly consecutiveFailures: number;
}
