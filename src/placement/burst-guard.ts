import type { PodView, ResourceAmounts } from "../model/cluster.js";
import type { HostMetrics, HostView } from "../model/inventory.js";
import { HOST_METRIC_RULES } from "./rules/index.js";

export interface PendingDemand extends ResourceAmounts {
  /** How many bound pods are not yet visible in the host's metrics. */
  readonly pods: number;
}

export const NO_PENDING: PendingDemand = Object.freeze({ cpuMilli: 0, memoryBytes: 0, pods: 0 });

/**
 * Demand of the pods bound to a host's node VMs that its metrics cannot show yet: a pod
 * counts while no sample stamped at or after `boundAtMs + settleMs` has arrived (DESIGN
 * "Burst guard"), so pods bound long before the current sample never count twice.
 * `boundAtMs` is on hvx's clock (when its informer first saw the pod bound; pods found
 * by a list have none and never count), and so must `sampledAtMs` be.
 */
export function pendingDemand(pods: readonly PodView[], sampledAtMs: number | undefined, settleMs: number): PendingDemand {
  // Lists are immutable snapshots: remember the last answer per list.
  const known = lastAnswer.get(pods);
  if (known && known.sampledAtMs === sampledAtMs && known.settleMs === settleMs) return known.pending;
  const pending = sumPending(pods, sampledAtMs, settleMs);
  lastAnswer.set(pods, { sampledAtMs, settleMs, pending });
  return pending;
}

const lastAnswer = new WeakMap<readonly PodView[], { sampledAtMs: number | undefined; settleMs: number; pending: PendingDemand }>();

/**
 * Records the answer for a list derived from a snapshot list (e.g. by subtraction, see
 * without-victims.ts), so that `pendingDemand` answers it without reading every pod again.
 * The caller guarantees that `pending` equals what `pendingDemand` would compute.
 */
export function rememberPending(pods: readonly PodView[], sampledAtMs: number | undefined, settleMs: number, pending: PendingDemand): void {
  lastAnswer.set(pods, { sampledAtMs, settleMs, pending });
}

/** `pendingDemand` without the memo: for the placement index, which is its own memo. */
export function sumPending(pods: readonly PodView[], sampledAtMs: number | undefined, settleMs: number): PendingDemand {
  let cpuMilli = 0;
  let memoryBytes = 0;
  let count = 0;
  for (const pod of pods) {
    if (pod.boundAtMs === undefined || pod.terminal) continue;
    if (sampledAtMs !== undefined && sampledAtMs >= pod.boundAtMs + settleMs) continue;
    cpuMilli += pod.expectedDemand.cpuMilli;
    memoryBytes += pod.expectedDemand.memoryBytes;
    count++;
  }
  return count === 0 ? NO_PENDING : { cpuMilli, memoryBytes, pods: count };
}

/**
 * `all`'s pending demand without `gone`'s (pods of `all`'s list) and with `added`'s; undefined
 * when a sum is not a safe integer, where only the full sum is exact.
 */
export function patchedPending(all: PendingDemand, gone: PendingDemand, added: PendingDemand): PendingDemand | undefined {
  const pods = all.pods - gone.pods + added.pods;
  const cpuMilli = all.cpuMilli - gone.cpuMilli + added.cpuMilli;
  const memoryBytes = all.memoryBytes - gone.memoryBytes + added.memoryBytes;
  const exact = [all, gone, added].every((p) => Number.isSafeInteger(p.cpuMilli) && Number.isSafeInteger(p.memoryBytes));
  if (!exact || !Number.isSafeInteger(cpuMilli) || !Number.isSafeInteger(memoryBytes)) return undefined;
  return pods <= 0 ? NO_PENDING : { cpuMilli, memoryBytes, pods };
}

/**
 * The host as it will look once pending pods run, on the rules declared `projectedBy` a
 * resource: 1000 millicores is one physical core's worth of usage (cpu % += cpuMilli /
 * (cores x 1000) x 100); memory % += bytes / host bytes x 100. Ready time is not projected:
 * it does not grow linearly with load.
 */
export function projectHost(host: HostView, pending: PendingDemand): HostView {
  const m = host.metrics;
  if (pending.pods === 0 || m === undefined) return host;
  return project(host, m, pending);
}

function project(host: HostView, m: NonNullable<HostView["metrics"]>, pending: PendingDemand): HostView {
  const addPercent = {
    cpu: host.cpuCores > 0 ? (pending.cpuMilli / (host.cpuCores * 1000)) * 100 : 0,
    memory: host.memoryMiB > 0 ? (pending.memoryBytes / (host.memoryMiB * 1024 * 1024)) * 100 : 0,
  };
  const metrics: { -readonly [K in keyof HostMetrics]: HostMetrics[K] } = { ...m };
  for (const rule of HOST_METRIC_RULES) {
    const value = m[rule.field];
    if (rule.projectedBy !== undefined && value !== undefined) metrics[rule.field] = value + addPercent[rule.projectedBy];
  }
  return { ...host, metrics };
}
