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
}

/** Registers `hvx_vcenter_*` metrics on `registry`; `dataAgeSeconds` is read at scrape time. */
export function createPollerMetrics(registry: Registry, dataAgeSeconds: () => number | undefined): PollerMetrics {
  const registers = [registry];
  const duration = new Histogram({
    name: "hvx_vcenter_poll_duration_seconds",
    help: "Duration of one vCenter poll cycle.",
    labelNames: ["outcome"],
    buckets: [0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60],
    registers,
  });
  const polls = new Counter({
    name: "hvx_vcenter_polls_total",
    help: "vCenter poll cycles by outcome; failures by error kind (network, http, auth, response, other).",
    labelNames: ["outcome", "error_kind"],
    registers,
  });
  const lastSuccess = new Gauge({
    name: "hvx_vcenter_last_success_timestamp_seconds",
    help: "End of the last successful poll cycle, Unix time.",
    registers,
  });
  const hosts = new Gauge({ name: "hvx_vcenter_hosts", help: "ESXi hosts in the last good inventory.", registers });
  const vms = new Gauge({ name: "hvx_vcenter_vms", help: "VMs in the last good inventory.", registers });
  const requests = new Counter({
    name: "hvx_vcenter_requests_total",
    help: "HTTP requests to vCenter by API (automation, vijson) and outcome (ok, error_status, network_error).",
    labelNames: ["api", "outcome"],
    registers,
  });
  const relogins = new Counter({
    name: "hvx_vcenter_relogins_total",
    help: "Sessions renewed after vCenter rejected the previous one.",
    labelNames: ["api"],
    registers,
  });
  const hostFailures = new Counter({
    name: "hvx_vcenter_host_failures_total",
    help: "Hosts a poll cycle could not read (each keeps its previous entry), by reason: summary, vm_list, vm_info, perf.",
    labelNames: ["reason"],
    registers,
  });
  for (const reason of HOST_FAILURE_REASONS) hostFailures.inc({ reason }, 0);
  const authFailures = new Counter({
    name: "hvx_vcenter_auth_failures_total",
    help: "Logins vCenter refused (wrong credentials); hvx then waits vcenter.authRetrySeconds before trying again.",
    labelNames: ["api"],
    registers,
  });
  const clockOffset = new Gauge({
    name: "hvx_vcenter_clock_offset_seconds",
    help: "vCenter's clock minus the local clock, as last measured (sample times are converted with it).",
    registers,
  });
  new Gauge({
    name: "hvx_vcenter_data_age_seconds",
    help: "Seconds since the last successful poll cycle (absent before the first).",
    registers,
    collect() {
      const age = dataAgeSeconds();
      if (age === undefined) this.reset();
      else this.set(age);
    },
  });
  return {
    observePoll: (durationS, outcome, errorKind) => {
      duration.observe({ outcome }, durationS);
      polls.inc({ outcome, error_kind: outcome === "success" ? "" : errorKind });
    },
    setLastSuccess: (atMs) => lastSuccess.set(atMs / 1000),
    setInventorySize: (h, v) => {
      hosts.set(h);
      vms.set(v);
    },
    countRequest: (api, outcome) => requests.inc({ api, outcome }),
    countRelogin: (api) => relogins.inc({ api }),
    countHostFailure: (reason) => hostFailures.inc({ reason }),
    countAuthFailure: (api) => authFailures.inc({ api }),
    setClockOffset: (seconds) => clockOffset.set(seconds),
  };
}
