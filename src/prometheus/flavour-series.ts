/**
 * The Prometheus series hvx reads, per flavour, with their exporters' exact names (issue 11).
 *
 * telegraf (Telegraf `inputs.vsphere` + `outputs.prometheus_client`): values in vCenter's
 * units except `*_usage_average`, which Telegraf already divides by 100 (percent 0..100).
 * Every `cpu.*` series exists once per vCPU (`cpu="0"`, ...) and once as `cpu="instance-total"`.
 *
 * vmware_exporter (pryorda/vmware_exporter): raw vCenter units (`*_cpu_usage_average` in
 * hundredths of a percent), plus inventory gauges; no moid and no UUID labels.
 */
export type Flavour = "telegraf" | "vmware_exporter";

export interface SeriesSpec {
  readonly name: string;
  /** Matchers that pick the aggregate series, e.g. `cpu="instance-total"`. */
  readonly matchers?: string;
}

const TOTAL = 'cpu="instance-total"';

export const TELEGRAF = {
  vmReady: "vsphere_vm_cpu_ready_summation",
  vmBalloon: "vsphere_vm_mem_vmmemctl_average",
  vmSwapped: "vsphere_vm_mem_swapped_average",
  hostCpuUsage: "vsphere_host_cpu_usage_average",
  hostMemUsage: "vsphere_host_mem_usage_average",
  hostBalloon: "vsphere_host_mem_vmmemctl_average",
  hostSwapIn: "vsphere_host_mem_swapinRate_average",
  hostMemState: "vsphere_host_mem_state_latest",
} as const;

export const EXPORTER = {
  vmReady: "vmware_vm_cpu_ready_summation",
  vmBalloon: "vmware_vm_mem_vmmemctl_average",
  vmSwapped: "vmware_vm_mem_swapped_average",
  vmNumCpu: "vmware_vm_num_cpu",
  vmMemoryMax: "vmware_vm_memory_max",
  vmPowerState: "vmware_vm_power_state",
  hostCpuUsage: "vmware_host_cpu_usage_average",
  hostBalloon: "vmware_host_mem_vmmemctl_average",
  hostSwapIn: "vmware_host_mem_swapinRate_average",
  hostNumCpu: "vmware_host_num_cpu",
  hostCpuMax: "vmware_host_cpu_max",
  hostMemoryMax: "vmware_host_memory_max",
  hostMemoryUsage: "vmware_host_memory_usage",
  hostMaintenance: "vmware_host_maintenance_mode",
  hostConnection: "vmware_host_connection_state",
} as const;

/** The series one cycle reads. Host and VM CPU usage are not read: no rule uses them (host usage is). */
export function seriesFor(flavour: Flavour): SeriesSpec[] {
  if (flavour === "telegraf") {
    return Object.values(TELEGRAF).map((name) => (name.includes("_cpu_") ? { name, matchers: TOTAL } : { name }));
  }
  return Object.values(EXPORTER).map((name) => ({ name }));
}

/**
 * The two instant queries of one series: its values, and `timestamp()` of the same selector
 * (each sample's own time, for the staleness rules; the value query's time is the evaluation
 * time). `selector` holds the user's extra matchers (`vcenter="vc01:443"`), added as given.
 */
export function seriesQueries(spec: SeriesSpec, selector: string): { value: string; time: string } {
  const matchers = [spec.matchers, selector.trim()].filter((m): m is string => m !== undefined && m !== "").join(",");
  const vector = `${spec.name}{${matchers}}`;
  return { value: vector, time: `timestamp(${vector})` };
}
