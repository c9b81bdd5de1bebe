import type { InventoryView } from "./inventory.js";

/** Read port for the vSphere view. `latest()` never awaits the network. */
export interface MetricsSource {
  latest(): InventoryView;
}

/** Why the last cycle could not read one host, and since when it has been failing. */
export interface HostErrorStatus {
  /** `summary`, `vm_list`, `vm_info` or `perf`. */
  readonly reason: string;
  readonly error: string;
  /** First failure of the current streak, epoch ms. */
  readonly sinceMs: number;
  readonly consecutiveFailures: number;
}

/** Set while logins are suspended after vCenter refused the credentials (no account lockout). */
export interface AuthSuspension {
  readonly api: string;
  readonly error: string;
  readonly failedAtMs: number;
  /** No login before this time unless the credential files change, epoch ms. */
  readonly retryAfterMs: number;
}

/** Health of the metrics source, for /debug, /metrics and logs. */
export interface SourceStatus {
  /** Which source this is (`vcenter`, `prometheus/telegraf`, `prometheus/vmware_exporter`); absent: vcenter. */
  readonly source?: string;
  readonly lastSuccessMs?: number;
  readonly lastAttemptMs?: number;
  readonly lastError?: string;
  readonly consecutiveFailures: number;
  /** Hosts the last cycle could not read, by host id (each keeps its previous entry). */
  readonly hostErrors?: Readonly<Record<string, HostErrorStatus>>;
  readonly authSuspended?: AuthSuspension;
  /** vCenter's clock minus the local clock, s (sample times are converted with it). */
  readonly clockOffsetSeconds?: number;
  /** Metrics per QueryPerf in use (vpxd.stats.maxQueryMetrics, or lower after a refusal). */
  readonly maxQueryMetrics?: number;
  /** How vCenter is read (`vcenter.api`, issue 27): `vijson` (Automation API + VI/JSON) or `soap` (vim25). */
  readonly api?: string;
}
