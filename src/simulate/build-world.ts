import { NO_TRACES, usesTraces, type ScenarioTraces, type TraceSeries } from "./load-traces.js";
import { cpuSharesOf, type Scenario, type UsageSpec } from "./scenario.js";
import { ScenarioError } from "./scenario-error.js";

/**
 * The static part of a simulation: hosts, VMs, nodes and pods as flat typed arrays,
 * expanded once from the scenario and shared (read-only) by every strategy run.
 * Index conventions: host h, VM v (node VMs first, then noisy VMs), node n (= VM n),
 * pod p, workload w.
 */
export interface World {
  readonly scenario: Scenario;
  readonly stepSeconds: number;
  readonly steps: number;
  readonly lagSteps: number;
  readonly startMs: number;
  readonly hosts: HostArrays;
  readonly vms: VmArrays;
  readonly nodes: NodeArrays;
  readonly pods: PodArrays;
  /** Usage spec per noisy VM (index v - nodes.count); undefined when a trace drives it. */
  readonly noisyCpu: ReadonlyArray<UsageSpec | undefined>;
  /** Trace per noisy VM (index v - nodes.count), or undefined. */
  readonly noisyTrace: ReadonlyArray<TraceSeries | undefined>;
  /** Trace per pod (its replica's file), or undefined. */
  readonly podTrace: ReadonlyArray<TraceSeries | undefined>;
  /** Trace rows skipped (unparsable or zero capacity). */
  readonly skippedTraceRows: number;
}

export interface HostArrays {
  readonly count: number;
  readonly names: readonly string[];
  readonly ids: readonly string[];
  readonly cores: Int32Array;
  /** NUMA nodes the cores are split into (the `queueing` physics). */
  readonly numaNodes: Int32Array;
  readonly mhzPerCore: Float64Array;
  readonly memoryMiB: Float64Array;
}

export interface VmArrays {
  readonly count: number;
  readonly names: readonly string[];
  readonly ids: readonly string[];
  readonly biosUuids: readonly string[];
  /** Initial host (runs copy it: VMs move). */
  readonly initialHost: Int32Array;
  readonly vcpus: Int32Array;
  readonly memoryMiB: Float64Array;
  readonly reservationMiB: Float64Array;
  /** Noisy VMs: touched memory as a share of configured memory. */
  readonly memoryShare: Float64Array;
  /** ESXi CPU shares, reservation (MHz) and limit (MHz, Infinity for none). */
  readonly cpuShares: Float64Array;
  readonly cpuReservationMhz: Float64Array;
  readonly cpuLimitMhz: Float64Array;
}

export interface NodeArrays {
  readonly count: number;
  readonly names: readonly string[];
  readonly allocCpuMilli: Float64Array;
  readonly allocMemMiB: Float64Array;
}

export interface PodArrays {
  readonly count: number;
  readonly names: readonly string[];
  /** Replica group (`ReplicaSet/default/<workload>`, or `Job/default/<workload>-b<batch>` for batches). */
  readonly owners: readonly string[];
  readonly workload: Int32Array;
  /**
   * The ReplicaSet a pod belongs to (its workload index), or -1 for a Job's pod. The system
   * default PodTopologySpread constraints apply to ReplicaSet pods only (a Job is not one of
   * the controllers kube-scheduler's DefaultSelector looks at).
   */
  readonly replicaSet: Int32Array;
  readonly arriveStep: Int32Array;
  /** Arrival time, seconds from the start (within its step: when the scheduler first sees it). */
  readonly arriveSecond: Float64Array;
  /** Index among its batch's replicas (a trace's k-th file). */
  readonly replica: Int32Array;
  /** Steps a pod runs before it finishes; 0 = until the end. */
  readonly lifetimeSteps: Int32Array;
  readonly priority: Int32Array;
  /** Requests as scheduled (after the oversell ratio). */
  readonly reqCpuMilli: Float64Array;
  readonly reqMemMiB: Float64Array;
  /** Requests as written (kept in `hvx.io/original-requests`). */
  readonly origCpuMilli: Float64Array;
  readonly origMemMiB: Float64Array;
  readonly limCpuMilli: Float64Array;
  readonly limMemMiB: Float64Array;
}

const MIB_PER_GIB = 1024;

/** Expands a validated scenario (and its loaded traces). Deterministic: no randomness here. */
export function buildWorld(s: Scenario, traces: ScenarioTraces = NO_TRACES): World {
  if (traces === NO_TRACES && usesTraces(s)) throw new ScenarioError(["the scenario reads trace files: load them with loadTraces first"]);
  const stepSeconds = s.stepSeconds;
  const steps = Math.round((s.durationHours * 3600) / stepSeconds);
  const H = s.hosts.count;
  const hosts: HostArrays = {
    count: H,
    names: range(H).map((h) => `esx-${pad(h + 1)}`),
    ids: range(H).map((h) => `host-${1000 + h}`),
    cores: Int32Array.from(range(H), () => s.hosts.cores),
    numaNodes: Int32Array.from(range(H), () => s.hosts.numaNodes),
    mhzPerCore: Float64Array.from(range(H), () => s.hosts.mhzPerCore),
    memoryMiB: Float64Array.from(range(H), () => s.hosts.memoryGiB * MIB_PER_GIB),
  };

  const vmHost: number[] = [];
  const vcpus: number[] = [];
  const memMiB: number[] = [];
  const resMiB: number[] = [];
  const share: number[] = [];
  const shares: number[] = [];
  const cpuRes: number[] = [];
  const cpuLim: number[] = [];
  const names: string[] = [];
  const noisyCpu: Array<UsageSpec | undefined> = [];
  const noisyTrace: Array<TraceSeries | undefined> = [];
  const nv = s.nodeVms;
  for (let i = 0; i < H * nv.perHost; i++) {
    vmHost.push(i % H);
    vcpus.push(nv.vcpus);
    memMiB.push(nv.memoryGiB * MIB_PER_GIB);
    resMiB.push(nv.reservationGiB * MIB_PER_GIB);
    share.push(0);
    shares.push(cpuSharesOf(nv.cpuAllocation, nv.vcpus));
    cpuRes.push(nv.cpuAllocation.reservationMhz);
    cpuLim.push(nv.cpuAllocation.limitMhz ?? Infinity);
    names.push(`k8s-node-${pad(i + 1)}`);
  }
  const nodeCount = names.length;
  s.noisyVms.forEach((group, gi) => {
    const files = traces.noisyGroups[gi];
    let kth = 0;
    for (const h of group.hosts ?? range(H)) {
      for (let k = 0; k < group.perHost; k++) {
        noisyTrace.push(files ? files[kth % files.length] : undefined);
        kth++;
        vmHost.push(h);
        vcpus.push(group.vcpus);
        memMiB.push(group.memoryGiB * MIB_PER_GIB);
        resMiB.push(0);
        share.push(group.memoryPercent / 100);
        shares.push(cpuSharesOf(group.cpuAllocation, group.vcpus));
        cpuRes.push(group.cpuAllocation.reservationMhz);
        cpuLim.push(group.cpuAllocation.limitMhz ?? Infinity);
        names.push(`app-vm-${pad(names.length - nodeCount + 1)}`);
        noisyCpu.push(group.cpu);
      }
    }
  });
  const V = names.length;
  const vms: VmArrays = {
    count: V,
    names,
    ids: range(V).map((v) => `vm-${2000 + v}`),
    biosUuids: range(V).map((v) => `4200${hex(v, 4)}-0000-4000-8000-${hex(v * 7919 + 1, 12)}`),
    initialHost: Int32Array.from(vmHost),
    vcpus: Int32Array.from(vcpus),
    memoryMiB: Float64Array.from(memMiB),
    reservationMiB: Float64Array.from(resMiB),
    memoryShare: Float64Array.from(share),
    cpuShares: Float64Array.from(shares),
    cpuReservationMhz: Float64Array.from(cpuRes),
    cpuLimitMhz: Float64Array.from(cpuLim),
  };
  const nodes: NodeArrays = {
    count: nodeCount,
    names: names.slice(0, nodeCount),
    // allocatable = capacity - kube/system reserved (- eviction threshold for memory), as kubelet computes it
    allocCpuMilli: Float64Array.from(range(nodeCount), () => nv.vcpus * 1000 - nv.kubeReservedCpuMilli),
    allocMemMiB: Float64Array.from(range(nodeCount), () => nv.memoryGiB * MIB_PER_GIB - nv.kubeReservedMemoryMiB - nv.evictionHardMiB),
  };
  const pods = buildPods(s, steps);
  const podTrace = Array.from({ length: pods.count }, (_, p) => {
    const files = traces.workloads[pods.workload[p]!];
    return files ? files[pods.replica[p]! % files.length] : undefined;
  });
  return {
    scenario: s,
    stepSeconds,
    steps,
    lagSteps: Math.ceil(s.pollIntervalSeconds / stepSeconds),
    startMs: Date.parse(s.startTime),
    hosts,
    vms,
    nodes,
    pods,
    noisyCpu,
    noisyTrace,
    podTrace,
    skippedTraceRows: traces.skippedRows,
  };
}

function buildPods(s: Scenario, steps: number): PodArrays {
  const stepMin = s.stepSeconds / 60;
  const rows: Array<{
    name: string;
    owner: string;
    w: number;
    rs: number;
    arrive: number;
    arriveS: number;
    replica: number;
    life: number;
  }> = [];
  s.workloads.forEach((w, wi) => {
    const every = w.repeatEveryMinutes;
    const batches = every === undefined ? 1 : Math.max(1, Math.floor((s.durationHours * 60 - w.arrival.startMinute) / every));
    for (let b = 0; b < batches; b++) {
      const start = w.arrival.startMinute + b * (every ?? 0);
      for (let r = 0; r < w.replicas; r++) {
        // replicas arrive evenly over the spread window, or in a burst at ratePerSecond
        const rate = w.arrival.ratePerSecond;
        const minute =
          rate !== undefined ? start + r / rate / 60 : start + (w.replicas > 1 ? (w.arrival.spreadMinutes * r) / w.replicas : 0);
        const arrive = Math.floor(minute / stepMin);
        if (arrive >= steps) continue;
        const name = batches > 1 ? `${w.name}-b${b}-${r}` : `${w.name}-${r}`;
        const owner = batches > 1 ? `Job/default/${w.name}-b${b}` : `ReplicaSet/default/${w.name}`;
        rows.push({
          name,
          owner,
          w: wi,
          rs: batches > 1 ? -1 : wi,
          arrive,
          arriveS: minute * 60,
          replica: r,
          life: w.lifetimeMinutes === undefined ? 0 : Math.max(1, Math.round(w.lifetimeMinutes / stepMin)),
        });
      }
    }
  });
  const P = rows.length;
  const wl = (p: number) => s.workloads[rows[p]!.w]!;
  const cpuRatio = s.oversell.cpuRatio;
  const memRatio = s.oversell.memoryRatio;
  return {
    count: P,
    names: rows.map((r) => r.name),
    owners: rows.map((r) => r.owner),
    workload: Int32Array.from(rows, (r) => r.w),
    replicaSet: Int32Array.from(rows, (r) => r.rs),
    arriveStep: Int32Array.from(rows, (r) => r.arrive),
    arriveSecond: Float64Array.from(rows, (r) => r.arriveS),
    replica: Int32Array.from(rows, (r) => r.replica),
    lifetimeSteps: Int32Array.from(rows, (r) => r.life),
    priority: Int32Array.from(range(P), (p) => wl(p).priority),
    // the admission webhook divides requests by the ratio, whole millicores / MiB (DESIGN: never below a floor)
    reqCpuMilli: Float64Array.from(range(P), (p) => scaleRequest(wl(p).cpuRequestMilli, cpuRatio, 10)),
    reqMemMiB: Float64Array.from(range(P), (p) => scaleRequest(wl(p).memoryRequestMiB, memRatio, 16)),
    origCpuMilli: Float64Array.from(range(P), (p) => wl(p).cpuRequestMilli),
    origMemMiB: Float64Array.from(range(P), (p) => wl(p).memoryRequestMiB),
    limCpuMilli: Float64Array.from(range(P), (p) => wl(p).cpuLimitMilli),
    limMemMiB: Float64Array.from(range(P), (p) => wl(p).memoryLimitMiB),
  };
}

/** Oversell: request / ratio, rounded to whole units, never below the floor (10m, 16Mi); 0 stays 0. */
export function scaleRequest(request: number, ratio: number, floor: number): number {
  if (request <= 0 || ratio <= 1) return request;
  return Math.min(request, Math.max(floor, Math.round(request / ratio)));
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
function pad(n: number): string {
  return String(n).padStart(3, "0");
}
function hex(n: number, width: number): string {
  return (n >>> 0).toString(16).padStart(width, "0").slice(-width);
}
