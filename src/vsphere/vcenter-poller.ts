import { readFileSync } from "node:fs";
import NodeCache from "node-cache";
import type { Registry } from "prom-client";
import type { Config } from "../config/schema.js";
import { EMPTY_INVENTORY, type InventoryView } from "../model/inventory.js";
import type { MetricsSource, SourceStatus } from "../model/metrics-source.js";
import type { Logger } from "../observability/logger.js";
import { AutomationClient } from "./automation-client.js";
import { backoffDelayMs } from "./backoff-delay.js";
import { errorKind } from "./error-kind.js";
import { runPollCycle } from "./poll-cycle.js";
import { createPollerMetrics, type PollerMetrics } from "./poller-metrics.js";
import { VcenterConfigError } from "./vcenter-config-error.js";
import { createVcenterHttp } from "./vcenter-http.js";
import { VijsonClient } from "./vijson-client.js";

export interface VcenterPollerOptions {
  readonly vcenter: Config["vcenter"];
  readonly maxMetricAgeSeconds: number;
  readonly log: Logger;
  readonly registry: Registry;
  /** Epoch ms; injectable for tests. */
  readonly clock?: () => number;
  /** [0, 1); jitter source, injectable for tests. */
  readonly random?: () => number;
}

/** Snapshots older than this many maxMetricAge are dropped from memory altogether. */
const DROP_AFTER_MAX_AGES = 10;
const MAX_BACKOFF_MS = 5 * 60_000;
const COUNTER_TTL_SECONDS = 3600;

/**
 * Polls vCenter on a timer and keeps the last good InventoryView. One cycle in flight at
 * most (a second `pollOnce` joins the running one); while vCenter fails, the next attempt
 * waits an exponential, jittered delay; the last good snapshot is served until it is
 * DROP_AFTER_MAX_AGES x maxMetricAge old (consumers judge freshness from `sampledAtMs`).
 */
export class VcenterPoller implements MetricsSource {
  private readonly clock: () => number;
  private readonly random: () => number;
  private readonly metrics: PollerMetrics;
  private readonly http: ReturnType<typeof createVcenterHttp>;
  private readonly automation: AutomationClient;
  private readonly vijson: VijsonClient;
  private readonly cache = new NodeCache({ useClones: false, checkperiod: 0 });
  private snapshot: InventoryView | undefined;
  private inFlight: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private lastSuccessMs: number | undefined;
  private lastAttemptMs: number | undefined;
  private lastError: string | undefined;
  private failures = 0;

  constructor(private readonly options: VcenterPollerOptions) {
    const vc = options.vcenter;
    if (!vc.url) {
      throw new VcenterConfigError("vcenter.url is required to poll a vCenter (without it, start the bundled mock)");
    }
    if (!vc.username || !vc.password) {
      throw new VcenterConfigError(
        "vCenter credentials missing: set vcenter.username and vcenter.password, or HVX_VCENTER_USERNAME / HVX_VCENTER_PASSWORD (or their _FILE variants)",
      );
    }
    this.clock = options.clock ?? Date.now;
    this.random = options.random ?? Math.random;
    this.metrics = createPollerMetrics(options.registry, () =>
      this.lastSuccessMs === undefined ? undefined : (this.clock() - this.lastSuccessMs) / 1000,
    );
    this.http = createVcenterHttp({
      baseUrl: vc.url,
      timeoutMs: vc.requestTimeoutSeconds * 1000,
      ...(vc.caFile !== undefined ? { caPem: readCaFile(vc.caFile) } : {}),
      insecureSkipTLSVerify: vc.insecureSkipTLSVerify,
      maxConcurrency: vc.maxConcurrency,
      onRequest: (api, outcome) => this.metrics.countRequest(api, outcome),
    });
    const credentials = { send: this.http.send, username: vc.username, password: vc.password };
    this.automation = new AutomationClient({ ...credentials, onRelogin: () => this.relogin("automation") });
    this.vijson = new VijsonClient({ ...credentials, release: vc.viJsonRelease, onRelogin: () => this.relogin("vijson") });
    if (vc.insecureSkipTLSVerify) options.log.warn("vcenter.insecureSkipTLSVerify is true: the vCenter certificate is not verified");
  }

  /** Polls now, then every pollIntervalSeconds (or the backoff delay while failing). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const closing = this.inFlight ?? Promise.resolve();
    void closing
      .then(() => this.automation.logout())
      .catch(() => undefined)
      .finally(() => {
        this.http.close();
        this.cache.close();
      });
  }

  /** Runs one cycle (or joins the running one). Rejects when the cycle failed; the failure is also recorded. */
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
      this.options.log.warn({ ageS: Math.round(ageMs / 1000) }, "dropping vCenter data: too old to be of use");
      return EMPTY_INVENTORY;
    }
    return snap;
  }

  status(): SourceStatus {
    return {
      consecutiveFailures: this.failures,
      ...(this.lastSuccessMs !== undefined ? { lastSuccessMs: this.lastSuccessMs } : {}),
      ...(this.lastAttemptMs !== undefined ? { lastAttemptMs: this.lastAttemptMs } : {}),
      ...(this.lastError !== undefined ? { lastError: this.lastError } : {}),
    };
  }

  /** Delay before the next scheduled cycle, ms: the poll interval, or the backoff while failing. */
  nextDelayMs(): number {
    const intervalMs = this.options.vcenter.pollIntervalSeconds * 1000;
    return backoffDelayMs(this.failures, intervalMs, Math.max(intervalMs, MAX_BACKOFF_MS), this.random);
  }

  private async cycle(): Promise<void> {
    const startedMs = this.clock();
    this.lastAttemptMs = startedMs;
    try {
      const view = await runPollCycle({
        automation: this.automation,
        vijson: this.vijson,
        clusterNames: this.options.vcenter.clusters,
        cache: this.cache,
        counterTtlSeconds: COUNTER_TTL_SECONDS,
        log: this.options.log,
        clock: this.clock,
      });
      this.snapshot = view;
      this.failures = 0;
      this.lastError = undefined;
      this.lastSuccessMs = view.polledAtMs ?? this.clock();
      this.metrics.observePoll((this.clock() - startedMs) / 1000, "success", "");
      this.metrics.setLastSuccess(this.lastSuccessMs);
      this.metrics.setInventorySize(view.hosts.size, view.vms.size);
      this.options.log.debug({ hosts: view.hosts.size, vms: view.vms.size }, "vCenter poll cycle done");
    } catch (err) {
      this.failures += 1;
      const kind = errorKind(err);
      this.lastError = err instanceof Error ? err.message : String(err);
      this.metrics.observePoll((this.clock() - startedMs) / 1000, "failure", kind);
      this.options.log.warn(
        { error: { name: (err as Error)?.name, message: this.lastError, kind }, consecutiveFailures: this.failures },
        "vCenter poll cycle failed; keeping the last good data",
      );
      throw err;
    }
  }

  private relogin(api: "automation" | "vijson"): void {
    this.metrics.countRelogin(api);
    this.options.log.info({ api }, "vCenter session expired; logging in again");
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

function readCaFile(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    throw new VcenterConfigError(`cannot read vcenter.caFile ${path}: ${(err as NodeJS.ErrnoException).code ?? "error"}`);
  }
}
