import type { InventoryView } from "./inventory.js";

/** Read port for the vSphere view. `latest()` never awaits the network. */
export interface MetricsSource {
  latest(): InventoryView;
}

/** Health of the vCenter source, for /debug, /metrics and logs. */
export interface SourceStatus {
  readonly lastSuccessMs?: number;
  readonly lastAttemptMs?: number;
  readonly lastError?: string;
  readonly consecutiveFailures: number;
}
