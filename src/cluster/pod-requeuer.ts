import { PatchStrategy, setHeaderOptions, type CoreV1Api } from "@kubernetes/client-node";
import type { Logger } from "../observability/logger.js";
import type { HeldPod } from "../placement/requeue-due.js";
import { describeError } from "./describe-error.js";

/** Set on a pending pod when hvx asks kube-scheduler to retry it; the value (the time) changes each time, or no update happens. */
export const REQUEUED_AT_ANNOTATION = "hvx.io/requeued-at";

export interface PodRequeuerOptions {
  readonly api: Pick<CoreV1Api, "patchNamespacedPod">;
  /** The held pods whose rejection no longer holds (`requeueDue` over the latest inventory). */
  readonly due: (held: Iterable<HeldPod>, nowMs: number) => readonly HeldPod[];
  /** Whether the informer shows the pod bound (then nothing is left to retry). */
  readonly isBound: (pod: HeldPod) => boolean;
  /** Pods touched per second at most (`requeue.maxPodsPerSecond`). */
  readonly maxPodsPerSecond: number;
  /** A pod is touched at most once per this window, even when rejected again in between. */
  readonly minIntervalMs: number;
  /** Pods remembered at most; the oldest rejection is forgotten first. */
  readonly maxPods: number;
  /** How often the held pods are checked against the latest inventory. */
  readonly intervalMs: number;
  readonly now?: () => number;
  readonly log: Logger;
  /**
   * The pending pods hvx rejected before this process started (their PodScheduled message names
   * hvx's host heat), once the informers have synced and the first poll has ended; undefined
   * until then. Taken over once, each due at the next round: a pod whose host is still hot is
   * rejected again and then held with its hosts.
   */
  readonly heldBeforeStart?: () => Iterable<{ readonly uid: string; readonly namespace: string; readonly name: string }> | undefined;
  /** Counts each touch: `requeued`, `gone` (404), `failed`. */
  readonly counted?: (outcome: "requeued" | "gone" | "failed") => void;
}

export interface RequeueRound {
  readonly requeued: readonly string[];
  readonly failed: readonly string[];
}

/**
 * Gets pods hvx rejected for host heat retried soon after the host cools (issue 25 §2).
 * kube-scheduler records an extender's rejection as the pseudo-plugin `Extender`, which only
 * cluster events it watches (Node label/taint/allocatable/condition changes, assigned pod
 * deletes, ...) or its 5-minute flush move out of `unschedulablePods`; the heat annotation on
 * a Node is none of those. An update of the pending pod itself is: `PriorityQueue.Update`
 * moves an unschedulable pod whose update changed more than its status (`isPodUpdated`) to
 * activeQ or backoffQ (v1.28), and with QueueingHints the `Extender` pseudo-plugin's default
 * hint queues it on any Pod update (v1.30+). So each pod whose rejection no longer holds gets
 * one merge patch of an annotation, rate-limited; a replica touches only the pods it rejected.
 */
export class PodRequeuer {
  private readonly held = new Map<string, HeldPod>();
  /** uid -> when last touched; bounded like `held`. */
  private readonly touched = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private takenOver = false;
  private readonly now: () => number;

  constructor(private readonly o: PodRequeuerOptions) {
    this.now = o.now ?? Date.now;
  }

  /** The filter's verdict on a pod: `hostIds` the hosts whose heat left it with no node; empty forgets it. */
  remember(pod: { readonly uid: string; readonly namespace: string; readonly name: string }, hostIds: readonly string[]): void {
    if (pod.uid === "") return;
    this.held.delete(pod.uid);
    if (hostIds.length === 0) return;
    if (this.held.size >= this.o.maxPods) this.held.delete(this.held.keys().next().value!);
    this.held.set(pod.uid, { uid: pod.uid, namespace: pod.namespace, name: pod.name, hostIds, atMs: this.now() });
  }

  /** Pods remembered now. */
  size(): number {
    return this.held.size;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    const loop = async (): Promise<void> => {
      await this.requeueOnce();
      if (this.running) this.timer = setTimeout(() => void loop(), this.o.intervalMs);
    };
    this.timer = setTimeout(() => void loop(), this.o.intervalMs);
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
  }

  /** One pass: touches the due pods, at most `maxPodsPerSecond` x the interval. Never throws. */
  async requeueOnce(): Promise<RequeueRound> {
    const requeued: string[] = [];
    const failed: string[] = [];
    if (!this.takenOver) this.takeOver();
    if (this.held.size === 0) return { requeued, failed };
    const nowMs = this.now();
    let due: readonly HeldPod[];
    try {
      due = this.o.due(this.held.values(), nowMs);
    } catch (err) {
      this.o.log.warn({ error: describeError(err) }, "cannot tell which rejected pods to requeue");
      return { requeued, failed };
    }
    let firstError = "";
    let budget = Math.max(1, Math.floor((this.o.maxPodsPerSecond * this.o.intervalMs) / 1000));
    for (const pod of due) {
      if (budget <= 0) break;
      const last = this.touched.get(pod.uid);
      if (last !== undefined && nowMs - last < this.o.minIntervalMs) continue;
      const key = `${pod.namespace}/${pod.name}`;
      if (this.o.isBound(pod)) {
        this.held.delete(pod.uid);
        continue;
      }
      budget--;
      try {
        await this.o.api.patchNamespacedPod(
          {
            name: pod.name,
            namespace: pod.namespace,
            body: { metadata: { annotations: { [REQUEUED_AT_ANNOTATION]: new Date(nowMs).toISOString() } } },
          },
          setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
        );
        this.forget(pod.uid, nowMs);
        requeued.push(key);
        this.o.counted?.("requeued");
      } catch (err) {
        if ((err as { code?: number }).code === 404) {
          this.held.delete(pod.uid);
          this.o.counted?.("gone");
          continue;
        }
        if (failed.length === 0) firstError = describeError(err);
        failed.push(key);
        this.o.counted?.("failed");
      }
    }
    if (failed.length > 0)
      this.o.log.warn(
        { pods: failed.slice(0, 20), count: failed.length, error: firstError },
        "cannot touch pending pods to requeue them; will retry",
      );
    if (requeued.length > 0)
      this.o.log.info({ pods: requeued.slice(0, 20), count: requeued.length }, "requeued pending pods whose ESXi host cooled");
    return { requeued, failed };
  }

  private takeOver(): void {
    const pods = this.o.heldBeforeStart ? this.o.heldBeforeStart() : [];
    if (pods === undefined) return;
    this.takenOver = true;
    const nowMs = this.now();
    for (const pod of pods) {
      if (pod.uid === "" || this.held.has(pod.uid)) continue;
      if (this.held.size >= this.o.maxPods) break;
      this.held.set(pod.uid, { uid: pod.uid, namespace: pod.namespace, name: pod.name, hostIds: [], atMs: nowMs });
    }
  }

  private forget(uid: string, nowMs: number): void {
    this.held.delete(uid);
    this.touched.delete(uid);
    if (this.touched.size >= this.o.maxPods) this.touched.delete(this.touched.keys().next().value!);
    this.touched.set(uid, nowMs);
  }
}
