import NodeCache from "node-cache";
import type { Config } from "../config/schema.js";
import type { ThresholdPolicy } from "../placement/policy.js";
import { EMPTY_INVENTORY, type InventoryView } from "../model/inventory.js";
import type { MetricsSource, SourceStatus } from "../model/metrics-source.js";
import type { Logger } from "../observability/logger.js";
import { backoffDelayMs } from "./backoff-delay.js";
import { ClockOffsetKeeper } from "./clock-offset-keeper.js";
import { CredentialGate } from "./credential-gate.js";
import { errorKind } from "./error-kind.js";
import { ForecastKeeper } from "./forecast-keeper.js";
import { HostErrorBook } from "./host-error-book.js";
import { MAX_QUERY_METRICS } from "./perf-batches.js";
import { counterIndex, runPollCycle, type PerfLimit } from "./poll-cycle.js";
import { warmStartHistory } from "./warm-start-history.js";
import type { VcenterParts } from "./build-vcenter-parts.js";
import type { PollerMetrics } from "./poller-metrics.js";
import type { VcenterApi } from "./vcenter-api.js";
import { VcenterAuthError } from "./vcenter-auth-error.js";
import { VcenterConfigError } from "./vcenter-config-error.js";
import { VcenterHttpError } from "./vcenter-http-error.js";
import { withApiHint } from "./vcenter-api-hint.js";
import { wantedCounters, type WantedCounters } from "./wanted-counters.js";
import { selectTransport, type VcenterTransport } from "./vcenter-transport.js";
import type { VmSummaryInfo } from "./vm-reservations.js";

/** `metrics` and `http` come from `buildVcenterParts` (src/main.ts). */
export interface VcenterPollerOptions extends VcenterParts {
  readonly vcenter: Config["vcenter"];
  readonly maxMetricAgeSeconds: number;
  /** The metric rules' thresholds: only the counters that the rules that are on (or other consumers) read are asked for. */
  readonly thresholds: ThresholdPolicy;
  readonly log: Logger;
  /** Epoch ms; injectable for tests. */
  readonly clock?: () => number;
  /** [0, 1); jitter source, injectable for tests. */
  readonly random?: () => number;
  /**
   * Files the credentials came from (`HVX_VCENTER_USERNAME_FILE` / `_PASSWORD_FILE`): re-read
   * before each cycle; a change is used at the next login and lifts a login suspension.
   */
  readonly credentialFiles?: { readonly username?: string; readonly password?: string };
  /** `prediction.enabled`: learn per-host load profiles (warm-started from vCenter's history) and publish forecasts. */
  readonly prediction?: { readonly enabled: boolean };
}

/** Snapshots older than this many maxMetricAge are dropped. */
const DROP_AFTER_MAX_AGES = 10;
const MAX_BACKOFF_MS = 5 * 60_000;
const COUNTER_TTL_SECONDS = 3600;
/** Logging out on shutdown waits at most this long. */
const LOGOUT_TIMEOUT_MS = 2_000;
export const MAX_QUERY_METRICS_OPTION = "config.vpxd.stats.maxQueryMetrics";

/**
 * Polls vCenter on a timer and keeps the last good InventoryView. One cycle in flight at
 * most (a second `pollOnce` joins the running one); while vCenter fails, the next attempt
 * waits an exponential, jittered delay; the last good snapshot is served until it is
 * DROP_AFTER_MAX_AGES x maxMetricAge old (consumers judge freshness from `sampledAtMs`).
 *
 * A host that one cycle cannot read keeps its previous entry (see runPollCycle) for as long as
 * vCenter's host list names it: its metric rules, then its state rules, go stale with the
 * entry's own times, and /debug keeps showing it with its last data and error. After
 * vCenter refuses a login, no login is tried for `vcenter.authRetrySeconds` unless the
 * credential files change, so that hvx never locks the (often shared) account.
 */
export class VcenterPoller implements MetricsSource {
  private readonly clock: () => number;
  private readonly random: () => number;
  private readonly metrics: PollerMetrics;
  private readonly http: VcenterParts["http"];
  private transport: Promise<VcenterTransport> | undefined;
  private transportInUse: VcenterTransport | undefined;
  private readonly cache = new NodeCache({ useClones: false, checkperiod: 0 });
  private readonly perfLimit: PerfLimit = { maxMetrics: MAX_QUERY_METRICS };
  private perfLimitRead = false;
  private readonly gate: CredentialGate;
  private snapshot: InventoryView | undefined;
  private inFlight: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private lastSuccessMs: number | undefined;
  private lastAttemptMs: number | undefined;
  private lastError: string | undefined;
  private failures = 0;
  private readonly clockOffset: ClockOffsetKeeper;
  private readonly hostErrors: HostErrorBook;
  private readonly forecasts: ForecastKeeper | undefined;
  private readonly counters: WantedCounters;

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
    this.counters = wantedCounters(options.thresholds);
    this.random = options.random ?? Math.random;
    this.metrics = options.metrics;
    this.gate = new CredentialGate({
      credentials: { username: vc.username, password: vc.password },
      ...(options.credentialFiles ? { files: options.credentialFiles } : {}),
      authRetrySeconds: vc.authRetrySeconds,
      clock: this.clock,
      log: options.log,
      onRefused: (api) => this.metrics.countAuthFailure(api),
    });
    this.clockOffset = new ClockOffsetKeeper(options.log, (s) => this.metrics.setClockOffset(s));
    this.hostErrors = new HostErrorBook(options.log, (reason) => this.metrics.countHostFailure(reason));
    this.metrics.bindDataAge(() => (this.lastSuccessMs === undefined ? undefined : (this.clock() - this.lastSuccessMs) / 1000));
    if (options.prediction?.enabled) {
      const log = options.log;
      this.forecasts = new ForecastKeeper({
        metrics: options.predictionMetrics,
        log,
        clock: this.clock,
        readHistory: async (view, hostIds, profiles, vcenterNowMs, offsetMs) => {
          const { perf } = await this.currentTransport();
          const counters = this.counters;
          const index = await counterIndex({ cache: this.cache, vijson: perf, log, counterTtlSeconds: COUNTER_TTL_SECONDS, counters });
          const deps = { vijson: perf, log, perfLimit: this.perfLimit, index, memStateScale: index.memStateScale, counters };
          return warmStartHistory(deps, view, hostIds, profiles, vcenterNowMs, offsetMs);
        },
      });
    }
    this.http = options.http;
  }

  /** Polls now, then every pollIntervalSeconds (or the backoff delay while failing). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops polling and logs out of both APIs (best effort, bounded); resolves when done. */
  stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const closing = (this.inFlight ?? Promise.resolve()).catch(() => undefined);
    const transport = this.transport?.catch(() => undefined);
    const logouts = closing.then(async () => {
      const t = await transport;
      if (!t) return;
      const results = await Promise.allSettled([t.inventory.logout(), t.perf.logout()]);
      const done = results.map((r) => (r.status === "fulfilled" ? r.value : false));
      this.options.log.debug({ api: t.api, inventory: done[0], perf: done[1] }, "vCenter sessions logged out");
    });
    let timeout: NodeJS.Timeout | undefined;
    const bounded = Promise.race([logouts, new Promise<void>((resolve) => (timeout = setTimeout(resolve, LOGOUT_TIMEOUT_MS)))]);
    return bounded.finally(() => {
      clearTimeout(timeout);
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

  /** One VM's `summary` through the poller's VI/JSON or SOAP session (VM reservations, read hourly). */
  async vmSummary(vmId: string): Promise<VmSummaryInfo> {
    return (await this.currentTransport()).perf.vmSummary(vmId);
  }

  /** Resolves when the history warm start under way (if any) is over. */
  historySettled(): Promise<void> {
    return this.forecasts?.historySettled() ?? Promise.resolve();
  }

  latest(): InventoryView {
    const snap = this.snapshot;
    if (!snap) return EMPTY_INVENTORY;
    const ageMs = this.clock() - (snap.polledAtMs ?? 0);
    if (ageMs > this.dropAfterMs()) {
      this.snapshot = undefined;
      this.options.log.warn({ ageS: Math.round(ageMs / 1000) }, "dropping vCenter data: too old to be of use");
      return EMPTY_INVENTORY;
    }
    return snap;
  }

  status(): SourceStatus {
    const hostErrors = this.hostErrors.status();
    const authSuspended = this.gate.suspension();
    const clockOffsetMs = this.clockOffset.offsetMs();
    return {
      consecutiveFailures: this.failures,
      ...(this.lastSuccessMs !== undefined ? { lastSuccessMs: this.lastSuccessMs } : {}),
      ...(this.lastAttemptMs !== undefined ? { lastAttemptMs: this.lastAttemptMs } : {}),
      ...(this.lastError !== undefined ? { lastError: this.lastError } : {}),
      ...(hostErrors ? { hostErrors } : {}),
      ...(authSuspended ? { authSuspended } : {}),
      ...(clockOffsetMs !== undefined ? { clockOffsetSeconds: Math.round(clockOffsetMs / 100) / 10 } : {}),
      maxQueryMetrics: this.perfLimit.maxMetrics,
      ...(this.transportInUse ? { api: this.transportInUse.api } : {}),
    };
  }

  /** Delay before the next scheduled cycle, ms: the poll interval, or the backoff while failing. */
  nextDelayMs(): number {
    const intervalMs = this.options.vcenter.pollIntervalSeconds * 1000;
    // While logins are suspended a cycle only re-reads the credential files: keep the interval.
    if (this.gate.suspension()) return intervalMs;
    return backoffDelayMs(this.failures, intervalMs, Math.max(intervalMs, MAX_BACKOFF_MS), this.random);
  }

  private async cycle(): Promise<void> {
    const startedMs = this.clock();
    this.lastAttemptMs = startedMs;
    try {
      this.gate.refresh();
      this.gate.checkCycle();
      const { inventory, perf } = await this.currentTransport();
      await this.readPerfLimit(perf);
      const result = await runPollCycle({
        automation: inventory,
        vijson: perf,
        clusterNames: this.options.vcenter.clusters,
        counters: this.counters,
        cache: this.cache,
        counterTtlSeconds: COUNTER_TTL_SECONDS,
        log: this.options.log,
        clock: this.clock,
        ...(this.snapshot ? { previous: this.snapshot } : {}),
        perfLimit: this.perfLimit,
        ...(this.clockOffset.offsetMs() !== undefined ? { lastClockOffsetMs: this.clockOffset.offsetMs()! } : {}),
      });
      const view = this.forecasts
        ? this.forecasts.withForecasts(result.view, result.clockOffsetMs ?? this.clockOffset.offsetMs() ?? 0)
        : result.view;
      this.snapshot = view;
      this.failures = 0;
      this.lastError = undefined;
      this.lastSuccessMs = view.polledAtMs ?? this.clock();
      this.hostErrors.record(view, result.hostFailures, this.clock());
      if (result.clockMeasured && result.clockOffsetMs !== undefined) this.clockOffset.record(result.clockOffsetMs);
      this.metrics.observePoll((this.clock() - startedMs) / 1000, "success", "");
      this.metrics.setLastSuccess(this.lastSuccessMs);
      this.metrics.setInventorySize(view.hosts.size, view.vms.size);
      this.options.log.debug(
        { hosts: view.hosts.size, vms: view.vms.size, failedHosts: result.hostFailures.size },
        "vCenter poll cycle done",
      );
    } catch (thrown) {
      const err = withApiHint(thrown, this.transportInUse, this.options.vcenter.viJsonRelease);
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

  /**
   * `config.vpxd.stats.maxQueryMetrics`, read once through the OptionManager: a positive
   * value below 256 lowers the QueryPerf size; a missing setting (InvalidName) or another
   * fault keeps 256. Not read again once vCenter answered; a refused login fails the cycle;
   * no answer or a transient error is retried next cycle (the cycle goes on meanwhile).
   */
  private async readPerfLimit(perf: VcenterTransport["perf"]): Promise<void> {
    if (this.perfLimitRead) return;
    let limit: number | undefined;
    try {
      const options = await perf.queryOptions(MAX_QUERY_METRICS_OPTION);
      limit = optionInteger(options.find((o) => o.key === MAX_QUERY_METRICS_OPTION)?.value);
    } catch (err) {
      if (err instanceof VcenterAuthError) throw err;
      // Only vCenter's own answer to QueryOptions settles it (InvalidName: not set; NoPermission; ...).
      // No answer, a transient SystemError or a failed login before it: ask again next cycle.
      const settled =
        err instanceof VcenterHttpError &&
        /[/ ]QueryOptions$/.test(err.request) &&
        err.errorType !== undefined &&
        err.errorType !== "SystemError";
      if (!settled) return;
      this.options.log.debug(
        { fault: err.errorType },
        `${MAX_QUERY_METRICS_OPTION} not readable; QueryPerf keeps ${MAX_QUERY_METRICS} metrics`,
      );
    }
    this.perfLimitRead = true;
    if (limit !== undefined && limit > 0 && limit < this.perfLimit.maxMetrics) {
      this.perfLimit.maxMetrics = limit;
      this.options.log.info(
        { maxQueryMetrics: limit },
        `vCenter's ${MAX_QUERY_METRICS_OPTION} is lower than ${MAX_QUERY_METRICS}; QueryPerf is split to fit`,
      );
    }
  }

  private dropAfterMs(): number {
    return DROP_AFTER_MAX_AGES * this.options.maxMetricAgeSeconds * 1000;
  }

  /** The transport `vcenter.api` chose, read from the release list at the first cycle (again after a failed read). */
  private currentTransport(): Promise<VcenterTransport> {
    if (!this.transport) {
      const vc = this.options.vcenter;
      this.transport = selectTransport(
        {
          send: this.http.send,
          ...this.gate.credentials(),
          credentials: () => this.gate.credentials(),
          loginGate: this.gate,
          choice: vc.api,
          viJsonRelease: vc.viJsonRelease,
          onRelogin: (api) => this.relogin(api),
        },
        this.options.log,
      );
      this.transport.then(
        (t) => (this.transportInUse = t),
        () => (this.transport = undefined),
      );
    }
    return this.transport;
  }

  private relogin(api: VcenterApi): void {
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

/** An OptionValue's `anyType` value as an integer: `{"_typeName":"int","_value":64}`, a long, or a numeric string. */
export function optionInteger(value: unknown): number | undefined {
  const raw = value !== null && typeof value === "object" && "_value" in value ? (value as { _value: unknown })._value : value;
  const n = typeof raw === "number" ? raw : typeof raw === "string" && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}
