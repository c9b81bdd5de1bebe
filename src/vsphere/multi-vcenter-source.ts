import type { HostForecast } from "../model/host-forecast.js";
import type { HostView, InventoryView, VmView } from "../model/inventory.js";
import type { HostErrorStatus, MetricsSource, SourceStatus } from "../model/metrics-source.js";
import type { Logger } from "../observability/logger.js";
import type { VmSummaryInfo } from "./vm-reservations.js";

/** One polled vCenter: its configured name and its own source (own sessions, backoff, staleness). */
export interface NamedSource {
  readonly name: string;
  readonly source: MetricsSource & {
    status(): SourceStatus;
    stop?(): Promise<void> | void;
    vmSummary?(vmId: string): Promise<VmSummaryInfo>;
  };
}

/**
 * Several vCenters as one MetricsSource (issue 11 §2). Each vCenter is polled on its own; a
 * failing one keeps its last good snapshot until its own staleness rules drop it, and never
 * touches the others. Host and VM ids are per vCenter, so every id (and each VM's `hostId`)
 * is prefixed with the vCenter's name: `vc01/host-11`. A BIOS UUID seen in two vCenters (a VM
 * mid cross-vCenter vMotion, or a clone) is removed from both VMs and listed in
 * `ambiguousBiosUuids`, so that no node maps to either (not even by name); it is logged once.
 */
export class MultiVcenterSource implements MetricsSource {
  private cache: { inputs: readonly InventoryView[]; view: InventoryView } | undefined;
  private readonly warned = new Set<string>();

  constructor(
    private readonly sources: readonly NamedSource[],
    private readonly log: Logger,
  ) {}

  latest(): InventoryView {
    const inputs = this.sources.map((s) => s.source.latest());
    if (this.cache && inputs.every((v, i) => v === this.cache!.inputs[i])) return this.cache.view;
    const view = this.combine(inputs);
    this.cache = { inputs, view };
    return view;
  }

  status(): SourceStatus {
    const all = this.sources.map((s) => ({ name: s.name, st: s.source.status() }));
    const defined = (xs: (number | undefined)[]) => xs.filter((x): x is number => x !== undefined);
    const successes = defined(all.map((a) => a.st.lastSuccessMs));
    const attempts = defined(all.map((a) => a.st.lastAttemptMs));
    const errors = all.filter((a) => a.st.lastError !== undefined).map((a) => `${a.name}: ${a.st.lastError}`);
    const hostErrors: Record<string, HostErrorStatus> = {};
    for (const a of all) for (const [id, e] of Object.entries(a.st.hostErrors ?? {})) hostErrors[`${a.name}/${id}`] = e;
    const suspended = all.find((a) => a.st.authSuspended);
    return {
      source: "vcenter",
      consecutiveFailures: Math.max(0, ...all.map((a) => a.st.consecutiveFailures)),
      ...(successes.length > 0 ? { lastSuccessMs: Math.max(...successes) } : {}),
      ...(attempts.length > 0 ? { lastAttemptMs: Math.max(...attempts) } : {}),
      ...(errors.length > 0 ? { lastError: errors.join("; ") } : {}),
      ...(Object.keys(hostErrors).length > 0 ? { hostErrors } : {}),
      ...(suspended
        ? { authSuspended: { ...suspended.st.authSuspended!, api: `${suspended.name}/${suspended.st.authSuspended!.api}` } }
        : {}),
    };
  }

  /** One VM's `summary` (VM reservations), from the vCenter its prefixed id (`vc01/vm-101`) names. */
  vmSummary(vmId: string): Promise<VmSummaryInfo> {
    const slash = vmId.indexOf("/");
    const named = this.sources.find((s) => s.name === vmId.slice(0, slash));
    if (slash < 0 || !named?.source.vmSummary) return Promise.reject(new Error(`no vCenter named in VM id ${vmId}`));
    return named.source.vmSummary(vmId.slice(slash + 1));
  }

  /** Stops every vCenter's poller; resolves when all are done. */
  async stop(): Promise<void> {
    await Promise.allSettled(this.sources.map((s) => s.source.stop?.()));
  }

  private combine(inputs: readonly InventoryView[]): InventoryView {
    const uuidOwners = new Map<string, Set<string>>();
    inputs.forEach((inv, i) => {
      for (const vm of inv.vms.values()) {
        if (vm.biosUuid === undefined) continue;
        const key = vm.biosUuid.toLowerCase();
        const owners = uuidOwners.get(key) ?? new Set<string>();
        owners.add(this.sources[i]!.name);
        uuidOwners.set(key, owners);
      }
    });
    const duplicate = new Set<string>();
    for (const [uuid, owners] of uuidOwners) {
      if (owners.size < 2) continue;
      duplicate.add(uuid);
      if (!this.warned.has(uuid)) {
        this.warned.add(uuid);
        this.log.warn(
          { biosUuid: uuid, vcenters: [...owners] },
          "a BIOS UUID is in two vCenters (cross-vCenter vMotion or a clone): no node maps to it",
        );
      }
    }
    const hosts = new Map<string, HostView>();
    const vms = new Map<string, VmView>();
    const forecasts = new Map<string, HostForecast>();
    let polledAtMs: number | undefined;
    inputs.forEach((inv, i) => {
      const prefix = `${this.sources[i]!.name}/`;
      for (const h of inv.hosts.values()) {
        const id = prefix + h.id;
        hosts.set(id, { ...h, id, vmIds: h.vmIds.map((v) => prefix + v) });
      }
      for (const [hostId, f] of inv.forecasts ?? []) forecasts.set(prefix + hostId, f);
      for (const vm of inv.vms.values()) {
        const id = prefix + vm.id;
        const { biosUuid, ...rest } = vm;
        const keep = biosUuid !== undefined && !duplicate.has(biosUuid.toLowerCase());
        vms.set(id, { ...rest, id, hostId: prefix + vm.hostId, ...(keep ? { biosUuid } : {}) });
      }
      if (inv.polledAtMs !== undefined) polledAtMs = Math.max(polledAtMs ?? 0, inv.polledAtMs);
    });
    // polledAtMs: the newest vCenter's; staleness is judged per host from its own times.
    return {
      hosts,
      vms,
      ...(polledAtMs !== undefined ? { polledAtMs } : {}),
      ...(duplicate.size > 0 ? { ambiguousBiosUuids: duplicate } : {}),
      ...(forecasts.size > 0 ? { forecasts } : {}),
    };
  }
}
