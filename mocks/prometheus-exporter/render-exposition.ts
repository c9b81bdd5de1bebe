import { COUNTERS, counterFullName, type CounterDef } from "../vcenter/counter-catalogue.js";
import type { MockState } from "../vcenter/mock-state.js";
import { counterValue, hostQuickStats, SAMPLE_INTERVAL_S, type PerfEntity } from "../vcenter/perf-values.js";
import type { HostSpec } from "../vcenter/scenario-schema.js";

export type ExporterFlavour = "telegraf" | "vmware_exporter";

/** One line of the text exposition format: name, labels, value (no timestamp: the scrape's time is the sample's). */
interface Line {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
}

const DC = "dc1";

/**
 * The scenario's world in the Prometheus text format, as Telegraf's `inputs.vsphere` with
 * `outputs.prometheus_client` or pryorda/vmware_exporter expose it: exactly the series named
 * in issue 11, their labels and units. Values are the mock vCenter's own QueryPerf values
 * (mocks/vcenter/perf-values.ts) for the latest 20 s sample, so both sources see one world.
 * Performance series exist only for entities vCenter has real-time data for (connected hosts,
 * powered-on VMs on them), as with QueryPerf.
 */
export function renderExposition(state: MockState, flavour: ExporterFlavour, vcenterName: string): string {
  const sampleMs = SAMPLE_INTERVAL_S * 1000;
  const t = (Math.floor(state.clock() / sampleMs) * sampleMs - state.startMs) / 1000;
  const lines = flavour === "telegraf" ? telegrafLines(state, t, vcenterName) : exporterLines(state, t);
  return toText(lines);
}

function counter(name: string): CounterDef {
  const c = COUNTERS.find((d) => counterFullName(d) === name);
  if (c === undefined) throw new Error(`mock exporter: no counter ${name}`);
  return c;
}

function value(state: MockState, name: string, e: PerfEntity, t: number, instance = ""): number | undefined {
  return counterValue(state, counter(name), e, instance, t);
}

function live(state: MockState, e: PerfEntity): boolean {
  if (e.kind === "host") return e.host.connectionState === "CONNECTED";
  return e.vm.powerState === "POWERED_ON" && state.hosts.get(e.vm.host)?.connectionState === "CONNECTED";
}

function clusterName(state: MockState, h: HostSpec | undefined): string | undefined {
  return h?.cluster !== undefined ? state.scenario.clusters.find((c) => c.id === h.cluster)?.name : undefined;
}

function telegrafLines(state: MockState, t: number, vcenter: string): Line[] {
  const out: Line[] = [];
  const push = (name: string, labels: Record<string, string>, v: number | undefined) => {
    if (v !== undefined) out.push({ name, labels, value: v });
  };
  for (const h of state.hosts.values()) {
    const e: PerfEntity = { kind: "host", host: h };
    if (!live(state, e)) continue;
    const cluster = clusterName(state, h);
    const labels = {
      vcenter,
      source: h.name,
      moid: h.id,
      esxhostname: h.name,
      dcname: DC,
      ...(cluster !== undefined ? { clustername: cluster } : {}),
    };
    const usage = value(state, "cpu.usage.average", e, t);
    push("vsphere_host_cpu_usage_average", { ...labels, cpu: "instance-total" }, usage !== undefined ? usage / 100 : undefined);
    push("vsphere_host_cpu_usage_average", { ...labels, cpu: "0" }, usage !== undefined ? usage / 100 : undefined);
    push("vsphere_host_cpu_ready_summation", { ...labels, cpu: "instance-total" }, value(state, "cpu.ready.summation", e, t));
    const mem = value(state, "mem.usage.average", e, t);
    push("vsphere_host_mem_usage_average", labels, mem !== undefined ? mem / 100 : undefined);
    push("vsphere_host_mem_vmmemctl_average", labels, value(state, "mem.vmmemctl.average", e, t));
    push("vsphere_host_mem_swapinRate_average", labels, value(state, "mem.swapinRate.average", e, t));
    push("vsphere_host_mem_state_latest", labels, value(state, "mem.state.latest", e, t));
  }
  for (const vm of state.vms.values()) {
    const e: PerfEntity = { kind: "vm", vm };
    if (!live(state, e)) continue;
    const host = state.hosts.get(vm.host);
    const cluster = clusterName(state, host);
    const labels = {
      vcenter,
      source: vm.name,
      moid: vm.id,
      vmname: vm.name,
      esxhostname: host?.name ?? "",
      uuid: vm.biosUuid,
      guest: vm.guestOS.toLowerCase(),
      guesthostname: vm.name,
      ...(cluster !== undefined ? { clustername: cluster } : {}),
    };
    push("vsphere_vm_cpu_ready_summation", { ...labels, cpu: "instance-total" }, value(state, "cpu.ready.summation", e, t));
    for (let i = 0; i < vm.vcpus; i++)
      push("vsphere_vm_cpu_ready_summation", { ...labels, cpu: String(i) }, value(state, "cpu.ready.summation", e, t, String(i)));
    const usage = value(state, "cpu.usage.average", e, t);
    push("vsphere_vm_cpu_usage_average", { ...labels, cpu: "instance-total" }, usage !== undefined ? usage / 100 : undefined);
    push("vsphere_vm_mem_vmmemctl_average", labels, value(state, "mem.vmmemctl.average", e, t));
    push("vsphere_vm_mem_swapped_average", labels, value(state, "mem.swapped.average", e, t));
  }
  return out;
}

const VI_CONNECTION = { CONNECTED: "connected", DISCONNECTED: "disconnected", NOT_RESPONDING: "notResponding" } as const;

function exporterLines(state: MockState, t: number): Line[] {
  const out: Line[] = [];
  const push = (name: string, labels: Record<string, string>, v: number | undefined) => {
    if (v !== undefined) out.push({ name, labels, value: v });
  };
  for (const h of state.hosts.values()) {
    const e: PerfEntity = { kind: "host", host: h };
    const labels = { host_name: h.name, cluster_name: clusterName(state, h) ?? "", dc_name: DC };
    push("vmware_host_num_cpu", labels, h.cpuCores);
    push("vmware_host_cpu_max", labels, h.cpuCores * h.cpuMhz);
    push("vmware_host_memory_max", labels, h.memoryMiB);
    push("vmware_host_memory_usage", labels, hostQuickStatsAt(state, h, t).memMiB);
    push("vmware_host_maintenance_mode", labels, h.inMaintenance ? 1 : 0);
    for (const [s, word] of Object.entries(VI_CONNECTION))
      push("vmware_host_connection_state", { ...labels, state: word }, h.connectionState === s ? 1 : 0);
    if (!live(state, e)) continue;
    push("vmware_host_cpu_usage_average", labels, value(state, "cpu.usage.average", e, t));
    push("vmware_host_cpu_ready_summation", labels, value(state, "cpu.ready.summation", e, t));
    push("vmware_host_mem_vmmemctl_average", labels, value(state, "mem.vmmemctl.average", e, t));
    push("vmware_host_mem_swapinRate_average", labels, value(state, "mem.swapinRate.average", e, t));
  }
  for (const vm of state.vms.values()) {
    const e: PerfEntity = { kind: "vm", vm };
    const host = state.hosts.get(vm.host);
    const labels = {
      vm_name: vm.name,
      host_name: host?.name ?? "",
      cluster_name: clusterName(state, host) ?? "",
      dc_name: DC,
      ds_name: "datastore1",
    };
    push("vmware_vm_num_cpu", labels, vm.vcpus);
    push("vmware_vm_memory_max", labels, vm.memoryMiB);
    push("vmware_vm_power_state", labels, vm.powerState === "POWERED_ON" ? 1 : 0);
    if (!live(state, e)) continue;
    push("vmware_vm_cpu_ready_summation", labels, value(state, "cpu.ready.summation", e, t));
    push("vmware_vm_cpu_usage_average", labels, value(state, "cpu.usage.average", e, t));
    push("vmware_vm_mem_vmmemctl_average", labels, value(state, "mem.vmmemctl.average", e, t));
    push("vmware_vm_mem_swapped_average", labels, value(state, "mem.swapped.average", e, t));
  }
  return out;
}

/** quickStats memory at scenario time t (hostQuickStats reads the mock clock; the exporter pins the sample time). */
function hostQuickStatsAt(state: MockState, h: HostSpec, t: number): { memMiB: number } {
  return hostQuickStats({ ...state, clock: () => state.startMs + t * 1000 }, h);
}

function toText(lines: readonly Line[]): string {
  const byName = new Map<string, Line[]>();
  for (const l of lines) {
    const same = byName.get(l.name);
    if (same) same.push(l);
    else byName.set(l.name, [l]);
  }
  let text = "";
  for (const [name, ls] of byName) {
    text += `# TYPE ${name} gauge\n`;
    for (const l of ls) {
      const labels = Object.entries(l.labels)
        .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
        .join(",");
      text += `${name}{${labels}} ${l.value}\n`;
    }
  }
  return text;
}

function escapeLabel(v: string): string {
  return v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}
