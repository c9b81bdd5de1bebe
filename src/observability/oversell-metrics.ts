import { Gauge, type Registry } from "prom-client";
import type { OversellLedger } from "../placement/oversell-ledger.js";

export interface OversellMetricsSource {
  /** The current ledger, as last computed: a scrape must not wait for a computation. */
  readonly ledger: () => OversellLedger;
  /** Whether the informer cache knows the namespace: only those become label values. */
  readonly knownNamespace: (namespace: string) => boolean;
}

/**
 * `hvx_oversell_requests{namespace,resource,kind}` (cpu in cores, memory in bytes; kind
 * original|scaled) and `hvx_host_stacked_overcommit{host,resource}` (Kubernetes layer x ESXi
 * layer). Both are computed at scrape time: every scrape starts from an empty gauge, so the
 * series of a namespace or host that left disappear with it. Label values are bounded by the
 * namespaces the cache knows and the hosts the poller knows.
 */
export function registerOversellMetrics(registry: Registry, source: OversellMetricsSource): void {
  new Gauge({
    name: "hvx_oversell_requests",
    help: "Requests of the pods the oversell webhook scaled, per namespace: as written (kind=original) and as running (kind=scaled); cpu in cores, memory in bytes.",
    labelNames: ["namespace", "resource", "kind"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const n of source.ledger().namespaces) {
        if (n.podsScaled === 0 || !source.knownNamespace(n.namespace)) continue;
        this.set({ namespace: n.namespace, resource: "cpu", kind: "original" }, n.original.cpuMilli / 1000);
        this.set({ namespace: n.namespace, resource: "cpu", kind: "scaled" }, n.scaled.cpuMilli / 1000);
        this.set({ namespace: n.namespace, resource: "memory", kind: "original" }, n.original.memoryBytes);
        this.set({ namespace: n.namespace, resource: "memory", kind: "scaled" }, n.scaled.memoryBytes);
      }
    },
  });
  new Gauge({
    name: "hvx_host_stacked_overcommit",
    help: "Joint overcommit per ESXi host: sum(limits)/sum(allocatable) of its node VMs times vCPU:pCPU (cpu) or vRAM:pRAM (memory). Absent when unknown.",
    labelNames: ["host", "resource"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const h of source.ledger().hosts) {
        if (h.joint.cpu !== null) this.set({ host: h.name, resource: "cpu" }, h.joint.cpu);
        if (h.joint.memory !== null) this.set({ host: h.name, resource: "memory" }, h.joint.memory);
      }
    },
  });
}
