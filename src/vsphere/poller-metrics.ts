import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { VcenterApi } from "./vcenter-api.js";
import { HOST_FAILURE_REASONS } from "./poll-cycle.js";
import type { RequestOutcome } from "./vcenter-http.js";

/** Prometheus metrics of the vCenter poller. Labels are fixed vocabularies: never ids, URLs or secrets. */
export interface PollerMetrics {
  observePoll(durationS: number, outcome: "success" | "failure", errorKind: string): void;
  setLastSuccess(atMs: number): void;
  setInventorySize(hosts: number, vms: number): void;
  countRequest(api: VcenterApi, outcome: RequestOutcome): void;
  countRelogin(api: VcenterApi): void;
  countHostFailure(reason: string): void;
  countAuthFailure(api: VcenterApi): void;
  setClockOffset(seconds: number): void;
  /** Supplies the data age (seconds since the last successful cycle), read at scrape time; undefined = never. */
  bindDataAge(ageSeconds: () => number | undefined): void;
}

/** Per registry: the metrics already created for several vCenters, and each poller's data age. */
const shared = new WeakMap<Registry, { metrics: Metrics; ages: Map<string, () => number | undefined> }>();

/**
 * Registers `hvx_vcenter_*` metrics on `registry`; the data age (`bindDataAge`) is read at scrape
 * time. With `vcenter` (a configured `vcenters[].name`, several vCenters) every series carries the
 * label `vcenter`: the metrics are created once per registry and shared by the pollers.
 * Without it (one vCenter) the names and labels are unchanged.
 */
export function createPollerMetrics(registry: Registry, vcenter?: string): PollerMetrics {
  if (vcenter === undefined) {
    const age = new Map<string, () => number | undefined>([["", () => undefined]]);
    return bind(
      createMetrics(registry, [], () => age),
      {},
      age,
      "",
    );
  }
  let entry = shared.get(registry);
  if (!entry) {
    const ages = new Map<string, () => number | undefined>();
    entry = { metrics: createMetrics(registry, ["vcenter"], () => ages), ages };
    shared.set(registry, entry);
  }
  entry.ages.set(vcenter, () => undefined);
  for (const reason of HOST_FAILURE_REASONS) entry.metrics.hostFailures.inc({ vcenter, reason }, 0);
  return bind(entry.metrics, { vcenter }, entry.ages, vcenter);
}

type Metrics = ReturnType<typeof createMetrics>;

function createMetrics(registry: Registry, extra: readonly string[], ages: () => ReadonlyMap<string, () => number | undefined>) {
  const registers = [registry];
  const labelled = (names: string[]) => [...extra, ...names];
  const duration = new Histogram({
    name: "hvx_vcenter_poll_duration_seconds",
    help: "Duration of one vCenter poll cycle.",
    labelNames: labelled(["outcome"]),
    buckets: [0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60],
    registers,
  });
  const polls = new Counter({
    name: "hvx_vcenter_polls_total",
    help: "vCenter poll cycles by outcome; failures by error kind (network, http, auth, response, other).",
    labelNames: labelled(["outcome", "error_kind"]),
    registers,
  });
  const lastSuccess = new Gauge({
    name: "hvx_vcenter_last_success_timestamp_seconds",
    help: "End of the last successful poll cycle, Unix time.",
    labelNames: labelled([]),
    registers,
  });
  const hosts = new Gauge({
    name: "hvx_vcenter_hosts",
    help: "ESXi hosts in the last good inventory.",
    labelNames: labelled([]),
    registers,
  });
  const vms = new Gauge({ name: "hvx_vcenter_vms", help: "VMs in the last good inventory.", labelNames: labelled([]), registers });
  const requests = new Counter({
    name: "hvx_vcenter_requests_total",
    help: "HTTP requests to vCenter by API (automation, vijson, soap) and outcome (ok, error_status, network_error).",
    labelNames: labelled(["api", "outcome"]),
    registers,
  });
  const relogins = new Counter({
    name: "hvx_vcenter_relogins_total",
    help: "Sessions renewed after vCenter rejected the previous one.",
    labelNames: labelled(["api"]),
    registers,
  });
  const hostFailures = new Counter({
    name: "hvx_vcenter_host_failures_total",
    help: "Hosts a poll cycle could not read (each keeps its previous entry), by reason: summary, vm_list, vm_info, perf.",
    labelNames: labelled(["reason"]),
    registers,
  });
  if (extra.length === 0) for (const reason of HOST_FAILURE_REASONS) hostFailures.inc({ reason }, 0);
  const authFailures = new Counter({
    name: "hvx_vcenter_auth_failures_total",
    help: "Logins vCenter refused (wrong credentials); hvx then waits vcenter.authRetrySeconds before trying again.",
    labelNames: labelled(["api"]),
    registers,
  });
  const clockOffset = new Gauge({
    name: "hvx_vcenter_clock_offset_seconds",
    help: "vCenter's clock minus the local clock, as last measured (sample times are converted with it).",
    labelNames: labelled([]),
    registers,
  });
  new Gauge({
    name: "hvx_vcenter_data_age_seconds",
    help: "Seconds since the last successful poll cycle (absent before the first).",
    labelNames: labelled([]),
    registers,
    collect() {
      this.reset();
      for (const [vcenter, dataAgeSeconds] of ages()) {
        const age = dataAgeSeconds();
        if (age !== undefined) this.set(extra.length > 0 ? { vcenter } : {}, age);
      }
    },
  });
  return { duration, polls, lastSuccess, hosts, vms, requests, relogins, hostFailures, authFailures, clockOffset };
}

/** The PollerMetrics of one poller: `base` (`{}` or `{ vcenter }`) is added to every series; its age is `ages.get(key)`. */
function bind(m: Metrics, base: Record<string, string>, ages: Map<string, () => number | undefined>, key: string): PollerMetrics {
  return {
    observePoll: (durationS, outcome, errorKind) => {
      m.duration.observe({ ...base, outcome }, durationS);
      m.polls.inc({ ...base, outcome, error_kind: outcome === "success" ? "" : errorKind });
    },
    setLastSuccess: (atMs) => m.lastSuccess.set(base, atMs / 1000),
    setInventorySize: (h, v) => {
      m.hosts.set(base, h);
      m.vms.set(base, v);
    },
    countRequest: (api, outcome) => m.requests.inc({ ...base, api, outcome }),
    countRelogin: (api) => m.relogins.inc({ ...base, api }),
    countHostFailure: (reason) => m.hostFailures.inc({ ...base, reason }),
    countAuthFailure: (api) => m.authFailures.inc({ ...base, api }),
    setClockOffset: (seconds) => m.clockOffset.set(base, seconds),
    bindDataAge: (fn) => {
      ages.set(key, fn);
    },
  };
}
