import type { CoordinationV1Api, V1Lease } from "@kubernetes/client-node";
import type { Logger } from "../observability/logger.js";
import { fromKubeTime, toMicroTime } from "./micro-time.js";
import { describeError } from "./describe-error.js";

export const NODE_LABELLER_LEASE = "hvx-node-labeller";

export interface LeaseElectorOptions {
  readonly api: CoordinationV1Api;
  /** hvx's own namespace (`resolveOwnNamespace`). */
  readonly namespace: string;
  readonly name?: string;
  /** Unique per replica, e.g. the pod name plus a random suffix. */
  readonly identity: string;
  readonly leaseDurationSeconds: number;
  /** Leader renews this often. Default a third of the lease duration. */
  readonly renewIntervalMs?: number;
  /** Followers retry this often. Default half the lease duration. */
  readonly retryIntervalMs?: number;
  /**
   * Leader only while `now - lastSuccessfulRenew < renewDeadline` (client-go's RenewDeadline).
   * Must be below the lease duration, so that a leader whose renews hang stops writing before
   * another replica may take the Lease over. Default two thirds of the lease duration.
   */
  readonly renewDeadlineMs?: number;
  readonly now?: () => number;
  readonly log: Logger;
  readonly onStartedLeading?: () => void;
  readonly onStoppedLeading?: () => void;
}

/**
 * Leader election on a `coordination.k8s.io/v1` Lease, the client-go way: the holder renews
 * `renewTime`; others take over once the record they observed has not changed for
 * `leaseDurationSeconds` on their own clock (no cross-node clock comparison). Writes use the
 * read resourceVersion, so of two contenders exactly one wins (the other gets 409 Conflict).
 * Leadership has a deadline: `isLeader()` turns false once `renewDeadlineMs` has passed since
 * the start of the last successful renew, even while a renew is still hanging.
 */
export class LeaseElector {
  private readonly name: string;
  private readonly now: () => number;
  private readonly renewDeadlineMs: number;
  private leader = false;
  private lastRenewMs = 0;
  private observed: { record: string; atMs: number } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** Set by stop(): an election round still in flight must not make this replica leader again. */
  private stopped = false;

  constructor(private readonly o: LeaseElectorOptions) {
    this.name = o.name ?? NODE_LABELLER_LEASE;
    this.now = o.now ?? Date.now;
    const durationMs = o.leaseDurationSeconds * 1000;
    this.renewDeadlineMs = Math.min(o.renewDeadlineMs ?? (durationMs * 2) / 3, durationMs);
  }

  /** Whether this replica may write now: it holds the Lease and renewed it less than renewDeadline ago. */
  isLeader(): boolean {
    if (this.leader && !this.withinDeadline(this.lastRenewMs)) {
      this.o.log.warn(
        { lease: this.name, identity: this.o.identity, renewDeadlineMs: this.renewDeadlineMs },
        "lease not renewed within the renew deadline; stepping down",
      );
      this.setLeader(false);
    }
    return this.leader;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopped = false;
    const loop = async (): Promise<void> => {
      await this.tryAcquireOrRenew();
      if (!this.running) return;
      const durationMs = this.o.leaseDurationSeconds * 1000;
      const delay = this.leader ? (this.o.renewIntervalMs ?? durationMs / 3) : (this.o.retryIntervalMs ?? durationMs / 2);
      this.timer = setTimeout(() => void loop(), delay * (0.9 + Math.random() * 0.2));
    };
    void loop();
  }

  /** Stops competing; a leader releases the Lease (empty holder) so another replica takes over at once. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopped = true;
    clearTimeout(this.timer);
    if (!this.leader) return;
    try {
      const lease = await this.o.api.readNamespacedLease({ name: this.name, namespace: this.o.namespace });
      if (lease.spec?.holderIdentity === this.o.identity) {
        lease.spec.holderIdentity = "";
        await this.o.api.replaceNamespacedLease({ name: this.name, namespace: this.o.namespace, body: lease });
      }
    } catch (err) {
      this.o.log.debug({ lease: this.name, error: describeError(err) }, "could not release the lease");
    }
    this.setLeader(false);
  }

  /** One election round; returns whether this replica leads afterwards. Never throws. */
  async tryAcquireOrRenew(): Promise<boolean> {
    if (this.stopped) return false;
    const nowMs = this.now();
    try {
      let lease: V1Lease;
      try {
        lease = await this.o.api.readNamespacedLease({ name: this.name, namespace: this.o.namespace });
      } catch (err) {
        if ((err as { code?: number }).code !== 404) throw err;
        await this.o.api.createNamespacedLease({ namespace: this.o.namespace, body: this.newLease(nowMs) });
        return this.renewed(nowMs);
      }
      const spec = lease.spec ?? {};
      const holder = spec.holderIdentity ?? "";
      const record = `${holder}|${String(spec.renewTime)}|${lease.metadata?.resourceVersion}`;
      if (this.observed?.record !== record) this.observed = { record, atMs: nowMs };
      const expired = holder === "" || nowMs >= this.observed.atMs + (spec.leaseDurationSeconds ?? this.o.leaseDurationSeconds) * 1000;
      if (holder !== this.o.identity && !expired) {
        this.setLeader(false);
        return false;
      }
      const micro = toMicroTime(nowMs) as unknown as Date;
      const body: V1Lease = {
        ...lease,
        spec: {
          ...spec,
          holderIdentity: this.o.identity,
          leaseDurationSeconds: this.o.leaseDurationSeconds,
          renewTime: micro,
          acquireTime: holder === this.o.identity ? (toMicroTimeText(spec.acquireTime) ?? micro) : micro,
          leaseTransitions: (spec.leaseTransitions ?? 0) + (holder === this.o.identity || holder === "" ? 0 : 1),
        },
      };
      await this.o.api.replaceNamespacedLease({ name: this.name, namespace: this.o.namespace, body });
      return this.renewed(nowMs);
    } catch (err) {
      const code = (err as { code?: number }).code;
      if (code !== 409) this.o.log.warn({ lease: this.name, error: describeError(err) }, "lease election round failed");
      // A conflict means someone else wrote first; any other failure keeps leadership only until the renew deadline.
      if (this.leader && (code === 409 || !this.withinDeadline(this.lastRenewMs))) this.setLeader(false);
      return this.isLeader();
    }
  }

  private newLease(nowMs: number): V1Lease {
    const micro = toMicroTime(nowMs) as unknown as Date;
    return {
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: this.name, namespace: this.o.namespace },
      spec: {
        holderIdentity: this.o.identity,
        leaseDurationSeconds: this.o.leaseDurationSeconds,
        acquireTime: micro,
        renewTime: micro,
        leaseTransitions: 0,
      },
    };
  }

  /** `startMs`: when the successful round began (its renewTime); a renew that took too long does not count. */
  private renewed(startMs: number): boolean {
    this.lastRenewMs = startMs;
    this.setLeader(!this.stopped && this.withinDeadline(startMs));
    return this.leader;
  }

  private withinDeadline(renewMs: number): boolean {
    return this.now() - renewMs < this.renewDeadlineMs;
  }

  private setLeader(leader: boolean): void {
    if (leader === this.leader) return;
    this.leader = leader;
    this.o.log.info({ lease: this.name, identity: this.o.identity, leader }, leader ? "became leader" : "stopped leading");
    (leader ? this.o.onStartedLeading : this.o.onStoppedLeading)?.();
  }
}

/** Keeps a MicroTime read back from the server in MicroTime form (client-node may hand a Date or text). */
function toMicroTimeText(value: Date | string | undefined): Date | undefined {
  const ms = fromKubeTime(value);
  if (ms === undefined) return undefined;
  return (typeof value === "string" && /\.\d{6}Z$/.test(value) ? value : toMicroTime(ms)) as unknown as Date;
}
