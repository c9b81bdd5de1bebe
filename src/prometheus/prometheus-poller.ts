import type { Config } from "../config/schema.js";
import { EMPTY_INVENTORY, type InventoryView } from "../model/inventory.js";
import type { MetricsSource, SourceStatus } from "../model/metrics-source.js";
import type { Logger } from "../observability/logger.js";
import { backoffDelayMs } from "../vsphere/backoff-delay.js";
import { buildExporterInventory } from "./build-exporter-inventory.js";
import { buildTelegrafInventory } from "./build-telegraf-inventory.js";
import type { PrometheusSourceMetrics } from "./prometheus-metrics.js";
import { querySeries, type Querier } from "./query-series.js";
import type { VcenterInventoryReader } from "./vcenter-inventory-reader.js";

/** The poller's parts, built by the composition root (`buildPrometheusSourceParts`). */
export interface PrometheusSourceParts {
  readonly metrics: PrometheusSourceMetrics;
  /** Prometheus's query API (a `PrometheusClient`); closed on stop when it has `close()`. */
  readonly querier: Querier & { close?(): void };
  /** The telegraf flavour's inventory (vCenter without QueryPerf); absent for vmware_exporter. */
  readonly inventory?: VcenterInventoryReader;
}

export interface PrometheusPollerOptions extends PrometheusSourceParts {
  readonly prometheus: Config["prometheus"];
  readonly maxMetricAgeSeconds: number;
  readonly log: Logger;
  readonly clock?: () => number;
  readonly random?: () => number;
}

/** Snapshots older than this many maxMetricAge are dropped from memory altogether (as for vCenter). */
const DROP_AFTER_MAX_AGES = 10;
const MAX_BACKOFF_MS = 5 * 60_000;

/**
 * Reads host and VM contention from Prometheus (issue 11) and keeps the last good
 * InventoryView, like VcenterPoller: one cycle in flight, exponential jittered backoff while
 * Prometheus (or, for telegraf, vCenter's inventory) fails, last good snapshot served until
 * it is DROP_AFTER_MAX_AGES x maxMetricAge old. `status().source` names the source.
 */
export class PrometheusPoller implements MetricsSource {
  private readonly clock: () => number;
  private readonly random: () => number;
  private readonly metrics: PrometheusSourceMetrics;
  private readonly querier: Querier & { close?(): void };
  private readonly inventory: VcenterInventoryReader | undefined;
  private snapshot: InventoryView | undefined;
  private inFlight: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private lastSuccessMs: number | undefined;
  private lastAttemptMs: number | undefined;
  private lastError: string | undefined;
  private failures = 0;

  constructor(private readonly options: PrometheusPollerOptions) {
    this.clock = options.clock ?? Date.now;
    this.random = options.random ?? Math.random;
    this.metrics = options.metrics;
    this.metrics.bindDataAge(() => (this.lastSuccessMs === undefined ? undefined : (this.clock() - this.lastSuccessMs) / 1000));
    this.querier = options.querier;
    this.inventory = options.inventory;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    void (this.inFlight ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => this.inventory?.close())
      .finally(() => this.querier.close?.());
  }

  /** Runs one cycle (or joins the running one); rejects when it failed (the failure is also recorded). */
  pollOnce(): Promise<void> {
    if (!this.inFlight) {
      this.inFlight = this.cycle().finally(() => {
        this.inFlight = undefined;
      });
    }
    return this.inFlight;
  }

  latest(): InventoryView {
    const snap = this.snapshot;
    if (!snap) return EMPTY_INVENTORY;
    const ageMs = this.clock() - (snap.polledAtMs ?? 0);
    if (ageMs > DROP_AFTER_MAX_AGES * this.options.maxMetricAgeSeconds * 1000) {
      this.snapshot = undefined;
      this.options.log.warn({ ageS: Math.round(ageMs / 1000) }, "dropping Prometheus-sourced data: too old to be of use");
      return EMPTY_INVENTORY;
    }
    return snap;
  }

  status(): SourceStatus {
    return {
      source: `prometheus/${this.options.prometheus.flavour}`,
      consecutiveFailures: this.failures,
      ...(this.lastSuccessMs !== undefined ? { lastSuccessMs: this.lastSuccessMs } : {}),
      ...(this.lastAttemptMs !== undefined ? { lastAttemptMs: this.lastAttemptMs } : {}),
      ...(this.lastError !== undefined ? { lastError: this.lastError } : {}),
    };
  }

  nextDelayMs(): number {
    const intervalMs = this.options.prometheus.queryIntervalSeconds * 1000;
    return backoffDelayMs(this.failures, intervalMs, Math.max(intervalMs, MAX_BACKOFF_MS), this.random);
  }

  private async cycle(): Promise<void> {
    const startedMs = this.clock();
    this.lastAttemptMs = startedMs;
    const p = this.options.prometheus;
    try {
      const [base, series] = await Promise.all([this.inventory?.read(), querySeries(this.querier, p.flavour, p.selector)]);
      const view = base !== undefined ? buildTelegrafInventory(base, series) : buildExporterInventory(series, this.clock());
      this.snapshot = view;
      this.failures = 0;
      this.lastError = undefined;
      this.lastSuccessMs = view.polledAtMs ?? this.clock();
      this.metrics.observeCycle((this.clock() - startedMs) / 1000, "success", "");
      this.metrics.setLastSuccess(this.lastSuccessMs);
      this.options.log.debug({ hosts: view.hosts.size, vms: view.vms.size }, "Prometheus source cycle done");
    } catch (err) {
      this.failures += 1;
      const kind = (err as { kind?: unknown })?.kind;
      this.lastError = err instanceof Error ? err.message : String(err);
      this.metrics.observeCycle((this.clock() - startedMs) / 1000, "failure", typeof kind === "string" ? kind : "other");
      this.options.log.warn(
        { error: { name: (err as Error)?.name, message: this.lastError, kind }, consecutiveFailures: this.failures },
        "Prometheus source cycle failed; keeping the last good data",
      );
      throw err;
    }
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      void this.pollOnce()
        .catch(() => undefined)
        .finally(() => {
          if (this.running) this.schedule(this.nextDelayMs());
        });
    }, delayMs);
    this.timer.unref();
  }
}
